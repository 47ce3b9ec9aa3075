module leakscope.test/cgo-leak

go 1.19
