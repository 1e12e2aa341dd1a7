#!/usr/bin/env bash
# Quick start 2: builds whatever is missing, then runs the whole test suite with ctest.
# GL tests run on whatever EGL offers (Mesa llvmpipe without a GPU); CUDA tests run where a CUDA
# device exists and are reported as skipped elsewhere. Arguments are passed to ctest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
jobs=${HDRLAB_JOBS:-$(nproc)}
cd "$root"
ctest --test-dir "${HDRLAB_BUILD_DIR:-build}" --output-on-failure -j "$jobs" "$@"
