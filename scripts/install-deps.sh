#!/usr/bin/env bash
# Installs what kspmv needs from Debian/Ubuntu packages: compiler, CMake, Ninja, Kokkos and
# KokkosKernels 3.4 (Serial backend), GoogleTest, hipcc (ROCm's HIP compiler, for CI's
# compile-only HIP stage and the optional check of the wave-64 kernels; no AMD GPU is needed),
# Open MPI (the distributed SpMV and its tests, run with mpirun), and clang 14 with its runtime
# libraries (libFuzzer, the sanitizers) for CI's sanitizer and fuzzing stages. Runs as root or
# through sudo.
set -euo pipefail
packages=(g++ cmake ninja-build libtrilinos-kokkos-dev libtrilinos-kokkos-kernels-dev libgtest-dev hipcc clang-14 libclang-rt-14-dev libopenmpi-dev openmpi-bin)
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo); fi
if dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  echo "install-deps: ${packages[*]} already installed"
  exit 0
fi
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}"
