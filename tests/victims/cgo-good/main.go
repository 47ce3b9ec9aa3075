// cgo-good: main calls hello(), which frees what it allocates; nothing may
// be reported. It ends the Go way (main returns), without C.exit.
package main

// #include "hello.h"
import "C"

import "fmt"

func main() {
	fmt.Println("calling malloc() ...")
	C.hello()
}
