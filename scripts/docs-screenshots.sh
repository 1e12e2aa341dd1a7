#!/usr/bin/env bash
# docs-screenshots.sh: remakes the screenshots of the panels and views in docs/images/ (llvmpipe is
# enough: they show panels and pictures, not timings): a 1280x720 window with every panel open (the
# layout), the false-colour view with probes in a window, the split view in a window (Xvfb), its
# difference view, the metering view of a mask, an engine preset in the panels (headless --ui), the
# scene presets' thumbnails, the contact sheet of every operator on MtTamWest.exr, README's clahe
# tile grid and USAGE's streamed image (scripts/docs-filmstrip.sh makes the tunnel's pictures).
# Windows run on the fixed step (--fixed-step) as large as their Xvfb screen, whose pointer rests at
# the centre, on the picture. The Pipeline and Exposure close-ups are crops of headless --ui runs
# (Debian's python3-pil; skipped with a note without it). The false-colour strip and the compare
# close-up were made with the commands in docs/USAGE.md.
#
# Usage (repository root, after a build): scripts/docs-screenshots.sh [BIN_DIR]   (default build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=$(cd "${1:-build}" && pwd)
out="$root/docs/images"
export HDRLAB_DATA_DIR="$root"

# A new user's window: 1280x720, the settings column at the left, the measurements' strip below.
xvfb-run -a -s "-screen 0 1280x720x24" "$bin/hdrlab" --size 1280x720 --frames 24 --vsync off --fixed-step \
  --window-screenshot "$out/layout-1280x720.png"
# The false-colour view with the mouse probe (the pointer) and a fixed one.
xvfb-run -a -s "-screen 0 1280x720x24" "$bin/hdrlab" --size 1280x720 --frames 24 --vsync off --fixed-step \
  --view false-colour --probe 100,100 --window-screenshot "$out/probe-window.png"
# Two operators side by side in the window: equalize (A) left, Ward (B) right.
xvfb-run -a -s "-screen 0 1600x900x24" "$bin/hdrlab" --size 1600x900 --frames 24 --vsync off --fixed-step \
  --split side-by-side --set tonemap.operator=equalize --set-b tonemap.operator=ward \
  --window-screenshot "$out/split-window.png"
# The same two as |A - B| (gain 1: they differ a lot).
"$bin/hdrlab" --headless --size 640x360 --frames 24 --split difference --split-gain 1 \
  --set tonemap.operator=equalize --set-b tonemap.operator=ward --screenshot "$out/split-difference.png"
# A metering mask: centre-weighted, sky excluded by depth, on the sunset street.
"$bin/hdrlab" --headless --scene scenes/sunset-street.json --size 640x360 --frames 24 \
  --set tonemap.operator=percentile --set percentile.metering_mask=centre-weighted \
  --set percentile.exclude_sky=true --view metering --screenshot "$out/metering-mask.png"
# An engine preset: Unreal's histogram auto-exposure, with the panels drawn.
"$bin/hdrlab" --headless --size 1600x900 --frames 24 --ui --set tonemap.operator=percentile \
  --set percentile.preset=unreal --screenshot "$out/engine-preset-unreal.png"
# Local exposure (bilateral, Unreal's template contrasts): the picture and its four views in one sheet
# (docs/USAGE.md's local exposure section; needs Debian's python3-pil).
if /usr/bin/python3 -c 'import PIL' 2>/dev/null; then
  tmp=$(mktemp -d)
  for v in tonemapped local-base local-blurred local-detail local-exposure; do
    "$bin/hdrlab" --headless --size 480x270 --frames 6 --set tonemap.operator=percentile \
      --set local_exposure.method=bilateral --set local_exposure.highlight_contrast_scale=0.8 \
      --set local_exposure.shadow_contrast_scale=0.8 --view "$v" --screenshot "$tmp/$v.png" >/dev/null
  done
  /usr/bin/python3 - "$tmp" "$out/local-exposure-views.png" <<'PY'
