#!/usr/bin/env bash
# Builds the CPU and GL test programs with AddressSanitizer + UndefinedBehaviorSanitizer (GCC,
# CUDA off) in build-asan/ and runs them, the GL one on whatever EGL offers (Mesa llvmpipe through
# the surfaceless platform without a GPU). Any ASan, UBSan or LeakSanitizer report fails the run;
# the only leaks let through are Mesa/LLVM/EGL's own, listed with reasons in
# tests/sanitizers/lsan.supp (nothing of hdrlab's). See docs/RELIABILITY.md, "Sanitizers".
#
#   scripts/run-sanitizers.sh [cpu|gl|all] [GTEST_FILTER]     default: all, every test
#
# HDRLAB_ASAN_BUILD_DIR picks the build folder (default build-asan), HDRLAB_JOBS the build's jobs.
# Prints how long each step took; exits nonzero on a build failure, a failed test or any report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
build=${HDRLAB_ASAN_BUILD_DIR:-build-asan}
jobs=${HDRLAB_JOBS:-$(nproc)}
which=${1:-all}
filter=${2:-*}
case "$which" in cpu) programs=(cpu) ;; gl) programs=(gl) ;; all) programs=(cpu gl) ;;
  *) echo "usage: scripts/run-sanitizers.sh [cpu|gl|all] [GTEST_FILTER]" >&2; exit 2 ;; esac

# -O1 keeps the instrumented GL tests fast enough on llvmpipe while the stacks stay readable;
# -fno-sanitize-recover=all turns every UBSan finding into a failure instead of a line of log.
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
started=$(date +%s)
step_started=$started
step_done() {
  local now
  now=$(date +%s)
  echo "sanitizers: $1 took $((now - step_started)) s"
  step_started=$now
}

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DHDRLAB_CUDA=OFF -DHDRLAB_BUILD_TESTS=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
    -DCMAKE_C_FLAGS="$sanitize" -DCMAKE_CXX_FLAGS="$sanitize" \
    -DCMAKE_EXE_LINKER_FLAGS="$sanitize" -DCMAKE_SHARED_LINKER_FLAGS="$sanitize" >/dev/null
fi
cmake --build "$build" -j "$jobs" --target "${programs[@]/#/hdrlab_tests_}"
step_done "build"

# halt_on_error: the first report ends the program with a nonzero exit, so no report can hide in a
# passing run. detect_leaks runs LeakSanitizer at exit. GL drivers are dlopen'ed and stay loaded
# (fast_unwind_on_malloc=0 is too slow on llvmpipe; the frame pointers above keep stacks whole).
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
# A run whose only finding is leaks exits with 23, so it can be told from a failed test (exit 1).
export LSAN_OPTIONS="suppressions=$root/tests/sanitizers/lsan.supp:print_suppressions=0:exitcode=23${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# Leaks made by the GL driver's run-time code: llvmpipe compiles shaders to machine code at run time,
# and an allocation made from that code has a stack of one frame in "<unknown module>" (no library
# owns it, no frame pointer leads back), which no suppression can name. Such a report is accepted
# only when no frame of any leaked stack is in hdrlab's binaries or sources; a leak from hdrlab's own
# code (built with frame pointers) always shows its frames there and fails the run.
driver_only_leaks() { # LOG PROGRAM
  local log=$1 program=$2
  grep -q -E '^==[0-9]+==ERROR: LeakSanitizer' "$log" || return 1
  # Any sanitizer report other than the leak report disqualifies.
  if grep -E '^==[0-9]+==ERROR' "$log" | grep -v -q 'LeakSanitizer' || grep -q 'runtime error:' "$log"; then
    return 1
  fi
  local stacks
  stacks=$(sed -n '/ERROR: LeakSanitizer/,/^SUMMARY: AddressSanitizer/p' "$log")
  if grep -E '^ +#[0-9]+ ' <<<"$stacks" | grep -v -E 'libsanitizer|libasan|libubsan|<unknown module>' |
      grep -q -E "hdrlab|/src/|/tests/|$program"; then
    return 1
  fi
  grep -E '^ +#[0-9]+ ' <<<"$stacks" | grep -v -q -E 'libsanitizer|libasan|libubsan|<unknown module>|\.so' && return 1
  return 0
}

failed=()
for program in "${programs[@]}"; do
  log="$build/sanitizers-$program.log"
  echo "sanitizers: hdrlab_tests_$program (log $log)"
  status=0
  "$build/hdrlab_tests_$program" --gtest_filter="$filter" --gtest_brief=1 >"$log" 2>&1 || status=$?
  tail -n 3 "$log" | sed 's/^/  /'
  # A sanitizer report is a failure even if the program managed to exit 0.
  if [ "$status" -eq 23 ] && ! grep -q '\[  FAILED  \]' "$log" && driver_only_leaks "$log" "hdrlab_tests_$program"; then
    echo "sanitizers: hdrlab_tests_$program: every test passed; LeakSanitizer found only leaks of the GL driver's" \
      "run-time code (stacks only in <unknown module>, no hdrlab frame):"
    grep -E '^(Indirect leak|Direct leak|SUMMARY)' "$log" | sed 's/^/  /'
  elif [ "$status" -ne 0 ] || grep -q -E '^(==[0-9]+==ERROR|SUMMARY: (Address|UndefinedBehavior|Leak)Sanitizer)|runtime error:' "$log"; then
    echo "sanitizers: hdrlab_tests_$program FAILED (exit $status); the report:" >&2
    grep -n -E -A 40 '==[0-9]+==ERROR|runtime error:|\[  FAILED  \]' "$log" | head -n 120 | sed 's/^/  /' >&2
    failed+=("$program")
  fi
  step_done "hdrlab_tests_$program"
done

echo "sanitizers: total $(($(date +%s) - started)) s"
if [ ${#failed[@]} -ne 0 ]; then
  echo "sanitizers: failed: ${failed[*]}" >&2
  exit 1
fi
echo "sanitizers: ${programs[*]}: passed (no ASan or UBSan report; no leak with a frame of hdrlab's)"
