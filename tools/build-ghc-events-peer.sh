#!/bin/sh
# build-ghc-events-peer.sh - build bench/ghc-events-peer (the reader on the
# Haskell ghc-events library that `leakscope eventlog` is compared with) as
# build/ghc-events-peer/ghc-events-peer with ghc -O2, and print its path.
# ghc's own recompilation check makes a second call cheap. Exit 77 when
# ghc or the ghc-events package (libghc-ghc-events-dev) is missing.
set -eu
cd "$(dirname "$0")/.."
command -v ghc > /dev/null || { echo "no ghc" >&2; exit 77; }
ghc-pkg --simple-output field ghc-events version > /dev/null 2>&1 ||
	{ echo "no ghc-events package (libghc-ghc-events-dev)" >&2; exit 77; }
out=build/ghc-events-peer
mkdir -p "$out"
ghc -O2 -rtsopts -v0 -outputdir "$out" -o "$out/ghc-events-peer" bench/ghc-events-peer/Main.hs >&2
echo "$PWD/$out/ghc-events-peer"
