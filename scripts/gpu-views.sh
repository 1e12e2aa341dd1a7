#!/usr/bin/env bash
# gpu-views.sh: the cost of the exploration views, for docs/PERF.md: the percentile operator's
# metering masks (the weighted-histogram pass "tonemap/percentile/metering") and the split view
# (pipeline B under "B/", the composite "view/split"), at 1920x1080 and 3840x2160 on the default
# scene, headless runs of FRAMES frames each: the median of the GL timer queries of the passes named
# and of the wall-clock frame time.
# Writes $OUT/views/view-times.txt (one line per run) and $OUT/views-logs.tar.gz (every run's log).
#
# Usage (repository root, GPU machine): source .devrt/on-device.sh; scripts/gpu-views.sh [BIN_DIR]
# Environment: OUT (default ./gpu-out), FRAMES (default 300), SIZES (default "1920x1080 3840x2160").
# shellcheck source=scripts/lib/gpu-preamble.sh
source "$(dirname "$0")/lib/gpu-preamble.sh"
gpu_preamble build views "$@"
frames=${FRAMES:-300}
sizes=${SIZES:-"1920x1080 3840x2160"}
table="$OUT/views/view-times.txt"
maskImage="$root/docs/images/false-colour.png" # any picture: its red channel becomes the weights

percentile="--set tonemap.operator=percentile"
declare -a names=(
  "percentile-average"
  "percentile-centre-weighted"
  "percentile-ellipse"
  "percentile-texture"
  "percentile-average-no-sky"
  "percentile-centre-weighted-no-sky"
  "metering-view"
  "ward-alone"
  "split-ward-vs-equalize"
  "split-ward-difference"
  "split-histogram-methods"
)
declare -a flags=(
  "$percentile"
  "$percentile --set percentile.metering_mask=centre-weighted"
  "$percentile --set percentile.metering_mask=ellipse"
  "$percentile --set percentile.metering_mask=texture --set percentile.mask_texture=$maskImage"
  "$percentile --set percentile.exclude_sky=true"
  "$percentile --set percentile.metering_mask=centre-weighted --set percentile.exclude_sky=true"
  "$percentile --set percentile.metering_mask=centre-weighted --view metering"
  "--set tonemap.operator=ward"
  "--set tonemap.operator=ward --split side-by-side --set-b tonemap.operator=equalize"
  "--set tonemap.operator=ward --split difference --set-b tonemap.operator=equalize"
  "--split side-by-side --set-b histogram.method=compute-global-atomic"
)
passes="tonemap/percentile/metering tonemap/percentile/metering/weights tonemap/percentile/metering/cdf tonemap/percentile/curve tonemap/percentile/apply view/metering
  tonemap/ward/curve tonemap/ward/apply histogram/compute-shared-atomic B/histogram/compute-shared-atomic
  B/histogram/compute-global-atomic B/tonemap/equalize/curve B/tonemap/equalize/apply B/tonemap/ward/apply
  view/readback B/view/readback view/split"

gpu_environment name,driver_version >"$table"
for size in $sizes; do
  for i in "${!names[@]}"; do
    log="$OUT/views/${names[$i]}-$size.log"
    # shellcheck disable=SC2086 # the flags are words
    timeout --signal=KILL 120 "$bin/hdrlab" --headless --size "$size" --frames "$frames" ${flags[$i]} \
      >"$log" 2>&1 || status=1
    frame=$(awk '/^frame time: median/ { print $4; exit }' "$log")
    line="${names[$i]} $size frame=${frame:-?}"
    for pass in $passes; do
      value=$(median_of "$log" "$pass")
      [[ -n "$value" ]] && line+=" $pass=$value"
    done
    echo "$line" | tee -a "$table"
  done
done
tar -czf "$OUT/views-logs.tar.gz" -C "$OUT" --exclude view-times.txt views && find "$OUT/views" -name '*.log' -delete
exit $status
