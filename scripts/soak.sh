#!/usr/bin/env bash
# soak.sh [FRAMES] [METHOD...]: long headless runs that prove a session does not grow.
#
# Runs build/hdrlab headless at 320x180 for each histogram METHOD (default: the default method,
# then every other method available here) with --resource-report, which prints resident memory,
# the GL objects alive through the src/gl wrappers and the CUDA device allocations alive ("n/a"
# without CUDA) at the start and every 10% of the run. Then scripts/soak_check.py fails the method
# when anything grows after warm-up:
#   warm-up       the first 10% of the run's frames (the 10% sample is the baseline);
#   GL, CUDA      no later sample may exceed the baseline;
#   RSS           no later sample may exceed the baseline by more than SOAK_RSS_TOLERANCE_KB
#                 (default 2048 KiB).
# FRAMES: frames per method. Default: 100000 for the default method, 20000 for each other.
# Environment: HDRLAB_BUILD_DIR (default build), HDRLAB_BINARY (default $HDRLAB_BUILD_DIR/hdrlab),
# SOAK_SIZE (default 320x180), SOAK_RSS_TOLERANCE_KB, SOAK_LOG_DIR (default: a temporary folder,
# removed at the end; set it to keep each method's log), SOAK_EXTRA_ARGS (more hdrlab options),
# PYTHON (default python3, runs soak_check.py).
# Exit status: 0 no growth anywhere, 1 growth or a failed run, 2 bad arguments.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${HDRLAB_BINARY:-$root/${HDRLAB_BUILD_DIR:-build}/hdrlab}
size=${SOAK_SIZE:-320x180}
rss_tolerance_kb=${SOAK_RSS_TOLERANCE_KB:-2048}
default_method=compute-shared-atomic

die() {
    echo "soak.sh: error: $*" >&2
    exit 2
}

[[ -x $binary ]] || die "no hdrlab binary at $binary (build first: bash scripts/build.sh, or set HDRLAB_BINARY)"
[[ $rss_tolerance_kb =~ ^[0-9]+$ ]] || die "SOAK_RSS_TOLERANCE_KB must be a number of KiB, got '$rss_tolerance_kb'"

frames=""
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
    frames=$1
    shift
    ((frames >= 10)) || die "FRAMES must be at least 10 (one sample every 10%), got $frames"
elif [[ $# -gt 0 && $1 =~ ^-?[0-9] ]]; then
    die "FRAMES must be a whole number of frames, got '$1'"
fi

methods=("$@")
if [[ ${#methods[@]} -eq 0 ]]; then
    # Every histogram method --list calls available, the default one first.
    mapfile -t available < <("$binary" --list 2>/dev/null |
        awk '/^Histogram methods/ {on = 1; next} /^[^ ]/ {on = 0} on && / - available/ {print $1}')
    [[ ${#available[@]} -gt 0 ]] || die "$binary --list names no available histogram method"
    methods=("$default_method")
    for method in "${available[@]}"; do
        [[ $method == "$default_method" ]] || methods+=("$method")
    done
fi

log_dir=${SOAK_LOG_DIR:-}
if [[ -z $log_dir ]]; then
    log_dir=$(mktemp -d "${TMPDIR:-/tmp}/hdrlab-soak.XXXXXX")
    trap 'rm -rf "$log_dir"' EXIT
else
    mkdir -p "$log_dir"
fi

read -r -a extra_args <<<"${SOAK_EXTRA_ARGS:-}"
echo "soak: $binary, ${size}, RSS tolerance ${rss_tolerance_kb} KiB, warm-up 10% of each run, $(date -u '+%Y-%m-%d %H:%M UTC')"
failed=()
for method in "${methods[@]}"; do
    n=$frames
    if [[ -z $n ]]; then
        if [[ $method == "$default_method" ]]; then n=100000; else n=20000; fi
    fi
    every=$(((n + 9) / 10))
    log=$log_dir/$method.log
    echo "== $method: $n frames, a sample every $every frames"
    start=$(date +%s)
    status=0
    # Each resource line is shown as it comes, with the seconds since this method's start.
    "$binary" --headless --size "$size" --frames "$n" --histogram-method "$method" --resource-report "$every" \
        --log-level warning "${extra_args[@]}" 2>&1 |
        while IFS= read -r line; do
            printf '%s\n' "$line" >>"$log"
            [[ $line == resources:* ]] && printf '  %6ds  %s\n' "$(($(date +%s) - start))" "${line#resources: }"
            [[ $line == *error* ]] && printf '  %s\n' "$line"
            true
        done || status=$?
    seconds=$(($(date +%s) - start))
    if [[ $status -ne 0 ]]; then
        echo "== $method: FAILED: hdrlab exited with status $status after ${seconds}s; its last lines:"
        tail -n 3 "$log" | sed 's/^/  /'
        failed+=("$method")
        continue
    fi
    if "${PYTHON:-python3}" "$root/scripts/soak_check.py" "$log" "$every" "$rss_tolerance_kb"; then
        echo "== $method: no growth after warm-up (${seconds}s)"
    else
        echo "== $method: FAILED: growth after warm-up (${seconds}s)"
        failed+=("$method")
    fi
done

if [[ ${#failed[@]} -gt 0 ]]; then
    echo "soak: FAILED: ${failed[*]}"
    exit 1
fi
echo "soak: passed: ${methods[*]}"
