#!/usr/bin/env bash
# Installs missing packages (scripts/setup.sh), configures build/ if needed and builds it.
# Extra arguments go to CMake's configure step (e.g. -DHDRLAB_CUDA=OFF). HDRLAB_TARGETS names the
# targets to build (default: all; scripts/run-demo.sh builds only the app).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/setup.sh
build_dir=${HDRLAB_BUILD_DIR:-build}
if [ ! -f "$build_dir/build.ninja" ] || [ $# -gt 0 ]; then
  cmake -S . -B "$build_dir" -G Ninja "$@"
fi
jobs=${HDRLAB_JOBS:-$(nproc)}
targets=()
for target in ${HDRLAB_TARGETS:-}; do targets+=(--target "$target"); done
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
