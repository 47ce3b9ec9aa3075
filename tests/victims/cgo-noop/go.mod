module leakscope.test/cgo-noop

go 1.19
