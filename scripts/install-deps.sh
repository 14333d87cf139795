#!/usr/bin/env bash
# Install what ionfront needs from Debian 12 packages (idempotent: installs only
# what is missing). Uses sudo when not run as root.
set -euo pipefail
packages=(
  build-essential cmake pkg-config git
  libopenmpi-dev openmpi-bin
  libhdf5-openmpi-dev hdf5-tools
  libhwloc-dev libgsl-dev libyaml-dev libpng-dev libcairo2-dev libfftw3-dev librandom123-dev
  libchealpix-dev
  python3 python3-numpy python3-h5py python3-matplotlib
  python3-pytest python3-mpi4py
  python3-venv                 # `pip install .` into a virtual environment (tests/api/pip_install.sh)
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "ionfront: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
