#!/usr/bin/env bash
# Fuzzes hdrlab's parsers with libFuzzer (clang, ASan + UBSan); see docs/RELIABILITY.md, "Fuzzing".
#
#   scripts/fuzz.sh TARGET SECONDS [LIBFUZZER_ARG...]   one target: scene, exr, hdr, png, gltf, points, hdrpng, tev or sequence
#   scripts/fuzz.sh all SECONDS [LIBFUZZER_ARG...]      every target, one after the other
#   scripts/fuzz.sh seeds                               rewrite tests/fuzz/corpus/*/gen-*
#
# Builds what is missing in $HDRLAB_FUZZ_BUILD_DIR (default build-fuzz/, configured with
# -DHDRLAB_FUZZ=ON and clang), then runs each target for SECONDS seconds (0: each corpus file once,
# no fuzzing) from its seed corpus tests/fuzz/corpus/<target>/, which is only read: new inputs go to
# a working corpus in <build>/fuzz/<target>/corpus/ that later runs continue from. A crash, leak,
# sanitizer report, out-of-memory or a single input running over 30 s fails the run: the script
# prints the report and the reproducer file (in <build>/fuzz/<target>/artifacts/) and exits 1.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${HDRLAB_FUZZ_BUILD_DIR:-build-fuzz}
jobs=${HDRLAB_JOBS:-$(nproc)}
targets_all=(scene exr hdr png gltf points hdrpng tev sequence)
# Per input: seconds before it counts as a hang (generous: on a shared 2-core machine a 30 ms input
# was once stalled past 10 s; a real hang runs forever); memory before it counts as a blow-up.
timeout_s=30
rss_limit_mb=2048

usage() {
  local IFS="|"
  echo "usage: scripts/fuzz.sh {${targets_all[*]}|all} SECONDS [LIBFUZZER_ARG...] | scripts/fuzz.sh seeds" >&2
  exit 2
}

configure_and_build() {
  if [ ! -f "$build/CMakeCache.txt" ]; then
    CC=${HDRLAB_FUZZ_CC:-clang} CXX=${HDRLAB_FUZZ_CXX:-clang++} \
      cmake -S . -B "$build" -G Ninja -DHDRLAB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  fi
  cmake --build "$build" -j "$jobs" --target "$@"
}

[ $# -ge 1 ] || usage
if [ "$1" = seeds ]; then
  configure_and_build hdrlab_fuzz_make_seeds
  exec "$build/hdrlab_fuzz_make_seeds" tests/fuzz/corpus
fi
[ $# -ge 2 ] || usage
what=$1
seconds=$2
shift 2
[[ "$seconds" =~ ^[0-9]+$ ]] || usage
if [ "$what" = all ]; then
  targets=("${targets_all[@]}")
else
  [[ " ${targets_all[*]} " == *" $what "* ]] || usage
  targets=("$what")
fi

configure_and_build "${targets[@]/#/hdrlab_fuzz_}"

failed=()
for target in "${targets[@]}"; do
  work="$build/fuzz/$target"
  mkdir -p "$work/corpus" "$work/artifacts"
  log="$work/last-run.log"
  marker="$work/.started"
  touch "$marker"
  if [ "$seconds" -eq 0 ]; then
    duration=(-runs=0)
  else
    duration=(-max_total_time="$seconds")
  fi
  echo "fuzz: $target for ${seconds}s (seed corpus tests/fuzz/corpus/$target, log $log)"
  status=0
  "$build/hdrlab_fuzz_$target" "${duration[@]}" -timeout="$timeout_s" -rss_limit_mb="$rss_limit_mb" \
    -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$@" \
    "$work/corpus" "tests/fuzz/corpus/$target" >"$log" 2>&1 || status=$?
  # libFuzzer's closing lines: executions, speed, coverage and corpus size.
  grep -E '^(Done|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb)|(INITED|DONE) ' "$log" |
    sed 's/^/  /' || true
  reproducers=$(find "$work/artifacts" -type f -newer "$marker" | sort)
  if [ "$status" -ne 0 ] || [ -n "$reproducers" ]; then
    echo "fuzz: $target FAILED (exit $status); the end of its report:" >&2
    grep -v -E '^#[0-9]+' "$log" | tail -n 60 | sed 's/^/  /' >&2
    for file in $reproducers; do
      echo "fuzz: reproducer: $file  (rerun: $build/hdrlab_fuzz_$target $file)" >&2
    done
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: failed: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz: ${targets[*]}: no crash, leak, hang or sanitizer report"
