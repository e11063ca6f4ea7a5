#!/bin/sh
# Build the fuzz targets (docs/building.md, "Fuzzing"): clang's libFuzzer with
# AddressSanitizer and UndefinedBehaviorSanitizer, the library's sources compiled by clang
# through the MPI wrapper.  Not part of the normal build.  Needs clang and its runtime
# (Debian: clang libclang-rt-14-dev).
#   tests/fuzz/build.sh [OUT]      the targets in OUT (default: build-fuzz/ at the top)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/build-fuzz}
mkdir -p "$out/obj"
command -v clang > /dev/null || { echo "build.sh: clang is missing (Debian: clang libclang-rt-14-dev)" >&2; exit 1; }
export OMPI_CC=clang
nc_cflags=$(pkg-config --cflags netcdf-mpi 2>/dev/null || pkg-config --cflags netcdf)
nc_libs=$(pkg-config --libs netcdf-mpi 2>/dev/null || pkg-config --libs netcdf)
defines="-D_DEFAULT_SOURCE"
mpi_inc=$(pkg-config --variable=libdir netcdf-mpi 2>/dev/null)/netcdf/mpi/include
if [ -f "$mpi_inc/netcdf_par.h" ]; then
  nc_cflags="-I$mpi_inc $nc_cflags"
  defines="$defines -DHAVE_NETCDF_PAR=1"
fi
cflags="-std=c11 -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined
  -fno-sanitize-recover=undefined -Wno-unknown-pragmas -I$top $defines $nc_cflags
  $(pkg-config --cflags fftw3 inih)"
libs="$nc_libs $(pkg-config --libs fftw3 inih) -lm"
objects=""
for src in "$top"/base/*.c "$top"/stencils/*.c "$top"/decomp/*.c "$top"/io/*.c "$top"/src/*.c \
           "$top"/verify/poisson_fft.c "$top"/verify/poisson_cuda.c; do
  case $src in */src/run/main.c) continue ;; esac
  obj=$out/obj/$(basename "$(dirname "$src")")_$(basename "$src" .c).o
  # shellcheck disable=SC2086
  mpicc $cflags -DPACKAGE_VERSION='"fuzz"' -fsanitize=fuzzer-no-link -c "$src" -o "$obj"
  objects="$objects $obj"
done
for target in config restart voxels; do
  # shellcheck disable=SC2086
  mpicc $cflags -fsanitize=fuzzer "$top/tests/fuzz/fuzz_$target.c" $objects $libs \
    -o "$out/fuzz_$target"
  echo "built $out/fuzz_$target"
done
