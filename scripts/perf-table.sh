#!/usr/bin/env bash
# perf-table.sh: the current-numbers table at the top of docs/PERF.md, in one run: `hdrlab bench
# pipeline` at 1920x1080 and 3840x2160 for the percentile and Ward operators (every path the bench
# runs: the GL path and each CUDA histogram and scan path), once per frame format given, and `hdrlab
# bench clahe` (CLAHE per backend, 8- and 16-bit, at the same sizes) and `hdrlab bench fusion` (the fusion
# local exposure at the same sizes), then scripts/perf_table.py turns the CSVs and logs into the table.
#
# Usage (repository root; on the GPU machine after `source .devrt/on-device.sh`):
#   scripts/perf-table.sh [--bin DIR] [--update DOC.md] [FORMAT...]
#   FORMAT     frame formats to measure, each run with `--frame-format FORMAT` (rgba32f, rgba16f; the
#              flag must exist in the build). None: one run per operator in the app's default frame
#              format, without the flag.
#   --bin DIR  where hdrlab is (default .devrt/bin when it exists, else build)
#   --update   also rewrite the table between the perf-table markers of DOC.md (docs/PERF.md)
# Environment: OUT (default ./gpu-out), SIZES (default 1920x1080,3840x2160), OPERATORS (default
#   "percentile ward"), BINS (default 256), FRAMES (timed frames per configuration, default 120),
#   WARMUP (default 20), PEERS (default 1: the percentile run also times the engines' metering on the
#   same frame and checks the engine presets against it, `bench pipeline --peers`; 0 leaves it out),
#   CLAHE_RUNS (timed runs of bench clahe, default 200; 0 skips it), FUSION_RUNS (timed runs of bench
#   fusion, default 200; 0 skips it), PYTHON
#   (default python3; the table is skipped with a note without it).
# Writes $OUT/perf-table/: environment.txt, pipeline-<format>-<operator>.{txt,csv}, clahe.{txt,csv}, fusion.{txt,csv},
# perf-table.md,
# packed into $OUT/perf-table.tar.gz (the device returns few files). To rebuild the table from
# returned files elsewhere: copy the folder to docs/perf/<name>/ and run
#   python3 scripts/perf_table.py --env docs/perf/<name>/environment.txt --log docs/perf/<name>/*.txt \
#     --clahe docs/perf/<name>/clahe.csv --fusion docs/perf/<name>/fusion.csv --update docs/PERF.md docs/perf/<name>/pipeline-*.csv
# Exit status: 0, or 1 when a bench run failed (3 from the bench: a stage under its floor; the run's
# log says which) or the table could not be made.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin= update= formats=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --bin) bin=$2; shift 2 ;;
    --update) update=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    -*) echo "perf-table.sh: unknown option $1" >&2; exit 2 ;;
    *) formats+=("$1"); shift ;;
  esac
done
[[ -n "$bin" ]] || { [[ -x .devrt/bin/hdrlab ]] && bin=.devrt/bin || bin=build; }
[[ -x "$bin/hdrlab" ]] || { echo "perf-table.sh: no hdrlab in $bin" >&2; exit 2; }
bin=$(cd "$bin" && pwd)
OUT=${OUT:-./gpu-out}
dir="$OUT/perf-table"
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
export HDRLAB_DATA_DIR="$root"
sizes=${SIZES:-1920x1080,3840x2160}
operators=${OPERATORS:-percentile ward}
bins=${BINS:-256}
frames=${FRAMES:-120}
warmup=${WARMUP:-20}
python=${PYTHON:-python3}
clahe_runs=${CLAHE_RUNS:-200}
fusion_runs=${FUSION_RUNS:-200}
peers=${PEERS:-1}
status=0

{
  echo "date: $(date -u +%F)"
  echo "time: $(date -u +%TZ)"
  if gpu=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1) && [[ -n "$gpu" ]]; then
    echo "device: ${gpu%%,*}"
    echo "driver: ${gpu##*, }"
  fi
  commit=$(git -C "$root" rev-parse --short=12 HEAD 2>/dev/null) && echo "commit: $commit"
  echo "command: hdrlab bench pipeline --size $sizes --bins $bins --operator OP --frames $frames --warmup $warmup$([[ "$peers" != 0 ]] && echo " (--peers with OP percentile)")"
} >"$dir/environment.txt"

