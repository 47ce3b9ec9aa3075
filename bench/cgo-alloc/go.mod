module leakscope.bench/cgo-alloc

go 1.19
