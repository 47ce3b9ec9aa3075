// goprog: a Go program with goroutines and channels, cgo calls (C
// allocations among them), a child process through os/exec and a SIGUSR1 to
// itself handled through os/signal; deterministic output. Used by
// bench/real-suites.sh (output and status compared plain and under
// leakscope). With the argument "child" it is the child: reads stdin,
// writes it back in upper case, exits 3.
package main

/*
#include <stdlib.h>
#include <string.h>

static unsigned long sum_c(int n)
{
	unsigned long *a = malloc(n * sizeof *a), s = 0;
	for (int i = 0; i < n; i++)
		a[i] = (unsigned long)i * i;
	for (int i = 0; i < n; i++)
		s += a[i];
	free(a);
	return s;
}

static char *dup_upper(const char *s)
{
	char *d = strdup(s);
	for (char *p = d; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p -= 32;
	return d;
}
*/
import "C"

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

func child() {
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		fmt.Println(strings.ToUpper(sc.Text()))
	}
	fmt.Fprintln(os.Stderr, "child: done")
	os.Exit(3)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "child" {
		child()
	}

	// goroutines and channels: a pipeline of squares and a fan-in
	jobs := make(chan int)
	results := make(chan uint64)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				results <- uint64(C.sum_c(C.int(n)))
			}
		}()
	}
	go func() {
		for n := 1; n <= 2000; n++ {
			jobs <- n
		}
		close(jobs)
	}()
	go func() { wg.Wait(); close(results) }()
	var total uint64
	count := 0
	for r := range results {
		total += r
		count++
	}
	fmt.Printf("goroutines: %d results, total %d\n", count, total)

	// cgo strings, allocated by C, freed from Go
	words := []string{"alpha", "beta", "gamma"}
	var up []string
	for _, w := range words {
		cs := C.CString(w)
		u := C.dup_upper(cs)
		up = append(up, C.GoString(u))
		C.free(unsafe.Pointer(cs))
		C.free(unsafe.Pointer(u))
	}
	fmt.Println("cgo:", strings.Join(up, " "))

	// a child process: itself, through a pipe
	cmd := exec.Command(os.Args[0], "child")
	cmd.Stdin = strings.NewReader("one\ntwo\n")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		fmt.Printf("child: %q, exit %d, stderr %q\n", string(out), ee.ExitCode(), stderr.String())
	} else {
		fmt.Println("child: unexpected", err)
	}
	sh, err := exec.Command("sh", "-c", "echo from sh; kill -TERM $$").Output()
	fmt.Printf("sh: %q, %v\n", string(sh), err)

	// a signal to itself
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		fmt.Println("kill:", err)
	}
	select {
	case s := <-sig:
		fmt.Println("signal:", s)
	case <-time.After(10 * time.Second):
		fmt.Println("signal: none within 10 s")
	}
	signal.Stop(sig)

	// a map and a sort, for the garbage collector
	m := map[string]int{}
	for i := 0; i < 100000; i++ {
		m[fmt.Sprintf("k%d", i%5000)] += i
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("map: %d keys, first %s=%d, last %s=%d\n", len(keys), keys[0], m[keys[0]], keys[len(keys)-1], m[keys[len(keys)-1]])
	os.Exit(2)
}
