#!/bin/sh
# demo.sh BUILD_DIR - build the bundled leaky example and run leakscope on it.
set -eu
b=${1:-build}
cc -g -O1 -o "$b/leaky" examples/leaky.c
echo "\$ leakscope run -- $b/leaky"
"$b/leakscope" run -- "$b/leaky" || true
