module leakscope.test/cgo-server

go 1.19
