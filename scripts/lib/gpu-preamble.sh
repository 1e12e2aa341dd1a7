# shellcheck shell=bash
# gpu-preamble.sh: the start that every scripts/gpu-*.sh shares, sourced right after its header
# comment, and the helpers more than one of them uses. Not a script of its own (no shebang).
#
#   source "$(dirname "$0")/lib/gpu-preamble.sh"
#   gpu_preamble DEFAULT_BIN_DIR OUT_SUBFOLDER "$@"
#
# Sourcing sets strict mode (-u, pipefail; not -e: the scripts run every step and report failures
# through $status). gpu_preamble then sets, for the caller:
#   root    the repository root, also made the working directory;
#   bin     the absolute binary folder: the script's first argument, else .devrt/bin on the GPU
#           machine (when .devrt/bin/hdrlab exists), else DEFAULT_BIN_DIR (a build folder);
#   OUT     the absolute log folder ($OUT from the environment, default ./gpu-out), created with
#           OUT_SUBFOLDER inside it ("" for none);
#   status  0 (the script sets 1 when a step fails and exits with it);
# and exports HDRLAB_DATA_DIR (scenes, environment maps) as the repository root.
set -uo pipefail

# shellcheck disable=SC2034 # root, bin, OUT and status are the caller's
gpu_preamble() { # gpu_preamble DEFAULT_BIN_DIR OUT_SUBFOLDER [BIN_DIR]
  local defaultBin=$1 subfolder=$2
  root=$(cd "$(dirname "$0")/.." && pwd)
  cd "$root" || exit 1
  bin=${3:-}
  [[ -n "$bin" ]] || { [[ -x .devrt/bin/hdrlab ]] && bin=.devrt/bin || bin=$defaultBin; }
  bin=$(cd "$bin" && pwd)
  OUT=${OUT:-./gpu-out}
  mkdir -p "$OUT/$subfolder"
  OUT=$(cd "$OUT" && pwd)
  export HDRLAB_DATA_DIR="$root"
  status=0
}

gpu_environment() { # gpu_environment NVIDIA_SMI_FIELDS: UTC date, revision and the GPU, one per line
  date -u +%FT%TZ
  git -C "$root" rev-parse --short=12 HEAD 2>/dev/null || true
  nvidia-smi --query-gpu="$1" --format=csv,noheader 2>&1 || true
}

median_of() { # median_of LOG PASS: the median ms column of PASS in the per-pass table
  awk -v pass="$2" '$1 == pass && $2 ~ /^[0-9]+$/ { print $4; exit }' "$1"
}
