#!/usr/bin/env bash
# Serving benchmark (not a test): requests/s and p50/p99 latency of weft-serve
# for the digits CNN (examples/digits_demo.py's model, random weights) on
# loopback, one image per request, at each concurrency level: v1 JSON and raw
# requests, KServe v2 JSON and v2 binary-data requests, and the v2 gRPC API
# (-grpc-addr; ModelInfer with raw contents, as tritonclient.grpc sends it); against the Python
# baseline server doing the same prediction behind HTTP
# (benchmarks/serve_python.py serve: v1 JSON, v2 JSON, v2 binary) and the
# Python predictor in process (no HTTP: the floor of Python's cost); then
# weft-serve with dynamic batching. All in one run; per concurrency level every
# server and format takes its turn (round-robin), so a change of the machine's
# load during the run hits them alike. weft-serve gets no flag but the pool:
# shapes come from the requests. Ends with one table of every figure.
#
#   bash benchmarks/serve.sh [BUILD_DIR]   (default build/; DURATION=5 s per measurement,
#                                           LEVELS=1,4,16, POOL=4, BASELINE=DIR)
#
# BASELINE=DIR also measures DIR/weft-serve (another build's go-bin, e.g. the
# main branch's) the same way, batching off and on, in the same round-robin:
# before/after ratios from one run, which a loaded machine's drift between two
# runs would blur.
#
# Needs libweft.so in BUILD_DIR and Go (scripts/build_go.sh builds BUILD_DIR/go-bin;
# this script runs it when the commands are missing).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=$(cd "${1:-build}" && pwd)
duration=${DURATION:-5}
levels=${LEVELS:-1,4,16}
pool=${POOL:-4}
# The library of BUILD_DIR and the Python package of this checkout.
export WEFT_LIBRARY_PATH="$build_dir/libweft.so" PYTHONPATH="$PWD/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
bin="$build_dir/go-bin"
if [ ! -x "$bin/weft-serve" ] || [ ! -x "$bin/weft-loadgen" ]; then
  bash scripts/build_go.sh "$build_dir" >/dev/null
fi
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

python3 benchmarks/serve_python.py export "$work/models"

# start NAME COMMAND...: runs a server on a free port, sets url_NAME.
start() {
  local name=$1
  shift
  "$@" 2>"$work/$name.log" >"$work/$name.out" &
  pids+=($!)
  for _ in $(seq 200); do
    if grep -qh "listening on" "$work/$name.log" "$work/$name.out"; then break; fi
    sleep 0.1
  done
  local url grpc
  url=$(grep -oh 'http://[0-9.:]*' "$work/$name.log" "$work/$name.out" | head -1)
  [ -n "$url" ] || { cat "$work/$name.log" "$work/$name.out"; exit 1; }
  printf -v "url_$name" %s "$url"
  # weft-serve -grpc-addr prints "gRPC on HOST:PORT" in the same line.
  grpc=$( (grep -oh 'gRPC on [0-9.:]*' "$work/$name.log" "$work/$name.out" || true) | head -1 | cut -d' ' -f3)
  printf -v "grpc_$name" %s "$grpc"
}

echo "== machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg); OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}; ${duration}s per measurement"
start weft "$bin/weft-serve" -quiet -pool "$pool" -grpc-addr 127.0.0.1:0 "$work/models" 127.0.0.1:0
start batch "$bin/weft-serve" -quiet -pool "$pool" -batch-max 16 -batch-delay 1ms -grpc-addr 127.0.0.1:0 "$work/models" 127.0.0.1:0
start python python3 benchmarks/serve_python.py serve "$work/models"
baseline=${BASELINE:-}
if [ -n "$baseline" ]; then
  start base "$baseline/weft-serve" -quiet -pool "$pool" "$work/models" 127.0.0.1:0
  start basebatch "$baseline/weft-serve" -quiet -pool "$pool" -batch-max 16 -batch-delay 1ms "$work/models" 127.0.0.1:0
fi
results="$work/results.jsonl"

# measure LABEL URL FORMAT CONCURRENCY
measure() {
  "$bin/weft-loadgen" -url "$2" -shape 1,1,8,8 -format "$3" -concurrency "$4" -duration "${duration}s" -json |
    python3 -c 'import json, sys
for line in sys.stdin:
    r = json.loads(line); r["server"] = sys.argv[1]; print(json.dumps(r))' "$1" | tee -a "$results"
}
for c in ${levels//,/ }; do
  echo "== concurrency $c"
  measure "weft-serve -pool $pool" "$url_weft/v1/models/digits:predict" json "$c"
  measure "weft-serve -pool $pool" "$url_weft/v1/models/digits:predict" raw "$c"
  measure "weft-serve -pool $pool" "$url_weft/v2/models/digits/infer" v2 "$c"
  measure "weft-serve -pool $pool" "$url_weft/v2/models/digits/infer" v2bin "$c"
  measure "weft-serve -pool $pool" "grpc://$grpc_weft/digits" grpc "$c"
  measure "python http.server" "$url_python/v1/models/digits:predict" json "$c"
  measure "python http.server" "$url_python/v2/models/digits/infer" v2 "$c"
  measure "python http.server" "$url_python/v2/models/digits/infer" v2bin "$c"
  measure "weft-serve -batch-max 16" "$url_batch/v1/models/digits:predict" raw "$c"
  measure "weft-serve -batch-max 16" "$url_batch/v2/models/digits/infer" v2bin "$c"
  measure "weft-serve -batch-max 16" "grpc://$grpc_batch/digits" grpc "$c"
  if [ -n "$baseline" ]; then
    measure "baseline weft-serve -pool $pool" "$url_base/v1/models/digits:predict" raw "$c"
    measure "baseline weft-serve -pool $pool" "$url_base/v2/models/digits/infer" v2bin "$c"
    measure "baseline weft-serve -batch-max 16" "$url_basebatch/v1/models/digits:predict" raw "$c"
    measure "baseline weft-serve -batch-max 16" "$url_basebatch/v2/models/digits/infer" v2bin "$c"
  fi
  python3 benchmarks/serve_python.py bench "$work/models" --concurrency "$c" --duration "$duration" --json |
    python3 -c 'import json, sys
for line in sys.stdin:
    r = json.loads(line); r["server"] = "python predictor (no HTTP)"; print(json.dumps(r))' | tee -a "$results"
done

echo "== summary (req/s, p50/p99 ms; load average now $(cut -d' ' -f1-3 /proc/loadavg))"
python3 - "$results" <<'PY'
import json, sys
rows, levels = {}, []
names = {"json": "v1 JSON", "raw": "v1 raw", "v2": "v2 JSON", "v2bin": "v2 binary", "grpc": "v2 gRPC",
         "in-process": "in process"}
for line in open(sys.argv[1]):
    r = json.loads(line)
    rows.setdefault((r["server"], r["format"]), {})[r["concurrency"]] = r
    if r["concurrency"] not in levels:
        levels.append(r["concurrency"])
print("| server | protocol | " + " | ".join("c=%d req/s | c=%d p50/p99 ms" % (c, c) for c in levels) + " |")
print("|---|---|" + "---|---|" * len(levels))
for (server, fmt), by_c in rows.items():
    cells = []
    for c in levels:
        r = by_c.get(c)
        cells += ["%.0f" % r["requests_per_s"], "%.2f / %.2f" % (r["p50_ms"], r["p99_ms"])] if r else ["", ""]
    print("| %s | %s | %s |" % (server, names.get(fmt, fmt), " | ".join(cells)))
PY
