#!/usr/bin/env bash
# Quick start 1: builds whatever is missing, then runs hdrlab on the built-in default scene:
# a window when a display is available; otherwise a headless run of 300 frames that writes
# hdrlab-screenshot.png and hdrlab-capture.json here and prints a timing summary.
# Arguments are passed to build/hdrlab (see build/hdrlab --help).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/build.sh" >&2
exec "$root/build/hdrlab" "$@"