import sys
from PIL import Image, ImageDraw
folder, target = sys.argv[1], sys.argv[2]
views = ['tonemapped', 'local-base', 'local-blurred', 'local-detail', 'local-exposure']
labels = ['picture (bilateral, 0.8/0.8)'] + ['--view ' + v for v in views[1:]]
images = [Image.open(f'{folder}/{v}.png').convert('RGB') for v in views]
w, h = images[0].size
sheet = Image.new('RGB', (w * 3 + 8, (h + 20) * 2), (32, 32, 32))
for k, (image, label) in enumerate(zip(images, labels)):
    x, y = (k % 3) * (w + 4), (k // 3) * (h + 20)
    sheet.paste(image, (x, y + 18))
    ImageDraw.Draw(sheet).text((x + 4, y + 3), label, fill=(230, 230, 230))
sheet.save(target, optimize=True)
PY
  rm -rf "$tmp"
else
  echo "docs-screenshots: python3-pil missing: local-exposure-views.png not remade"
fi
# Close-ups of the panels (at --ui-scale 1 the regions' places are fixed): the Pipeline panel at the
# top of the settings column with a value set by --set, and the Exposure panel (right end of the
# strip below the picture, the strip made taller by a settings file's layout key) after 150 frames of
# the percentile operator with an exposure compensation curve (its plot below the key value's).
if /usr/bin/python3 -c 'import PIL' 2>/dev/null; then
  tmp=$(mktemp -d)
  "$bin/hdrlab" --headless --size 1600x1200 --frames 12 --ui --operator exposure --set exposure.exposure_ev=-2 \
    --screenshot "$tmp/settings.png"
  echo '{"layout.strip_height": 560}' > "$tmp/tall-strip.json"
  "$bin/hdrlab" --headless --size 1600x1200 --frames 150 --ui --operator percentile --settings "$tmp/tall-strip.json" \
    --set percentile.compensation_curve=-6:-1.5,-2:0,4:0.5 --screenshot "$tmp/exposure.png"
  /usr/bin/python3 - "$tmp" "$out" <<'PY'
import sys
from PIL import Image
tmp, out = sys.argv[1], sys.argv[2]
Image.open(tmp + "/settings.png").crop((0, 0, 360, 660)).save(out + "/settings-pipeline-panel.png")
Image.open(tmp + "/exposure.png").crop((1300, 632, 1600, 1050)).save(out + "/exposure-plot.png")
PY
  rm -rf "$tmp"
else
  echo "docs-screenshots.sh: no python3-pil; the panel close-ups were not remade" >&2
fi
# The scene presets' thumbnails in OVERVIEW.md's table: each scene's third frame at 480x270 with the
# app's defaults.
for scene in scenes/*.json; do
  "$bin/hdrlab" --headless --size 480x270 --frames 3 --scene "$scene" \
    --screenshot "$out/presets/$(basename "$scene" .json).png" --log-level warning >/dev/null
done
# USAGE.md's contact sheet: every operator on MtTamWest.exr (../shared, or $HDRLAB_SHARED_DIR) with
# the command USAGE.md quotes.
shared=${HDRLAB_SHARED_DIR:-$root/../shared}
if [ -f "$shared/exr/real/MtTamWest.exr" ]; then
  "$bin/hdrlab" tonemap "$shared/exr/real/MtTamWest.exr" --operator all -o "$out/tonemap-sheet-mttamwest.png" \
    --log-level warning >/dev/null
else
  echo "docs-screenshots: $shared/exr/real/MtTamWest.exr missing: tonemap-sheet-mttamwest.png not remade" >&2
fi
# README's clahe picture: the clahe operator's 8x8 tile grid over the default scene (view local-tiles)
# with a probe in tile (4,3), the Histogram panel showing that tile's histogram and curve.
"$bin/hdrlab" --headless --size 1280x720 --frames 10 --ui --operator clahe --view local-tiles --probe 530,230 \
  --screenshot "$out/local-clahe-tiles.png" --log-level warning >/dev/null
# USAGE.md's streamed image: scripts/tev_send.py streams a gradient in 64-pixel tiles to a headless
# --listen run (a free port from the kernel, the client started once the server listens).
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin/hdrlab" --headless --listen "127.0.0.1:$port" --listen-timeout 60 --ui --size 1280x720 --frames 6 \
  --screenshot "$out/tev-streamed.png" --log-level warning >/dev/null &
server=$!
for _ in $(seq 50); do
  /usr/bin/python3 "$root/scripts/tev_send.py" --port "$port" --name pbrt-like-render --tile 64 640x360 2>/dev/null && break
  sleep 0.2
done
wait "$server"
