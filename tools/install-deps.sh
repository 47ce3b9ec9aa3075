#!/bin/sh
# install-deps.sh [build|test|bench] - install the Debian packages leakscope
# needs: `build` for the tool itself, `test` adds what the test suite runs
# (Go, GHC with its profiling libraries, jq, clang's libFuzzer, Rust,
# chromium for the HTML report test, the Haskell ghc-events library for the
# peer reader, valgrind to compare with and for ms_print, debhelper to
# build the Debian package, groff and man for the man pages), `bench` adds to
# `test` what bench/ runs and compares with (heaptrack, LeakSanitizer's
# runtime, GNU time, sqlite3, git, perl, CPython's own test suite for
# bench/real-suites.sh). As
# root it installs what is missing; otherwise it lists what is missing and
# carries on.
set -eu
what=${1:-build}
# the build: what debian/control's Build-Depends lists, and the compiler
pkgs="gcc make libc6-dev libdw-dev libelf-dev libzstd-dev libiberty-dev"
# the static archives the command links (Makefile, STATIC_LIBS)
pkgs="$pkgs zlib1g-dev liblzma-dev libbz2-dev"
if [ "$what" = test ] || [ "$what" = bench ]; then
	# libunwind-dev: the reference the unwinders' unit test compares with
	pkgs="$pkgs libunwind-dev tmux strace gdb git sqlite3 python3 g++ jq golang-go ghc ghc-prof libghc-ghc-events-dev clang libclang-rt-14-dev chromium binutils file valgrind"
	# what the static command must never load (tests/cli/187-no-debuginfod.sh)
	pkgs="$pkgs libdebuginfod1"
	# the Debian package, man pages and completion scripts (tests/cli/61*.sh)
	pkgs="$pkgs dpkg-dev debhelper groff-base man-db bash zsh"
	# node and npm may come from elsewhere than Debian: only add them if absent
	command -v node > /dev/null 2>&1 || pkgs="$pkgs nodejs"
	command -v npm > /dev/null 2>&1 || pkgs="$pkgs npm"
	command -v rustc > /dev/null 2>&1 || pkgs="$pkgs rustc"
fi
if [ "$what" = bench ]; then
	# bench/compare.sh, bench/process-heavy.sh, bench/real-suites.sh
	pkgs="$pkgs heaptrack liblsan0 time coreutils sqlite3 git perl bash make python3 libpython3.11-testsuite"
fi
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "install-deps: missing Debian packages (run as root to install):$missing" >&2
	exit 0
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing > /dev/null