[[ ${#formats[@]} -gt 0 ]] || formats=(default)
csvs=() logs=()
for format in "${formats[@]}"; do
  flag=()
  [[ "$format" == default ]] || flag=(--frame-format "$format")
  for op in $operators; do
    name="pipeline-$format-$op"
    peer_flag=()
    [[ "$op" == percentile && "$peers" != 0 ]] && peer_flag=(--peers)
    echo "==== $name: hdrlab bench pipeline --size $sizes --bins $bins --operator $op ${flag[*]} ${peer_flag[*]}" | tee "$dir/$name.txt"
    timeout --signal=KILL 900 "$bin/hdrlab" bench pipeline --size "$sizes" --bins "$bins" --operator "$op" \
      --frames "$frames" --warmup "$warmup" "${flag[@]}" "${peer_flag[@]}" --csv "$dir/$name.csv" >>"$dir/$name.txt" 2>&1
    rc=$?
    echo "==== exit $rc" >>"$dir/$name.txt"
    echo "$name: exit $rc$([[ $rc -eq 3 ]] && echo ' (a stage came in under its floor: see the log)')"
    [[ $rc -eq 0 ]] || status=1
    [[ $rc -eq 0 || $rc -eq 3 ]] || tail -n 3 "$dir/$name.txt"
    grep -E "^(memory floors|device peak|floor check|FLOOR BROKEN|  [0-9]+x[0-9]+,|\| (unreal|unity-hdrp|bevy) \| )" \
      "$dir/$name.txt" | cut -c1-200
    [[ -s "$dir/$name.csv" ]] && csvs+=("$dir/$name.csv")
    logs+=(--log "$dir/$name.txt")
  done
done

sections=()  # --clahe / --fusion CSVs for perf_table.py
if [[ "$clahe_runs" != 0 ]]; then
  echo "==== clahe: hdrlab bench clahe --size $sizes --repeat $clahe_runs" | tee "$dir/clahe.txt"
  timeout --signal=KILL 900 "$bin/hdrlab" bench clahe --size "$sizes" --repeat "$clahe_runs" \
    --csv "$dir/clahe.csv" >>"$dir/clahe.txt" 2>&1
  rc=$?
  echo "==== exit $rc" >>"$dir/clahe.txt"
  echo "clahe: exit $rc$([[ $rc -eq 1 ]] && echo ' (a backend failed or differed from the CPU reference: see the log)')"
  [[ $rc -eq 0 ]] || status=1
  grep -E "^\| [0-9]+x[0-9]+ " "$dir/clahe.txt" | cut -c1-200
  [[ -s "$dir/clahe.csv" ]] && sections+=(--clahe "$dir/clahe.csv")
fi

if [[ "$fusion_runs" != 0 ]]; then
  echo "==== fusion: hdrlab bench fusion --size $sizes --repeat $fusion_runs" | tee "$dir/fusion.txt"
  timeout --signal=KILL 900 "$bin/hdrlab" bench fusion --size "$sizes" --repeat "$fusion_runs" \
    --csv "$dir/fusion.csv" >>"$dir/fusion.txt" 2>&1
  rc=$?
  echo "==== exit $rc" >>"$dir/fusion.txt"
  echo "fusion: exit $rc$([[ $rc -eq 1 ]] && echo ' (a size failed or differed from the CPU reference: see the log)')"
  [[ $rc -eq 0 ]] || status=1
  grep -E "^\| [0-9]+x[0-9]+ " "$dir/fusion.txt" | cut -c1-200
  [[ -s "$dir/fusion.csv" ]] && sections+=(--fusion "$dir/fusion.csv")
fi

if [[ ${#csvs[@]} -eq 0 ]]; then
  echo "perf-table.sh: no bench run wrote a CSV; no table"
  status=1
elif ! command -v "$python" >/dev/null 2>&1; then
  echo "perf-table.sh: no $python here: make the table from the returned files (see the header of this script)"
else
  "$python" "$root/scripts/perf_table.py" --env "$dir/environment.txt" "${logs[@]}" "${sections[@]}" \
    --output "$dir/perf-table.md" "${csvs[@]}" || status=1
  if [[ -n "$update" ]]; then
    "$python" "$root/scripts/perf_table.py" --env "$dir/environment.txt" "${logs[@]}" "${sections[@]}" \
      --update "$update" "${csvs[@]}" || status=1
  fi
  [[ -s "$dir/perf-table.md" ]] && echo "table: $dir/perf-table.md"
fi
tar -czf "$OUT/perf-table.tar.gz" -C "$OUT" perf-table
echo "overall: $([[ $status -eq 0 ]] && echo OK || echo FAILURES)"
exit $status
