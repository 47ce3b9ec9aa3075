// cgo-goheap: Go's heap is a graph, not a root. Go's collector is off
// (debug.SetGCPercent(-1)), so dead Go objects stay in the heap:
//   - 3,333 bytes from C.malloc whose only pointers are in 64 Go objects
//     that are dead (the last reference to them dropped): definitely lost;
//   - 4,444 bytes held by a Go object that a global still reaches, through
//     a slice and a struct: still reachable;
//   - 5,555 bytes held by a Go object only a live goroutine's stack
//     reaches (the goroutine waits on a channel): still reachable.
package main

// #include <stdlib.h>
// #include <string.h>
// /* malloc(n) into *out from 24 KiB below the caller, then zero the
//    64 KiB below: malloc's frames (and leakscope's) held the pointer, and
//    the runtime's own frames on this thread's system stack (the scheduler
//    parks the thread there) would later take a stale copy for a
//    reference if the calls were made at the top of that stack. */
// static __attribute__((noinline)) void scrub(void)
// {
// 	char pad[65536];
// 	explicit_bzero(pad, sizeof(pad));
// }
// static __attribute__((noinline)) void deep_malloc(void **out, size_t n, int depth)
// {
// 	volatile char frame[1024];
// 	frame[0] = 0;
// 	if (depth > 0)
// 		deep_malloc(out, n, depth - 1);
// 	else
// 		*out = malloc(n);
// 	if (depth == 24)
// 		scrub();
// }
import "C"

import (
	"fmt"
	"runtime/debug"
	"unsafe"
)

type box struct {
	p    unsafe.Pointer
	name string
	pad  [6]uintptr
}

var live []*box
var sink *box
var done = make(chan bool)

//go:noinline
func makeDead() {
	var p unsafe.Pointer
	C.deep_malloc(&p, 3333, 24)
	for i := 0; i < 64; i++ {
		b := &box{name: "dead"}
		// a P's page cache holds its 512 KiB chunk's base address, a
		// uintptr a conservative scan takes for a reference: the object
		// at that base does not hold the block
		if uintptr(unsafe.Pointer(b))%(512<<10) != 0 {
			b.p = p
		}
		sink = b
	}
	sink = nil
}

//go:noinline
func waiter(ready chan bool) {
	b := &box{p: C.malloc(5555), name: "waiting"}
	ready <- true
	<-done
	fmt.Println(b.name)
}

func main() {
	debug.SetGCPercent(-1)
	makeDead()
	live = append(live, &box{p: C.malloc(4444), name: "live"})
	ready := make(chan bool)
	go waiter(ready)
	<-ready
	fmt.Println(len(live))
}
