// cgo-noop: main calls a C function that does nothing; nothing may be
// reported. It ends the Go way (main returns), without C.exit.
package main

// #include "noop.h"
import "C"

import "fmt"

func main() {
	fmt.Println("calling noop() ...")
	C.noop()
}
