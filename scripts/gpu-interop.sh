#!/usr/bin/env bash
# gpu-interop.sh: the CUDA interop check and measurement, for the GPU machine: the interop CUDA tests,
# then the headless frame time of the GL default (compute-shared-atomic) against cuda-fast with each
# interop path (--cuda-interop map, the default, and shared), at 1080p and 4K, ward and
# percentile, and cuda-fast on shared memory with no GL/CUDA ordering at all
# (HDRLAB_INTEROP_UNSYNCHRONISED=1, path "none": wrong histograms, the context-switch cost alone).
# Prints one table line per run and keeps each run's log in $OUT (default ./gpu-out).
#
# Usage (repository root): scripts/gpu-interop.sh [BIN_DIR]   (default .devrt/bin, else build-io)
# Environment: OUT, FRAMES (default 400), SIZES (default "1920x1080 3840x2160"), SKIP_TESTS=1.
# On the GPU machine: source .devrt/on-device.sh first. About 2 minutes on an H200.
# shellcheck source=scripts/lib/gpu-preamble.sh
source "$(dirname "$0")/lib/gpu-preamble.sh"
gpu_preamble build-io "" "$@"
FRAMES=${FRAMES:-400}
SIZES=${SIZES:-"1920x1080 3840x2160"}

echo "date: $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 || true
if [[ "${SKIP_TESTS:-0}" != 1 ]]; then
  timeout --signal=KILL 240 "$bin/hdrlab_tests_cuda" --gtest_filter='SharedInterop.*:CudaInterop.*:Methods/CudaHistogramMethodInterop.*' \
    >"$OUT/interop-tests.log" 2>&1 || status=1
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[ interop  \]|^\[  FAILED  \]|Failure|error" "$OUT/interop-tests.log" | head -40
fi

# One run: the median frame time and the histogram stage / kernels medians from the summary table.
measure() { # measure SIZE OPERATOR METHOD INTEROP (INTEROP "none": shared memory, no ordering)
  local size=$1 op=$2 method=$3 interop=$4 log="$OUT/frame-$1-$2-$3-$4-$round.log" unordered=0
  [[ "$interop" == none ]] && { interop=shared; unordered=1; }
  HDRLAB_INTEROP_UNSYNCHRONISED=$unordered timeout --signal=KILL 120 "$bin/hdrlab" --headless --size "$size" \
    --frames "$FRAMES" --operator "$op" --histogram-method "$method" --cuda-interop "$interop" \
    --capture-csv "$OUT/frame-$1-$2-$3-$4-$round.csv" >"$log" 2>&1 ||
    { status=1; echo "FAILED: $size $op $method $interop (see $log)"; tail -3 "$log"; return; }
  local frame hist
  frame=$(sed -n 's/^frame time: median \([0-9.]*\) ms.*/\1/p' "$log")
  hist=$(grep -E "^(histogram|scan|tonemap)/" "$log" | awk '{printf "%s=%s ", $1, $4}')
  printf '%-9s %-10s %-22s %-6s frame %8s ms  %s\n' "$size" "$op" "$method" "$4" "$frame" "$hist"
}

echo "size      operator   method                 path frame (median)     median ms of the histogram, scan and tonemap scopes"
for size in $SIZES; do
  for op in ward percentile; do
    for round in 1 2; do # interleaved, so drift shows as a difference between rounds
      measure "$size" "$op" compute-shared-atomic map
      measure "$size" "$op" cuda-fast shared
      measure "$size" "$op" cuda-fast map
      measure "$size" "$op" cuda-fast none
    done
  done
done
grep -h "interop\|shared memory" "$OUT"/frame-3840x2160-ward-cuda-fast-shared-1.log 2>/dev/null | head -3
exit $status
