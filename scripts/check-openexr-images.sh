#!/usr/bin/env bash
# check-openexr-images.sh: runs `hdrlab tonemap` on every .exr under DIR (OpenEXR's sample
# collection, github.com/AcademySoftwareFoundation/openexr-images, or any folder) and reports the
# files that do not open, with hdrlab's one-line reason. The collection's Damaged/ folder (files
# broken on purpose) is skipped. Not run by CI: the collection is not part of the repository.
#
# Usage: scripts/check-openexr-images.sh DIR [HDRLAB]   (HDRLAB: the binary, default build/hdrlab)
# Exit status: 0 when every file opens, 1 otherwise, 2 on bad usage.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-}
hdrlab=${2:-$root/build/hdrlab}
if [[ -z "$dir" || ! -d "$dir" ]]; then
  echo "usage: scripts/check-openexr-images.sh DIR [HDRLAB]" >&2
  exit 2
fi
[[ -x "$hdrlab" ]] || { echo "check-openexr-images: no hdrlab binary at $hdrlab (build it, or pass its path)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

mapfile -d '' files < <(find "$dir" -type d -name Damaged -prune -o -type f -iname '*.exr' -print0 | sort -z)
opened=0
failed=0
for file in "${files[@]}"; do
  name=${file#"$dir"/}
  if message=$("$hdrlab" tonemap "$file" -o "$out/image.png" 2>&1); then
    opened=$((opened + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: $(printf '%s\n' "$message" | tail -n 1)"
  fi
done
echo "check-openexr-images: $opened of ${#files[@]} files open, $failed fail"
[[ $failed -eq 0 ]]
