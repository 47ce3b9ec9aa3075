module cgoprinted

go 1.19
