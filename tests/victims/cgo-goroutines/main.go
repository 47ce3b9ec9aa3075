// cgo-goroutines: three goroutines, each locked to an OS thread of its own,
// call C's leak_sized(k) for k = 1, 2, 3 (2,001, 2,002 and 2,003 bytes
// leaked from main.worker); then os.Exit(3), so no atexit handler runs.
package main

// #include "leak.h"
import "C"

import (
	"fmt"
	"os"
	"runtime"
	"sync"
)

func worker(k int, wg *sync.WaitGroup) {
	defer wg.Done()
	runtime.LockOSThread()
	p := C.leak_sized(C.int(k))
	fmt.Printf("worker %d leaked %p\n", k, p)
}

func main() {
	var wg sync.WaitGroup
	for k := 1; k <= 3; k++ {
		wg.Add(1)
		go worker(k, &wg)
	}
	wg.Wait()
	os.Exit(3)
}
