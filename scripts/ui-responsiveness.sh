#!/usr/bin/env bash
# ui-responsiveness.sh: how fast the panels answer on this machine's GL (issue 35 item 7: "above 10 fps
# on the 2-core software renderer at 1280x720"). Opens the app in a window under Xvfb on the default
# scene, keeps the mouse moving over the settings column for SECONDS (the panels are "in use", so the
# window shows the kept picture instead of rendering the scene), quits with Esc and prints the app's
# line "kept picture while the panels were in use: N intervals, median M ms (F fps); rendered frames:
# ..." (back-to-back frames of each kind, wall clock). A measurement, not a test: run it on a quiet machine.
#   scripts/ui-responsiveness.sh [SECONDS] [WxH] [WARMUP]  (default 10 s, 1280x720, 8 s before the mouse moves;
#                                                           HDRLAB_BIN, default build/hdrlab)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
size=${2:-1280x720}
warmup=${3:-8}
bin=$(realpath "${HDRLAB_BIN:-build/hdrlab}")
command -v xvfb-run >/dev/null && command -v xdotool >/dev/null ||
  { echo "ui-responsiveness: needs xvfb-run and xdotool (scripts/setup.sh installs them)" >&2; exit 2; }
width=${size%x*}
height=${size#*x}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/drive.sh" <<SCRIPT
"$bin" --size $size --frames 100000 --vsync off 2> "$work/app.log" &
app=\$!
xdotool search --sync --onlyvisible --name hdrlab >/dev/null
sleep $warmup   # the first frames (shaders, the scene) before the panels are used
end=\$((\$(date +%s) + $seconds))
x=150
while [ \$(date +%s) -lt \$end ]; do   # back and forth over the settings column (the left side)
  for y in 200 260 320 260; do xdotool mousemove \$x \$y; sleep 0.05; done
done
xdotool mousemove 100 100; sleep 1
xdotool key Escape
wait \$app
SCRIPT
xvfb-run -a -s "-screen 0 ${width}x${height}x24" bash "$work/drive.sh"
grep -h "kept picture" "$work/app.log" || { echo "ui-responsiveness: no kept-picture frames (were the panels in use?)"; cat "$work/app.log"; exit 1; }
