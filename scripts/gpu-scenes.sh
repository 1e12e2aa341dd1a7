#!/usr/bin/env bash
# gpu-scenes.sh: scene and frame time of every shipped scene with each lighting path (forward,
# deferred) at 1920x1080 and 3840x2160, for docs/PERF.md: headless runs of FRAMES frames each, the
# median of the GL timer queries of the scene's passes and of the wall-clock frame time.
# Writes $OUT/scenes/scene-times.txt (one line per run) and $OUT/scenes-logs.tar.gz (every run's
# log; the device returns few files).
#
# Usage (repository root, GPU machine): source .devrt/on-device.sh; scripts/gpu-scenes.sh [BIN_DIR]
# Environment: OUT (default ./gpu-out), FRAMES (default 120), SIZES (default "1920x1080 3840x2160").
# shellcheck source=scripts/lib/gpu-preamble.sh
source "$(dirname "$0")/lib/gpu-preamble.sh"
gpu_preamble build scenes "$@"
frames=${FRAMES:-120}
sizes=${SIZES:-"1920x1080 3840x2160"}
table="$OUT/scenes/scene-times.txt"

gpu_environment name,driver_version >"$table"
for sceneFile in scenes/*.json; do
  name=$(basename "$sceneFile" .json)
  for size in $sizes; do
    for lighting in forward deferred; do
      log="$OUT/scenes/$name-$size-$lighting.log"
      timeout --signal=KILL 120 "$bin/hdrlab" --headless --scene "$sceneFile" --size "$size" \
        --frames "$frames" --lighting "$lighting" >"$log" 2>&1 || status=1
      frame=$(awk '/^frame time: median/ { print $4; exit }' "$log")
      line="$name $size $lighting scene=$(median_of "$log" scene) frame=${frame:-?}"
      for pass in scene/opaque scene/sky scene/depth scene/gbuffer scene/lighting scene/shadowNear; do
        value=$(median_of "$log" "$pass")
        [[ -n "$value" ]] && line+=" ${pass#scene/}=$value"
      done
      echo "$line" | tee -a "$table"
    done
  done
done
tar -czf "$OUT/scenes-logs.tar.gz" -C "$OUT" --exclude scene-times.txt scenes && find "$OUT/scenes" -name '*.log' -delete
exit $status
