#!/usr/bin/env bash
# Quick start 2: builds whatever is missing, runs the whole test suite with ctest, then the
# reliability stage (docs/RELIABILITY.md): the clang-format check, the CPU tests and a broad subset
# of the GL tests built with AddressSanitizer + UndefinedBehaviorSanitizer (CUDA off), and 60 s of
# each libFuzzer target, and the heavy doc checks (scripts/doc_check.py). GL tests run on whatever EGL offers (Mesa llvmpipe without a GPU); CUDA
# tests run where a CUDA device exists and are reported as skipped elsewhere.
#
# Arguments go to ctest; given any, the reliability stage is skipped (a focused run). So does
# HDRLAB_RELIABILITY=0. HDRLAB_FUZZ_SECONDS sets the seconds per fuzz target (default 60).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh"
jobs=${HDRLAB_JOBS:-$(nproc)}
cd "$root"
stage_start=$(date +%s)
ctest --test-dir "${HDRLAB_BUILD_DIR:-build}" --output-on-failure -j "$jobs" "$@"
echo "run-tests: ctest took $(($(date +%s) - stage_start)) s"

if [ $# -gt 0 ] || [ "${HDRLAB_RELIABILITY:-1}" = 0 ]; then
  exit 0
fi
stage_start=$(date +%s)
bash scripts/check-format.sh
bash scripts/run-sanitizers.sh cpu
# The GL program under the sanitizers: the GL wrappers, every histogram method against the CPU
# reference, the compute methods' other suites, the scans,
# the tone operators, the pipeline, apply, range, downsample and the scene renderer (about a third
# of the GL tests, the code paths of hdrlab's own GL objects). The whole program takes about 10
# minutes on a 2-core llvmpipe machine: `scripts/run-sanitizers.sh gl` runs it all.
bash scripts/run-sanitizers.sh gl \
  'GlWrappers.*:ShaderLibrary*:*HistogramMethods*:*compute_*:*Scan*:Tone*Gl*:PostPipeline*:Profiler*:TonemapApply*:BinningExactness*:AutoRange*:Downsample*:SceneRenderer*:GltfRender*'
# A fixed seed: CI replays the same mutation sequence every time (a finding is reproducible, not
# luck); `scripts/fuzz.sh TARGET SECONDS` without it explores new ground.
bash scripts/fuzz.sh all "${HDRLAB_FUZZ_SECONDS:-60}" -seed=1
# The documents' heavy doc-check comments (ctest docs_check runs the others): docs/RELIABILITY.md.
/usr/bin/env python3 scripts/doc_check.py --hdrlab "${HDRLAB_BUILD_DIR:-build}/hdrlab" --heavy-only
echo "run-tests: reliability stage took $(($(date +%s) - stage_start)) s"
