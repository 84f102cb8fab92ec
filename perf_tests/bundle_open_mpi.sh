#!/usr/bin/env bash
# Copies this machine's Open MPI (Debian's openmpi-bin, with its PMIx) into DIR, relocatable, for
# a GPU machine that has no MPI: the device tool carries DIR with the binaries. Then, there:
#   source DIR/env.sh && mpirun -np 2 ... (env.sh sets OPAL_PREFIX, PMIX_INSTALL_PREFIX, PATH,
#   LD_LIBRARY_PATH and the settings .ci/run and the tests use for Open MPI as root).
#
#   perf_tests/bundle_open_mpi.sh DIR
set -euo pipefail
dir=$(mkdir -p "$1" && cd "$1" && pwd)
ompi=/usr/lib/x86_64-linux-gnu/openmpi pmix=/usr/lib/x86_64-linux-gnu/pmix2
mkdir -p "$dir/usr/bin" "$dir/usr/lib/x86_64-linux-gnu/openmpi/lib" "$dir/usr/share" "$dir/pmix2/lib" "$dir/lib"
cp /usr/bin/orterun /usr/bin/orted "$dir/usr/bin/"
ln -sf orterun "$dir/usr/bin/mpirun"
cp -r "$ompi/lib/openmpi3" "$dir/usr/lib/x86_64-linux-gnu/openmpi/lib/"
cp -r "$pmix/lib/pmix" "$dir/pmix2/lib/"
cp -r "$pmix/share" "$dir/pmix2/"
cp -r /usr/share/openmpi "$dir/usr/share/"
# One node's shared memory is all a GPU machine here has: the network transports' plugins (UCX,
# libfabric, InfiniBand verbs, PSM) stay behind, with their libraries.
for f in "$dir"/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/*.so; do
  if ldd "$f" | grep -qE 'lib(ucp|ucs|uct|ucm|fabric|ibverbs|psm|psm2|psm_infinipath|rdmacm|efa|infinipath)\.so'; then rm "$f"; fi
done
# Every library the launcher, libmpi and the plugins kept need, but the C library's own.
for f in /usr/bin/orterun /usr/bin/orted /usr/lib/x86_64-linux-gnu/libmpi.so.40 \
  "$dir"/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/*.so "$pmix"/lib/pmix/*.so; do
  ldd "$f" | awk '/=>/ && $3 != "not" {print $3}'
done | sort -u | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux-x86-64)\.so' | while read -r lib; do
  cp -L "$lib" "$dir/lib/"
done
cat > "$dir/env.sh" <<ENV
here=\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)
export OPAL_PREFIX=\$here/usr PMIX_INSTALL_PREFIX=\$here/pmix2 PATH=\$here/usr/bin:\$PATH
export LD_LIBRARY_PATH=\$here/lib\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_osc=^ucx PMIX_MCA_pcompress_base_silence_warning=1
ENV
du -sh "$dir"
