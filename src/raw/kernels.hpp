#pragma once
// Hand-written GPU SpMV kernels, one source for HIP (AMD wavefronts of 64 lanes) and CUDA (NVIDIA
// warps of 32). Layers as in rocSPARSE: device functions, __global__ kernels, launchers. The wave
// width is a template parameter of every kernel; the only place it is a number is kWaveSize,
// the width of the platform this file is compiled for. No Kokkos here: CI compiles this file
// alone with Debian's hipcc for gfx90a, where no Kokkos HIP exists.

#if defined(__HIPCC__)
#include <hip/hip_runtime.h>
#define KSPMV_RAW_HIP 1
#elif defined(__CUDACC__)
#include <cuda_runtime.h>
#else
#error "src/raw/kernels.hpp must be compiled as HIP or CUDA"
#endif

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kspmv {
namespace impl {
namespace raw {

#if defined(KSPMV_RAW_HIP)
using stream_type = hipStream_t;
constexpr int kWaveSize = 64;  // CDNA GPUs (MI250X, MI300): 64-lane wavefronts
#else
using stream_type = cudaStream_t;
constexpr int kWaveSize = 32;  // NVIDIA warps
#endif

// Threads per block of every raw kernel: 4 waves on AMD, 8 warps on NVIDIA.
constexpr int kBlockSize = 256;

// ---- device functions ------------------------------------------------------------------------

template <int Width, class T>
__device__ __forceinline__ T shfl_down(T value, unsigned delta) {
#if defined(KSPMV_RAW_HIP)
  return __shfl_down(value, delta, Width);
#else
  return __shfl_down_sync(0xffffffffu, value, delta, Width);  // every lane of the warp takes part
#endif
}

// Sum over groups of GroupSize consecutive lanes; lane 0 of each group holds its group's sum.
template <int GroupSize, class T>
__device__ __forceinline__ T group_sum(T value) {
  for (int offset = GroupSize / 2; offset > 0; offset /= 2) value += shfl_down<GroupSize>(value, offset);
  return value;
}

// ---- kernels ---------------------------------------------------------------------------------

// Vector CSR: a group of GroupSize lanes per row (1 <= GroupSize <= WaveSize, a power of two).
// Lanes of rows past the end still run the reduction: the shuffles need the whole wave.
template <int WaveSize, int GroupSize, bool BetaIsZero, class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    csr_vector_kernel(int64_t num_rows, const Off* __restrict__ offsets, const O* __restrict__ cols,
                      const S* __restrict__ vals, const S* __restrict__ x, S* __restrict__ y, S alpha, S beta) {
  static_assert(GroupSize <= WaveSize && WaveSize % GroupSize == 0, "a row group must lie inside one wave");
  const int64_t thread = int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  const int64_t row = thread / GroupSize;
  const int lane = int(threadIdx.x % GroupSize);
  S sum = 0;
  if (row < num_rows) {
    const Off end = offsets[row + 1];
    for (Off k = offsets[row] + lane; k < end; k += GroupSize) sum += vals[k] * x[cols[k]];
  }
  sum = group_sum<GroupSize>(sum);
  if (row < num_rows && lane == 0) y[row] = BetaIsZero ? alpha * sum : beta * y[row] + alpha * sum;
}

// Blocked ELLPACK with slices of one wave: thread = row position, slot k of the slice's rows is
// contiguous, so a wave reads one coalesced segment per slot. Log2Wave is the log2 of the wave
// width, as in the published HIP kernels for MI250X.
template <int Log2Wave, bool BetaIsZero, class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    blocked_ell_kernel(int64_t num_rows, const Off* __restrict__ slice_offsets, const O* __restrict__ cols,
                       const S* __restrict__ vals, const O* __restrict__ permutation, const S* __restrict__ x,
                       S* __restrict__ y, S alpha, S beta) {
  constexpr int64_t wave = int64_t(1) << Log2Wave;
  const int64_t position = int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  if (position >= num_rows) return;
  const int64_t slice = position >> Log2Wave;
  const int64_t begin = int64_t(slice_offsets[slice]);
  const int64_t width = (int64_t(slice_offsets[slice + 1]) - begin) >> Log2Wave;
  S sum = 0;
  for (int64_t k = 0, slot = begin + (position & (wave - 1)); k < width; ++k, slot += wave) {
    sum += vals[slot] * x[cols[slot]];
  }
  const int64_t row = permutation ? int64_t(permutation[position]) : position;
  y[row] = BetaIsZero ? alpha * sum : beta * y[row] + alpha * sum;
}

// ---- launchers -------------------------------------------------------------------------------

inline void check_launch(const char* kernel) {
#if defined(KSPMV_RAW_HIP)
  const hipError_t e = hipGetLastError();
  if (e != hipSuccess) throw std::runtime_error(std::string("kspmv raw ") + kernel + ": " + hipGetErrorString(e));
#else
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw std::runtime_error(std::string("kspmv raw ") + kernel + ": " + cudaGetErrorString(e));
#endif
}

inline unsigned blocks_for(int64_t threads) { return unsigned((threads + kBlockSize - 1) / kBlockSize); }

template <int WaveSize, int GroupSize, class S, class O, class Off>
void launch_csr_vector(stream_type stream, int group_size, int64_t num_rows, const Off* offsets, const O* cols,
                       const S* vals, const S* x, S* y, S alpha, S beta) {
  if constexpr (GroupSize > WaveSize) {
    throw std::invalid_argument("kspmv raw csr_vector: group size " + std::to_string(group_size) +
                                " must be a power of two <= the wave width " + std::to_string(WaveSize));
  } else if (group_size != GroupSize) {
    launch_csr_vector<WaveSize, GroupSize * 2>(stream, group_size, num_rows, offsets, cols, vals, x, y, alpha, beta);
  } else {
    const unsigned blocks = blocks_for(num_rows * GroupSize);
    if (beta == S(0)) {
      csr_vector_kernel<WaveSize, GroupSize, true><<<blocks, kBlockSize, 0, stream>>>(num_rows, offsets, cols, vals, x, y, alpha, beta);
    } else {
      csr_vector_kernel<WaveSize, GroupSize, false><<<blocks, kBlockSize, 0, stream>>>(num_rows, offsets, cols, vals, x, y, alpha, beta);
    }
    check_launch("csr_vector");
  }
}

template <int Log2Wave, class S, class O, class Off>
void launch_blocked_ell(stream_type stream, int slice_height, int64_t num_rows, const Off* slice_offsets,
                        const O* cols, const S* vals, const O* permutation, const S* x, S* y, S alpha, S beta) {
  if (slice_height != (1 << Log2Wave)) {
    throw std::invalid_argument("kspmv raw blocked_ell: slices must be one wave (" + std::to_string(1 << Log2Wave) +
                                " rows), not " + std::to_string(slice_height));
  }
  const unsigned blocks = blocks_for(num_rows);
  if (beta == S(0)) {
    blocked_ell_kernel<Log2Wave, true><<<blocks, kBlockSize, 0, stream>>>(num_rows, slice_offsets, cols, vals, permutation, x, y, alpha, beta);
  } else {
    blocked_ell_kernel<Log2Wave, false><<<blocks, kBlockSize, 0, stream>>>(num_rows, slice_offsets, cols, vals, permutation, x, y, alpha, beta);
  }
  check_launch("blocked_ell");
}

constexpr int log2_of(int v) { return v <= 1 ? 0 : 1 + log2_of(v / 2); }

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
