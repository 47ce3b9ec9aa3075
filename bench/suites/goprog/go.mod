module leakscope.bench/goprog

go 1.19
