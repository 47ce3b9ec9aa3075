module leakscope.test/cgo-good

go 1.19
