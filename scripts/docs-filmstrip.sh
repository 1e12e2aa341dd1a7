#!/usr/bin/env bash
# docs-filmstrip.sh: remakes docs/images/sequence-filmstrip.png (docs/OVERVIEW.md, USAGE.md) and
# docs/images/sequence-view.png (USAGE.md: the view window on the same frames) with the commands
# OVERVIEW.md quotes: 10 s of the tunnel-exit camera path rendered at 480x270 (600 frames), tone-mapped
# by `tonemap` at 60 fps with the percentile operator and with Ward; frames 0, 200, 330, 360, 380, 400
# and 440 of each at half size, percentile above, Ward below, 4 px apart on black. It also prints the
# two flicker lines (doc-check `tunnel` compares them with the text). About 6 minutes on llvmpipe with
# 2 cores. Needs Debian's python3-pil.
#   scripts/docs-filmstrip.sh [BIN_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:-build}")
/usr/bin/python3 -c 'import PIL' 2>/dev/null || { echo "docs-filmstrip: needs python3-pil" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
repo=$PWD
(
  cd "$work"
  mkdir -p tunnel
  "$bin/hdrlab" --headless --size 480x270 --frames 600 --scene "$repo/scenes/tunnel-exit.json" \
    --hdr-sequence-out tunnel/t.%04d.exr --log-level warning >/dev/null
  "$bin/hdrlab" tonemap tunnel -o p.%04d.png --fps 60 --operator percentile | grep '^flicker:' | sed 's/^/percentile /'
  "$bin/hdrlab" tonemap tunnel -o w.%04d.png --fps 60 --operator ward | grep '^flicker:' | sed 's/^/ward /'
  # USAGE.md's window: view on the sequence at 1600x900, frame 480 (just after the exit), fixed 1/60 s steps.
  xvfb-run -a -s "-screen 0 1600x900x24" "$bin/hdrlab" view 'tunnel/t.%04d.exr' --fps 60 --operator percentile \
    --size 1600x900 --frames 481 --vsync off --fixed-step --window-screenshot "$repo/docs/images/sequence-view.png" \
    --log-level warning | grep '^wrote'
)
/usr/bin/python3 - "$work" docs/images/sequence-filmstrip.png <<'PY'
import sys
from PIL import Image
work, out = sys.argv[1], sys.argv[2]
frames = [0, 200, 330, 360, 380, 400, 440]
tile, gap = (240, 135), 4
sheet = Image.new('RGB', (len(frames) * tile[0] + (len(frames) - 1) * gap, 2 * tile[1] + gap))
for row, prefix in enumerate(['p', 'w']):
    for column, frame in enumerate(frames):
        picture = Image.open(f'{work}/{prefix}.{frame:04d}.png').convert('RGB').resize(tile, Image.LANCZOS)
        sheet.paste(picture, (column * (tile[0] + gap), row * (tile[1] + gap)))
sheet.save(out)
print('wrote', out)
PY
