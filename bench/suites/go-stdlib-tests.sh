#!/bin/sh
# go-stdlib-tests.sh DIR - run Go's own tests of os/signal, os/exec, os and
# syscall (test binaries built beforehand into DIR by bench/real-suites.sh
# with `go test -c`, from Debian's Go source) the way `go test` runs them:
# from the package's source directory, -test.short, verbose. Many of them
# start the test binary again as a helper process, send themselves
# signals, stop and continue children, or run a shell on a terminal.
# Prints each binary's output and exit status; bench/real-suites.sh keeps
# the result of each test (not their order or durations) for comparison.
DIR=$1
GOROOT=$(go env GOROOT)
for pkg in os/signal os/exec os syscall; do
	bin=$DIR/$(echo "$pkg" | tr / _).test
	echo "== $pkg"
	(cd "$GOROOT/src/$pkg" && "$bin" -test.short -test.v -test.count=1 -test.timeout=300s 2>&1)
	echo "$pkg: exit $?"
done
