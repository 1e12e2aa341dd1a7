#!/usr/bin/env bash
# Installs hdrlab's build and test dependencies from Debian/Ubuntu packages.
# Idempotent: packages already installed are skipped; apt-get runs through sudo when not root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libglfw3-dev libimgui-dev python3-glad libtinyexr-dev libopenexr-dev libglm-dev
  libcli11-dev nlohmann-json3-dev libstb-dev libtinygltf-dev
  libegl-dev libgl-dev libegl1 libgl1-mesa-dri libegl-mesa0 libglx-mesa0
  libgtest-dev libgmock-dev
  xvfb xauth xdotool                   # window tests (xdotool: the split view divider drag)
  clang libclang-rt-14-dev zlib1g-dev  # scripts/fuzz.sh: libFuzzer and the sanitizer runtimes
  clang-format                         # scripts/check-format.sh
  ccache                               # a compiler cache shared by the builds (CMakeLists.txt)
  libopencv-imgproc-dev                # the CLAHE oracle: OpenCV itself (tests/reference/ClaheOracleTest.cpp)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages already installed"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo_cmd=(sudo); else
    echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1
  fi
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
