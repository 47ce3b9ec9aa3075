// cgo-alloc N: N times C.malloc(64) and C.free from Go (bench/process-heavy.sh
// compares the cost per call with the same loop in C, bench/proc-loops.c
// "malloc"). Each call crosses into C through cgo (runtime.cgocall), so the
// interposer's hooks run on a thread the Go runtime made.
package main

// #include <stdlib.h>
import "C"

import (
	"fmt"
	"os"
	"strconv"
	"unsafe"
)

var sink unsafe.Pointer

func main() {
	n := 1000000
	if len(os.Args) > 1 {
		v, err := strconv.Atoi(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "usage: cgo-alloc [N]")
			os.Exit(2)
		}
		n = v
	}
	for i := 0; i < n; i++ {
		p := C.malloc(64)
		sink = p
		C.free(p)
	}
	fmt.Printf("cgo malloc x %d\n", n)
}
