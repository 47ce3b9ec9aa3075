module leakscope.test/cgo-goroutines

go 1.19
