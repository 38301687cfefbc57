#!/usr/bin/env bash
# Runs the libFuzzer targets of tests/fuzz (built by scripts/build_asan.sh,
# ASan + UBSan) for a bounded time each, starting from the corpora in
# tests/fuzz/corpus/ (copied: the repository's corpus is not changed).
#   scripts/fuzz.sh [BUILD_DIR] [SECONDS] [TARGET...]
# defaults: build-asan/, 20 s, every target. A crash, sanitizer report, leak
# or an input slower than WEFT_FUZZ_TIMEOUT s (default 1: the long local runs'
# bound; CI passes more, since on a shared 2-core machine a starved engine
# thread can hold a fast input past 1 s) fails the run; the input is saved
# under BUILD_DIR/fuzz-artifacts/<target>/ and becomes a regression input by
# copying it to tests/fuzz/corpus/<target>/ with its fix (ctest replays it).
# WEFT_FUZZ_LONG=1: keep going after findings (libFuzzer's fork mode, one
# worker) and report the counts at the end -- the long local run of issue 22.
# WEFT_FUZZ_JOBS=N: N targets at a time (default 1); Note [Fuzz targets side by side].
#
# Note [Fuzz targets side by side]
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
# A libFuzzer target runs in one process on one core for its -max_total_time
# of wall-clock time, so one target after another leaves the second core of
# CI's 2-core machine idle for the whole step (6 targets x 10 s). CI runs two
# at a time (WEFT_FUZZ_JOBS=2, scripts/test.sh): each target still fuzzes for
# its full time on a core of its own, from the same corpus, with the same
# limits, and any finding fails the run as before; the step takes 30 s
# instead of 60. Each target's summary is printed when it ends, in the order
# they end; its log and artifacts are its own files, so nothing is shared.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build-asan}
seconds=${2:-20}
shift $(( $# > 2 ? 2 : $# ))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for f in tests/fuzz/*_fuzz.cc; do t=$(basename "$f" _fuzz.cc); targets+=("$t"); done
fi
# allocator_may_return_null: a huge allocation a file asks for must come back
# as the library's OutOfMemoryError, which is what is being tested.
export ASAN_OPTIONS="allocator_may_return_null=1:detect_stack_use_after_return=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
for t in "${targets[@]}"; do
  bin="$build_dir/tests/fuzz/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz.sh: $bin not built (scripts/build_asan.sh)" >&2; exit 1; }
done
# One target: its summary on stdout, exit status 1 on a finding.
fuzz_one() {
  local t=$1 status=0
  local bin="$build_dir/tests/fuzz/fuzz_$t"
  work="$build_dir/fuzz-work/$t" art="$build_dir/fuzz-artifacts/$t"
  mkdir -p "$work" "$art"
  cp -n tests/fuzz/corpus/"$t"/* "$work"/ 2>/dev/null || true
  dict=()
  [ -f "tests/fuzz/$t.dict" ] && dict=(-dict="tests/fuzz/$t.dict")
  log="$build_dir/fuzz-$t.log"
  common=(-max_total_time="$seconds" -timeout="${WEFT_FUZZ_TIMEOUT:-1}" -rss_limit_mb=3072 -malloc_limit_mb=3072 -max_len=65536
          -artifact_prefix="$art/" -print_final_stats=1 "${dict[@]}")
  start=$SECONDS
  if [ "${WEFT_FUZZ_LONG:-0}" = 1 ]; then
    rc=0
    "$bin" "${common[@]}" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 "$work" >"$log" 2>&1 || rc=$?
    # Fork mode's status lines: "#N: cov: .. exec/s: .. oom/timeout/crash: a/b/c time: ..".
    last=$(grep -a 'oom/timeout/crash' "$log" | tail -n 1 || true)
    echo "fuzz $t: ${last:-no status line} (rc $rc, $((SECONDS - start)) s)"
  else
    if "$bin" "${common[@]}" "$work" >"$log" 2>&1; then
      runs=$(grep -a '^Done [0-9]* runs' "$log" | tail -n 1 || true)
      echo "fuzz $t: ok, ${runs:-?} ($((SECONDS - start)) s)"
    else
      echo "fuzz $t: FAILED; the input is in $art/, the log in $log:"
      grep -a -E 'ERROR|runtime error|invariant failed|SUMMARY|Test unit written' "$log" | head -n 20
      status=1
    fi
  fi
  reports=$(grep -a -c -E '^==[0-9]+==ERROR|runtime error:|fuzz invariant failed' "$log" || true)
  [ "$reports" = 0 ] || echo "fuzz $t: $reports sanitizer/invariant report(s) in $log"
  return $status
}
jobs=${WEFT_FUZZ_JOBS:-1}
summaries=$(mktemp -d)
trap 'rm -rf "$summaries"' EXIT
status=0
running=0
# Each target's summary goes to its own file and is printed when it ends, so
# the lines of two targets never interleave; `wait -n` collects the first to end.
finish_one() {
  local rc=0
  wait -n || rc=$?
  running=$((running - 1))
  for f in "$summaries"/*.done; do
    [ -e "$f" ] || continue
    cat "${f%.done}.out"
    rm -f "$f" "${f%.done}.out"
  done
  [ "$rc" = 0 ] || status=1
}
for t in "${targets[@]}"; do
  [ "$running" -lt "$jobs" ] || finish_one
  { rc=0; fuzz_one "$t" >"$summaries/$t.out" 2>&1 || rc=$?; touch "$summaries/$t.done"; exit $rc; } &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do finish_one; done
exit $status
