// cgo-server: a Go program with cgo that leakscope does not start, for
// attach. It prints "ready PID", then answers each line on stdin: "req"
// calls the C function handle_request, which leaks 200 bytes, and prints
// "ok N"; "go" (or the end of input) ends it with "done N". Four
// goroutines allocate Go memory all along (the Go runtime's threads are
// busy, some in system calls, while leakscope attaches).
package main

/*
#include <stdlib.h>
#include <string.h>

static void *volatile sink;

__attribute__((noinline)) static void handle_request(void)
{
	sink = malloc(200);
	memset(sink, 'g', 200);
}
*/
import "C"

import (
	"bufio"
	"fmt"
	"os"
	"sync/atomic"
)

var stop int32
var keep [][]byte

func churn(seed int) {
	local := make([][]byte, 64)
	for i := 0; atomic.LoadInt32(&stop) == 0; i++ {
		local[(i*seed)%64] = make([]byte, (i*7+seed)%4096+1)
	}
}

func main() {
	for i := 1; i <= 4; i++ {
		go churn(i)
	}
	fmt.Printf("ready %d\n", os.Getpid())
	in := bufio.NewScanner(os.Stdin)
	n := 0
	for in.Scan() && in.Text() != "go" {
		C.handle_request()
		n++
		fmt.Printf("ok %d\n", n)
	}
	atomic.StoreInt32(&stop, 1)
	fmt.Printf("done %d\n", n)
}
