module cgogoheap

go 1.19
