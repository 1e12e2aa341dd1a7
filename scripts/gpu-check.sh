#!/usr/bin/env bash
# gpu-check.sh: the whole GPU check in one go, for the machine with the NVIDIA GPU: the CUDA tests,
# the GL tests, `hdrlab --list` and `hdrlab bench all`, logs teed into $OUT (default ./gpu-out).
#
# Usage (from the repository root): scripts/gpu-check.sh [BIN_DIR]
#   BIN_DIR holds hdrlab, hdrlab_tests_cuda and hdrlab_tests_gl: a build dir, or .devrt/bin on the
#   GPU machine (default: .devrt/bin when it exists, else build). Environment: OUT (log folder),
#   BENCH_REPEAT (timed runs per benchmark case, default 30), SKIP_GL_TESTS=1, SKIP_BENCH=1.
# On the GPU machine (see docs/CUDA.md): source .devrt/on-device.sh first (GL loaders, libraries).
# Budget: about 6 minutes on an H100 (tests ~1-2 min, bench ~2-3 min); each step has a time limit.
# shellcheck source=scripts/lib/gpu-preamble.sh
source "$(dirname "$0")/lib/gpu-preamble.sh"
gpu_preamble build "" "$@"
export HDRLAB_SOURCE_DIR="$root" HDRLAB_BINARY="$bin/hdrlab"

step() { # step NAME SECONDS COMMAND...: runs with a time limit, tees into $OUT/NAME.log
  local name=$1 seconds=$2
  shift 2
  echo "==== $name: $*" | tee "$OUT/$name.log"
  local start=$SECONDS
  timeout --signal=KILL "$seconds" "$@" 2>&1 | tee -a "$OUT/$name.log"
  local rc=${PIPESTATUS[0]}
  echo "==== $name: exit $rc after $((SECONDS - start)) s" | tee -a "$OUT/$name.log"
  [[ $rc -eq 0 ]] || status=1
}

{
  echo "date: $(date -u +%FT%TZ)"
  echo "revision: $(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv 2>&1 || true
} | tee "$OUT/summary.log"

step cuda-tests 240 "$bin/hdrlab_tests_cuda" --gtest_brief=1
# The GL tests with full gtest output (no --gtest_brief): a program that crashes leaves its last
# "[ RUN ]" line, which names the test (the GL program's exit 139 on the H200 on 2026-11-29 could not
# be named); the summary repeats that line.
if [[ "${SKIP_GL_TESTS:-0}" != 1 ]]; then
  step gl-tests 300 "$bin/hdrlab_tests_gl"
  { grep -h '^\[ RUN      \]' "$OUT/gl-tests.log" || true; } | tail -1 | sed 's/^/gl-tests: last test started: /' |
    tee -a "$OUT/summary.log"
fi
step list 60 "$bin/hdrlab" --list
if [[ "${SKIP_BENCH:-0}" != 1 ]]; then
  step bench 420 "$bin/hdrlab" bench all --repeat "${BENCH_REPEAT:-30}" --csv "$OUT/bench.csv"
fi

{
  echo
  for log in cuda-tests gl-tests; do
    [[ -f "$OUT/$log.log" ]] && { echo "$log:"; grep -E '^\[  (PASSED|FAILED|SKIPPED) |tests? ran|FAILED TEST' "$OUT/$log.log" | tail -20; }
  done
  echo "overall: $([[ $status -eq 0 ]] && echo OK || echo FAILURES)"
} | tee -a "$OUT/summary.log"
exit $status
