#!/usr/bin/env bash
# Quick start 1: builds the app (only what it needs: not the tests), then runs hdrlab on the built-in
# default scene: a window when a display is available; otherwise a headless run (300 frames on a GPU,
# 60 smaller ones on a software renderer such as llvmpipe) that writes hdrlab-screenshot.png and
# hdrlab-capture.json here and prints a timing summary.
# Arguments are passed to build/hdrlab (see build/hdrlab --help).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
HDRLAB_TARGETS=hdrlab bash "$root/scripts/build.sh" >&2
exec "$root/build/hdrlab" "$@"
