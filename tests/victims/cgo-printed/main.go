// cgo-printed: the seed's case. main gets 1,000 bytes from C.malloc,
// prints the pointer with fmt.Printf and drops it: the only copies left
// are in dead Go objects (Printf's argument slice and buffers), which Go's
// collector would free. The block is definitely lost, as valgrind says.
// A second block, 2,000 bytes, stays referenced from a live Go object (a
// map held by a global): still reachable. Then main returns (no C.exit).
package main

// #include <stdlib.h>
// #include <string.h>
// /* Zero the system stack below this frame, where malloc's dead frames
//    still hold the pointer it returned (a conservative scan rightly takes
//    a copy there, in a live frame later, for a reference). */
// static __attribute__((noinline)) void scrub(void)
// {
// 	char pad[32768];
// 	explicit_bzero(pad, sizeof(pad));
// }
import "C"

import (
	"fmt"
	"unsafe"
)

type holder struct {
	block unsafe.Pointer
	name  string
}

var keep = map[string]*holder{}

//go:noinline
func leak() {
	p := C.malloc(1000)
	C.scrub()
	fmt.Printf("calling malloc() ... %p\n", p)
}

//go:noinline
func hold() {
	h := &holder{block: C.malloc(2000), name: "kept"}
	keep[h.name] = h
	fmt.Printf("holding %p\n", h.block)
}

func main() {
	leak()
	hold()
	s := make([]byte, 1<<16) // work after the leak, as a real program does
	for i := range s {
		s[i] = byte(i)
	}
	fmt.Println(len(s), len(keep))
}
