#!/usr/bin/env python3
"""The GPU machine's scripts (scripts/gpu-*.sh) and their shared preamble (scripts/lib/gpu-preamble.sh),
run here with stand-in binaries: the binary folder and $OUT they resolve, the environment they hand
the binaries, the tables they write, and a failing step turning into a failing exit. Also: every
gpu-*.sh parses (bash -n) and none carries its own copy of the preamble."""

import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"
GPU_SCRIPTS = sorted(SCRIPTS.glob("gpu-*.sh"))
PREAMBLE = SCRIPTS / "lib" / "gpu-preamble.sh"

# A stand-in for hdrlab and the test programs: records its arguments and the environment the
# script gave it, prints a frame time and a per-pass table row, exits with $STUB_EXIT (default 0).
STUB = """#!/usr/bin/env bash
echo "$(basename "$0") $* data=${HDRLAB_DATA_DIR:-} source=${HDRLAB_SOURCE_DIR:-} binary=${HDRLAB_BINARY:-}" >>"$STUB_LOG"
echo "frame time: median 1.5 ms"
echo "scene 10 x 2.5"
exit "${STUB_EXIT:-0}"
"""

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


def make_stubs(folder):
    folder.mkdir(parents=True)
    for name in ("hdrlab", "hdrlab_tests_cuda", "hdrlab_tests_gl"):
        path = folder / name
        path.write_text(STUB)
        path.chmod(0o755)


def run(script, args, env_extra, cwd):
    env = dict(os.environ)
    env.update(env_extra)
    return subprocess.run(["bash", str(script)] + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def main():
    check(PREAMBLE.is_file(), "scripts/lib/gpu-preamble.sh is missing")
    check(len(GPU_SCRIPTS) >= 6, f"expected the six gpu-*.sh scripts, found {len(GPU_SCRIPTS)}")
    for script in GPU_SCRIPTS + [PREAMBLE]:
        parsed = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        check(parsed.returncode == 0, f"{script.name} does not parse: {parsed.stderr.strip()}")
    for script in GPU_SCRIPTS:
        text = script.read_text()
        check('source "$(dirname "$0")/lib/gpu-preamble.sh"' in text, f"{script.name} does not source the preamble")
        check("OUT=${OUT:-./gpu-out}" not in text and not re.search(r"^root=", text, re.M),
              f"{script.name} carries its own copy of the preamble")

    with tempfile.TemporaryDirectory(prefix="hdrlab-gpu-preamble-") as temp:
        temp = pathlib.Path(temp)
        bin_dir = temp / "bin"
        make_stubs(bin_dir)
        stub_log = temp / "stub.log"
        elsewhere = temp / "elsewhere"  # the scripts must not depend on the caller's folder
        elsewhere.mkdir()

        # gpu-check.sh: the binary folder from the argument, $OUT made absolute, the environment.
        out = temp / "out-check"
        result = run(SCRIPTS / "gpu-check.sh", [str(bin_dir)],
                     {"OUT": str(out), "STUB_LOG": str(stub_log), "SKIP_BENCH": "1"}, elsewhere)
        check(result.returncode == 0, f"gpu-check.sh failed with stand-ins: {result.stdout[-500:]} {result.stderr[-500:]}")
        calls = stub_log.read_text() if stub_log.exists() else ""
        check(f"hdrlab_tests_cuda --gtest_brief=1 data={ROOT} source={ROOT} binary={bin_dir}/hdrlab" in calls,
              f"gpu-check.sh ran the CUDA tests without the expected environment: {calls!r}")
        check(f"hdrlab --list data={ROOT}" in calls, f"gpu-check.sh did not run hdrlab --list: {calls!r}")
        summary = (out / "summary.log").read_text() if (out / "summary.log").exists() else ""
        check("overall: OK" in summary, f"gpu-check.sh summary: {summary!r}")

        # A failing step makes the whole script fail, and says so.
        out = temp / "out-check-failing"
        result = run(SCRIPTS / "gpu-check.sh", [str(bin_dir)],
                     {"OUT": str(out), "STUB_LOG": str(stub_log), "SKIP_BENCH": "1", "STUB_EXIT": "1"}, elsewhere)
        check(result.returncode == 1, f"gpu-check.sh with failing steps exited {result.returncode}")
        check("overall: FAILURES" in result.stdout, "gpu-check.sh with failing steps did not report FAILURES")

        # gpu-scenes.sh: a relative $OUT resolved from the repository root's caller, the scenes table
        # (environment lines, then one row per scene, size and lighting), the logs packed.
        out = temp / "out-scenes"
        result = run(SCRIPTS / "gpu-scenes.sh", [str(bin_dir)],
                     {"OUT": str(out), "STUB_LOG": str(stub_log), "FRAMES": "2", "SIZES": "64x64"}, elsewhere)
        check(result.returncode == 0, f"gpu-scenes.sh failed with stand-ins: {result.stderr[-500:]}")
        table = (out / "scenes" / "scene-times.txt")
        rows = table.read_text().splitlines() if table.exists() else []
        check(len(rows) >= 3 and re.match(r"^\d{4}-\d{2}-\d{2}T", rows[0] if rows else ""),
              f"scene-times.txt does not start with the date: {rows[:3]!r}")
        check("default 64x64 forward scene=2.5 frame=1.5" in rows, f"scene-times.txt lacks the default scene's row: {rows!r}")
        check((out / "scenes-logs.tar.gz").is_file(), "gpu-scenes.sh did not pack its logs")

        # gpu-perf.sh writes its environment file through the preamble's gpu_environment.
        out = temp / "out-perf"
        result = run(SCRIPTS / "gpu-perf.sh", [str(bin_dir)],
                     {"OUT": str(out), "STUB_LOG": str(stub_log), "FRAMES": "2", "REPEAT": "1"}, elsewhere)
        check(result.returncode == 0, f"gpu-perf.sh failed with stand-ins: {result.stderr[-500:]}")
        check((out / "perf.tar.gz").is_file(), "gpu-perf.sh did not pack its logs")

    if failures:
        print(f"gpu_preamble: {len(failures)} failures")
        return 1
    print("gpu_preamble: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
