// cgo-leak: main calls hello(), which leaks 1,000 bytes; exactly that leak
// must be reported, from hello() called by main.main. It ends the Go way
// (main returns), without C.exit, so no atexit handler runs.
package main

// #include "hello.h"
import "C"

import "fmt"

func main() {
	fmt.Println("calling malloc() ...")
	C.hello()
}
