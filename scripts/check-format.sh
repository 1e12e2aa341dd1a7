#!/usr/bin/env bash
# check-format.sh: fails when a C++/CUDA source differs from .clang-format (clang-format 14, Debian).
# Checked: src/, tests/, tools/ (*.cpp, *.h, *.cu, *.cuh). Not checked: shaders/ (GLSL, and
# the headers of shaders/shared/, which the GLSL compiler reads too and whose macro layout is kept by
# hand). `scripts/check-format.sh --fix` formats those files in place.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
format=$(command -v clang-format-14 || command -v clang-format || true)
[[ -n "$format" ]] || { echo "check-format: clang-format not found (scripts/setup.sh installs it)" >&2; exit 1; }
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files -- 'src/*.cpp' 'src/*.h' 'src/*.cu' 'src/*.cuh' 'tests/*.cpp' 'tests/*.h' \
                                       'tests/*.cu' 'tests/*.cuh' 'tools/*.cpp' 'tools/*.h')
else
  mapfile -t files < <(find src tests tools -type f \( -name '*.cpp' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) 2>/dev/null | sort)
fi
if [[ "${1:-}" == "--fix" ]]; then
  "$format" -i "${files[@]}"
  echo "check-format: formatted ${#files[@]} files"
  exit 0
fi
if ! "$format" --dry-run --Werror "${files[@]}"; then
  echo "check-format: the files above differ from .clang-format; run scripts/check-format.sh --fix" >&2
  exit 1
fi
echo "check-format: ${#files[@]} files match .clang-format"
