#!/usr/bin/env bash
# gpu-perf.sh: the application-level GPU measurements for docs/PERF.md, in one go: headless runs of
# the default scene at 1920x1080 and 3840x2160 with each tone operator (per-pass GPU times from
# timer queries, fps), --verify on the GPU, and `hdrlab compare` at the seed papers' sizes and bin
# counts. Logs and CSVs are packed into $OUT/perf.tar.gz (the device returns few files).
#
# Usage (repository root, GPU machine): source .devrt/on-device.sh; scripts/gpu-perf.sh [BIN_DIR]
# Environment: OUT (default ./gpu-out), FRAMES (default 300), REPEAT (compare repeats, default 10).
# shellcheck source=scripts/lib/gpu-preamble.sh
source "$(dirname "$0")/lib/gpu-preamble.sh"
gpu_preamble build perf "$@"
frames=${FRAMES:-300}
repeat=${REPEAT:-10}

run() { # run NAME SECONDS COMMAND...
  local name=$1 seconds=$2
  shift 2
  echo "==== $name: $*" >"$OUT/perf/$name.log"
  timeout --signal=KILL "$seconds" "$@" >>"$OUT/perf/$name.log" 2>&1
  local rc=$?
  echo "==== exit $rc" >>"$OUT/perf/$name.log"
  echo "$name: exit $rc"
  [[ $rc -eq 0 ]] || status=1
}

gpu_environment name,driver_version,clocks.sm,clocks.mem >"$OUT/perf/environment.txt"

for size in 1920x1080 3840x2160; do
  for op in percentile equalize ward exposure; do
    run "app-$size-$op" 120 "$bin/hdrlab" --headless --size "$size" --frames "$frames" --operator "$op" \
      --capture-csv "$OUT/perf/app-$size-$op.csv"
    run "verify-$size-$op" 120 "$bin/hdrlab" --headless --size "$size" --frames 30 --operator "$op" --verify
  done
  # The live pipeline with CUDA stages (interop, CUDA-event timing in the same profiler).
  run "app-$size-cuda-fast" 120 "$bin/hdrlab" --headless --size "$size" --frames "$frames" \
    --histogram-method cuda-fast --capture-csv "$OUT/perf/app-$size-cuda-fast.csv"
  run "app-$size-cuda-bugetti" 120 "$bin/hdrlab" --headless --size "$size" --frames "$frames" \
    --histogram-method cuda-bugetti --scan cuda-warp-shuffle --operator percentile --verify
done
for size in 256x256 512x512 1024x1024; do
  for bins in 16 32 64 128 256 1024; do
    run "compare-$size-$bins" 180 "$bin/hdrlab" compare --size "$size" --bins "$bins" --repeat "$repeat" \
      --csv "$OUT/perf/compare-$size-$bins.csv"
  done
done
for size in 1920x1080 3840x2160; do
  for bins in 64 256 1024 4096; do
    run "compare-$size-$bins" 180 "$bin/hdrlab" compare --size "$size" --bins "$bins" --repeat "$repeat" \
      --csv "$OUT/perf/compare-$size-$bins.csv"
  done
done
tar -czf "$OUT/perf.tar.gz" -C "$OUT" perf
echo "overall: $([[ $status -eq 0 ]] && echo OK || echo FAILURES)"
exit $status
