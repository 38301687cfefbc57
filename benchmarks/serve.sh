#!/usr/bin/env bash
# Serving benchmark (not a test): requests/s and p50/p99 latency of weft-serve
# for the digits CNN (examples/digits_demo.py's model, random weights) at
# concurrency 1, 4 and 16 on loopback, one image per request: v1 JSON and raw
# requests, KServe v2 JSON and v2 binary-data requests; then with dynamic
# batching; then the same model through the Python predictor in this process's
# machine, in the same run. weft-serve gets no shape flag: shapes come from the
# requests.
#
#   bash benchmarks/serve.sh [BUILD_DIR]        (default build/; DURATION=5 seconds per level)
#
# Needs libweft.so in BUILD_DIR and Go (scripts/test_go.sh builds BUILD_DIR/go-bin;
# this script builds the commands there when they are missing).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(cd "${1:-build}" && pwd)
duration=${DURATION:-5}
levels=${LEVELS:-1,4,16}
# The library of BUILD_DIR and the Python package of this checkout.
export WEFT_LIBRARY_PATH="$build_dir/libweft.so" PYTHONPATH="$PWD/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
bin="$build_dir/go-bin"
if [ ! -x "$bin/weft-serve" ] || [ ! -x "$bin/weft-loadgen" ]; then
  (cd bindings/go && CGO_LDFLAGS="-L$build_dir -Wl,-rpath,$build_dir" GOTOOLCHAIN=local GOPROXY=off \
    go build -o "$bin/" ./cmd/...)
fi
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

python3 benchmarks/serve_python.py export "$work/models"

# start_server FLAGS...: runs weft-serve on a free port and sets $url.
start_server() {
  "$bin/weft-serve" -models "$work/models" -addr 127.0.0.1:0 -quiet "$@" \
    2>"$work/serve.log" &
  server_pid=$!
  for _ in $(seq 100); do
    if grep -q "listening on" "$work/serve.log"; then break; fi
    sleep 0.1
  done
  url=$(grep -o 'http://[0-9.:]*' "$work/serve.log" | head -1)
  [ -n "$url" ] || { cat "$work/serve.log"; exit 1; }
}
stop_server() {
  kill -TERM "$server_pid"
  wait "$server_pid"
  server_pid=""
}

echo "== machine: $(nproc) CPUs; OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}; ${duration}s per level"
pool=${POOL:-4}
echo "== weft-serve -pool $pool (no batching)"
start_server -pool "$pool"
"$bin/weft-loadgen" -url "$url/v1/models/digits:predict" -shape 1,1,8,8 -format json \
  -concurrency "$levels" -duration "${duration}s"
"$bin/weft-loadgen" -url "$url/v1/models/digits:predict" -shape 1,1,8,8 -format raw \
  -concurrency "$levels" -duration "${duration}s"
"$bin/weft-loadgen" -url "$url/v2/models/digits/infer" -shape 1,1,8,8 -format v2 \
  -concurrency "$levels" -duration "${duration}s"
"$bin/weft-loadgen" -url "$url/v2/models/digits/infer" -shape 1,1,8,8 -format v2bin \
  -concurrency "$levels" -duration "${duration}s"
stop_server

echo "== weft-serve -pool $pool -batch-max 16 -batch-delay 1ms (dynamic batching)"
start_server -pool "$pool" -batch-max 16 -batch-delay 1ms
"$bin/weft-loadgen" -url "$url/v1/models/digits:predict" -shape 1,1,8,8 -format raw \
  -concurrency "$levels" -duration "${duration}s"
"$bin/weft-loadgen" -url "$url/v2/models/digits/infer" -shape 1,1,8,8 -format v2bin \
  -concurrency "$levels" -duration "${duration}s"
stop_server

echo "== Python predictor (weft.predictor.Predictor, one per thread, in process, no HTTP)"
python3 benchmarks/serve_python.py bench "$work/models" --concurrency "$levels" --duration "$duration"
