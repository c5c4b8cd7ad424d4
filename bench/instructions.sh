#!/bin/sh
# Instructions per request of one benchmark server, counted by valgrind's callgrind: repeatable
# within a few percent whatever else the machine is doing, where req/s on these machines moves by a
# fifth between runs. User space only (the kernel's share, writev's above all, is not counted), so
# the ratios it gives are ratios of the servers' own work, not of throughput. The main thread's count
# is the one to compare: V8's other threads are compiling (under valgrind its optimising compiler
# is still at work long after the warm-up), which adds 30,000-40,000 instructions a request that
# differ from one run to the next and are no part of the server's work once it is warm.
#
#   sh bench/instructions.sh keel-configured-server.js                  # the bare application
#   sh bench/instructions.sh keel-configured-server.js ACCESS_LOG=1     # with the access log
#   ROUTE=/health sh bench/instructions.sh fastify-server.js
#   ROUTE=/api/orders BODY='{"item":"widget","quantity":3,"email":"ada@example.com"}' \
#     sh bench/instructions.sh keel-server.js                         # POSTs BODY as JSON
#   BEFORE='/health /health/ready /api/orders/1' sh bench/instructions.sh keel-server.js
#     # serves those routes first, as the benchmark's main table has its servers do
#
# Runs on the benchmark's Node (bench/node.sh: the pinned Node 24 from the registry; BENCH_NODE=system
# for the `node` on PATH), valgrind counting that binary, and prints its version with the count.
# Needs valgrind and a built benchmark (`npm run bench`, or its first three steps). Each count is of
# REQUESTS requests (default 12000) after as many to warm the server up, 10 connections: after fewer,
# V8 is still optimising the hot path, and the count comes out up to a tenth higher and varies more.
set -eu
cd "$(dirname "$0")"
script=$1
shift
route=${ROUTE:-/orders/1}
requests=${REQUESTS:-12000}
body=${BODY:-}
port=$((20000 + $$ % 20000))
node=$(sh ./node.sh)
autocannon() {
  "$node" node_modules/autocannon/autocannon.js "$@"
}
out=$(mktemp -d)
env NODE_ENV=production PORT=$port "$@" valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/count.%p" \
  "$node" "dist/bench/src/servers/$script" >"$out/server.log" 2>&1 &
booted=no
for _ in $(seq 1 120); do
  if curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1; then booted=yes; break; fi
  sleep 1
done
[ "$booted" = yes ] || { echo "the server did not answer /health; its output: $out/server.log" >&2; exit 1; }
pid=$(ss -ltnp "sport = :$port" | grep -o 'pid=[0-9]*' | head -1 | cut -d= -f2)
load() {
  if [ -z "$body" ]; then
    autocannon -a "$requests" -c 10 "http://127.0.0.1:$port$route" >/dev/null 2>&1
  else
    autocannon -a "$requests" -c 10 -m POST -H 'content-type: application/json' -b "$body" \
      "http://127.0.0.1:$port$route" >/dev/null 2>&1
  fi
}
for before in ${BEFORE:-}; do
  autocannon -a "$requests" -c 10 "http://127.0.0.1:$port$before" >/dev/null 2>&1
done
load
callgrind_control -z "$pid" >/dev/null 2>&1
load
callgrind_control -d "$pid" >/dev/null 2>&1
kill "$pid"
# valgrind writes its last files as the server exits: wait for it before reading them.
wait || true
# With --separate-threads, one file per thread: -01 is the main thread (the event loop).
main=$(grep '^summary:' "$out/count.$pid.1-01" | awk '{print $2}')
all=$(cat "$out"/count.$pid.1-* | grep '^summary:' | awk '{sum += $2} END {print sum}')
echo "$script $* $route on Node $("$node" --version): $((main / requests)) instructions per request on the main thread" \
  "($(((all - main) / requests)) more on V8's other threads)"
rm -rf "$out"
