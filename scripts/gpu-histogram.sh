#!/usr/bin/env bash
# gpu-histogram.sh: the GPU machine's check of the histogram rework (issue 8 items 1-2) in one go:
# bit-exact binning (GL tests on the NVIDIA GLSL compiler, CUDA histogram tests), `hdrlab compare`
# of the compute and CUDA methods at 1080p and 4K with 64..4096 bins (exactness and GPU times), the
# tuning sweep of compute-shared-atomic (HDRLAB_SHARED_ATOMIC), and headless frames of the default
# scene with each method. Logs and CSVs go to $OUT/histogram.tar.gz.
#
# Usage (repository root, GPU machine): source .devrt/on-device.sh; scripts/gpu-histogram.sh [BIN_DIR]
# HDRLAB_SECTIONS="tests compare tune frames" picks sections (default all).
# shellcheck source=scripts/lib/gpu-preamble.sh
source "$(dirname "$0")/lib/gpu-preamble.sh"
gpu_preamble build histogram "$@"
log="$OUT/histogram"
export HDRLAB_SOURCE_DIR="$root"
sections=${HDRLAB_SECTIONS:-tests compare tune frames} # a subset keeps one device call under its limit
want() { [[ " $sections " == *" $1 "* ]]; }

run() { # run NAME SECONDS COMMAND...
  local name=$1 seconds=$2
  shift 2
  echo "==== $name: $*" >"$log/$name.log"
  local start=$SECONDS
  timeout --signal=KILL "$seconds" "$@" >>"$log/$name.log" 2>&1
  local rc=$?
  echo "==== exit $rc after $((SECONDS - start)) s" >>"$log/$name.log"
  echo "$name: exit $rc ($((SECONDS - start)) s)"
  [[ $rc -eq 0 ]] || status=1
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$log/device.txt" 2>&1
git -C "$root" rev-parse --short=12 HEAD >>"$log/device.txt" 2>/dev/null
date -u +%FT%TZ >>"$log/device.txt"

if want tests; then
run gl-binning 240 "$bin/hdrlab_tests_gl" --gtest_brief=1 \
  --gtest_filter='BinningExactness*:HistogramMethods*:MethodMatrix*:EveryMethod*:GlWrappers*'
run cuda-histogram 240 "$bin/hdrlab_tests_cuda" --gtest_brief=1 --gtest_filter='*Histogram*'
fi

if want compare; then
methods=compute-shared-atomic,compute-shared-atomic-linear,compute-global-atomic,compute-replicated,compute-subgroup,cuda-bugetti,cuda-fast,cuda-cub
for size in 1920x1080 3840x2160; do
  for bins in 64 256 1024 4096; do
    run "compare-$size-$bins" 120 "$bin/hdrlab" compare --size "$size" --bins "$bins" --repeat 30 \
      --methods "$methods" --csv "$log/compare-$size-$bins.csv"
  done
done
fi
if want tune; then
# Kernel shape sweep (HDRLAB_SHARED_ATOMIC keys: pixels, groups, strip, replicas, subgroup).
tunings="pixels=1 pixels=2 pixels=4 pixels=8 pixels=4,groups=512 pixels=4,groups=2048 pixels=4,strip=1
pixels=8,strip=1 pixels=4,replicas=2 pixels=4,replicas=4 pixels=4,subgroup=1 pixels=8,strip=1,subgroup=1
pixels=8,subgroup=1,replicas=2"
for tuning in $tunings; do
  for bins in 256 4096; do
    HDRLAB_SHARED_ATOMIC=$tuning run "tune-$tuning-$bins" 60 "$bin/hdrlab" compare --size 3840x2160 --bins "$bins" \
      --repeat 30 --methods compute-shared-atomic --csv "$log/tune-$tuning-$bins.csv"
  done
  HDRLAB_SHARED_ATOMIC=$tuning run "tune-$tuning-1080p" 60 "$bin/hdrlab" compare --size 1920x1080 --bins 256 \
    --repeat 30 --methods compute-shared-atomic --csv "$log/tune-$tuning-1080p.csv"
done
# The variants' exactness on this GPU's compiler (the subgroup path exists only here, not on llvmpipe).
for tuning in pixels=8,strip=1,subgroup=1 pixels=4,replicas=4 pixels=8,subgroup=1,replicas=2; do
  HDRLAB_SHARED_ATOMIC=$tuning run "gl-binning-$tuning" 240 "$bin/hdrlab_tests_gl" --gtest_brief=1 \
    --gtest_filter='BinningExactness*:HistogramMethods*'
done
fi
if want frames; then
for size in 1920x1080 3840x2160; do
  for method in compute-shared-atomic compute-shared-atomic-linear cuda-fast; do
    for op in ward percentile; do
      run "frames-$size-$method-$op" 90 "$bin/hdrlab" --headless --size "$size" --frames 400 --histogram-method "$method" \
        --operator "$op" --verify --capture-csv "$log/frames-$size-$method-$op.csv"
    done
  done
done

fi
tar -czf "$OUT/histogram.tar.gz" -C "$OUT" histogram
echo "overall: $([[ $status -eq 0 ]] && echo OK || echo FAILURES)"
exit $status
