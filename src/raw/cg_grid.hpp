#pragma once
// kspmv::cg's grid path: the whole solve in one cooperative kernel over as many blocks as the GPU
// keeps resident, its phases separated by grid-wide synchronisation instead of kernel launches
// and host round trips. Per iteration: q = A p with p.q; x, r, z and r.z, r.r; p. Each sum is
// block partials written to global memory, a grid sync, then every block adding the partials in
// the same order: every block holds the same bits and takes the same branch (a block that left
// the loop alone would leave the others waiting at the next sync). Included by raw_spmv.cpp
// after kernels.hpp.

#if defined(KSPMV_RAW_HIP)
#include <hip/hip_cooperative_groups.h>
#else
#include <cooperative_groups.h>
#endif

#include "kspmv/impl/raw_cg.hpp"

#include <algorithm>

namespace kspmv {
namespace impl {
namespace raw {

// ---- device functions ------------------------------------------------------------------------

// Sums of Count values over the block; every thread gets them. `shared` holds Count * waves
// doubles; the call ends with the block synchronised.
template <int WaveSize, int Count>
__device__ __forceinline__ void block_sums(double (&v)[Count], double* shared) {
  const int lane = int(threadIdx.x % WaveSize), wave = int(threadIdx.x / WaveSize);
  constexpr int waves = kBlockSize / WaveSize;
#pragma unroll
  for (int c = 0; c < Count; ++c) v[c] = group_sum<WaveSize>(v[c]);
  __syncthreads();  // earlier readers of `shared` are done
  if (lane == 0) {
#pragma unroll
    for (int c = 0; c < Count; ++c) shared[c * waves + wave] = v[c];
  }
  __syncthreads();
#pragma unroll
  for (int c = 0; c < Count; ++c) {
    double s = 0;
    for (int w = 0; w < waves; ++w) s += shared[c * waves + w];  // the same order in every block
    v[c] = s;
  }
}

// Sums of Count values over the grid, the same bits in every block: block sums, written to
// partials (Count x gridDim.x doubles), a grid sync, then each block adding them in block order.
template <int WaveSize, int Count, class Grid>
__device__ __forceinline__ void grid_sums(const Grid& grid, double (&v)[Count], double* partials, double* shared) {
  block_sums<WaveSize, Count>(v, shared);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int c = 0; c < Count; ++c) partials[c * gridDim.x + blockIdx.x] = v[c];
  }
  grid.sync();
  // Thread t adds blocks t, t + kBlockSize, ... in order; block_sums adds the threads in order.
#pragma unroll
  for (int c = 0; c < Count; ++c) {
    double s = 0;
    for (unsigned blk = threadIdx.x; blk < gridDim.x; blk += kBlockSize) s += partials[c * gridDim.x + blk];
    v[c] = s;
  }
  block_sums<WaveSize, Count>(v, shared);
}

// (A u)_row by the group of group_size lanes of this thread; the group's lane 0 holds it. Every
// lane of the wave must call it (the shuffles).
template <class S, class O, class Off>
__device__ __forceinline__ S group_row_times(int64_t row, int64_t n, int group_lane, int group_size,
                                             const Off* __restrict__ offsets, const O* __restrict__ cols,
                                             const S* __restrict__ vals, const S* u) {
  S sum = 0;
  if (row < n) {
    for (Off k = offsets[row] + group_lane; k < offsets[row + 1]; k += group_size) sum += vals[k] * u[cols[k]];
  }
  return group_sum(sum, group_size);
}

// ---- kernel ----------------------------------------------------------------------------------

template <int WaveSize, class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize) cg_grid_kernel(CgGridArguments<S, O, Off> a) {
  auto grid = cooperative_groups::this_grid();
  __shared__ double shared[3 * (kBlockSize / WaveSize)];
  const int64_t n = a.n;
  const int64_t thread = int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  const int64_t threads = int64_t(gridDim.x) * kBlockSize;
  const int group_size = a.group_size;
  const int group_lane = int(threadIdx.x) % group_size;
  const int64_t first_group = thread / group_size, groups = threads / group_size;
  // Rows are walked in rounds so that every lane of a wave takes part in each round's shuffles.
  const int64_t rounds = (n + groups - 1) / groups;
  double* partials_a = a.partials;
  double* partials_b = a.partials + 3 * int64_t(gridDim.x);

  // r = b - A x, z = M^-1 r, p = z; r.z, r.r, b.b
  for (int64_t round = 0; round < rounds; ++round) {
    const int64_t row = first_group + round * groups;
    const S ax = group_row_times(row, n, group_lane, group_size, a.offsets, a.cols, a.vals, a.x);
    if (row < n && group_lane == 0) {
      const S ri = a.b[row] - ax;
      a.r[row] = ri;
      const S zi = a.inverse ? ri * a.inverse[row] : ri;
      a.z[row] = zi;
      a.p[row] = zi;
    }
  }
  grid.sync();
  double start[3] = {0, 0, 0};
  for (int64_t i = thread; i < n; i += threads) {
    start[0] += double(a.r[i]) * double(a.z[i]);
    start[1] += double(a.r[i]) * double(a.r[i]);
    start[2] += double(a.b[i]) * double(a.b[i]);
  }
  grid_sums<WaveSize, 3>(grid, start, partials_a, shared);
  double rz = start[0], rr = start[1];
  const double bb = start[2];
  if (bb == 0) {  // x = 0 solves A x = 0 exactly
    for (int64_t i = thread; i < n; i += threads) a.x[i] = S(0);
    if (thread == 0) {
      a.record[0] = 0;
      a.record[1] = cg_grid_converged;
      a.record[2] = a.record[3] = a.record[4] = 0;
    }
    return;
  }
  if (thread == 0) a.record[4] = rr;
  const double converged_rr = a.tolerance_squared * bb;
  int code = rr <= converged_rr ? cg_grid_converged : !(rz > 0) ? cg_grid_lost_positivity : cg_grid_running;
  int64_t k = 0;
  while (code == cg_grid_running && k < a.max_iterations) {
    // q = A p, p.q
    double pq[1] = {0};
    for (int64_t round = 0; round < rounds; ++round) {
      const int64_t row = first_group + round * groups;
      const S qi = group_row_times(row, n, group_lane, group_size, a.offsets, a.cols, a.vals, a.p);
      if (row < n && group_lane == 0) {
        a.q[row] = qi;
        pq[0] += double(a.p[row]) * double(qi);
      }
    }
    grid_sums<WaveSize, 1>(grid, pq, partials_b, shared);
    if (!(pq[0] > 0)) {
      code = cg_grid_indefinite;
      break;
    }
    ++k;
    // x += alpha p, r -= alpha q, z = M^-1 r; r.z, r.r
    const S alpha = S(rz / pq[0]);
    double sums[2] = {0, 0};
    for (int64_t i = thread; i < n; i += threads) {
      a.x[i] += alpha * a.p[i];
      const S ri = a.r[i] - alpha * a.q[i];
      a.r[i] = ri;
      const S zi = a.inverse ? ri * a.inverse[i] : ri;
      a.z[i] = zi;
      sums[0] += double(ri) * double(zi);
      sums[1] += double(ri) * double(ri);
    }
    grid_sums<WaveSize, 2>(grid, sums, partials_a, shared);
    rr = sums[1];
    if (thread == 0) a.record[4 + k] = rr;
    if (rr <= converged_rr) {
      code = cg_grid_converged;
    } else if (!(sums[0] > 0)) {
      code = cg_grid_lost_positivity;
    } else {
      const S beta = S(sums[0] / rz);
      rz = sums[0];
      for (int64_t i = thread; i < n; i += threads) a.p[i] = a.z[i] + beta * a.p[i];
      grid.sync();  // p complete before the next product reads it
    }
  }
  // The true residual of the x returned, q as scratch.
  grid.sync();
  for (int64_t round = 0; round < rounds; ++round) {
    const int64_t row = first_group + round * groups;
    const S ax = group_row_times(row, n, group_lane, group_size, a.offsets, a.cols, a.vals, a.x);
    if (row < n && group_lane == 0) a.q[row] = a.b[row] - ax;
  }
  grid.sync();
  double true_rr[1] = {0};
  for (int64_t i = thread; i < n; i += threads) true_rr[0] += double(a.q[i]) * double(a.q[i]);
  grid_sums<WaveSize, 1>(grid, true_rr, partials_b, shared);
  if (thread == 0) {
    a.record[0] = double(k);
    a.record[1] = code;
    a.record[2] = bb;
    a.record[3] = true_rr[0];
  }
}

// ---- launcher --------------------------------------------------------------------------------

// Blocks the cooperative launch may use: every one resident at once (as many as fit on each
// multiprocessor), and no more than the rows' groups need; 0 if the GPU cannot launch
// cooperatively.
template <int WaveSize, class S, class O, class Off>
int64_t cg_grid_blocks_for(int64_t n, int group_size) {
  int device = 0, multiprocessors = 0, cooperative = 0, per_multiprocessor = 0;
#if defined(KSPMV_RAW_HIP)
  if (hipGetDevice(&device) != hipSuccess ||
      hipDeviceGetAttribute(&cooperative, hipDeviceAttributeCooperativeLaunch, device) != hipSuccess ||
      hipDeviceGetAttribute(&multiprocessors, hipDeviceAttributeMultiprocessorCount, device) != hipSuccess ||
      hipOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, cg_grid_kernel<WaveSize, S, O, Off>,
                                                   kBlockSize, 0) != hipSuccess) {
    return 0;
  }
#else
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_multiprocessor, cg_grid_kernel<WaveSize, S, O, Off>,
                                                    kBlockSize, 0) != cudaSuccess) {
    return 0;
  }
#endif
  if (!cooperative) return 0;
  const int64_t resident = int64_t(multiprocessors) * per_multiprocessor;
  const int64_t needed = std::max<int64_t>(1, (n * group_size + kBlockSize - 1) / kBlockSize);
  return std::min(resident, needed);
}

template <int WaveSize, class S, class O, class Off>
void launch_cg_grid(stream_type stream, int64_t blocks, CgGridArguments<S, O, Off> a) {
  void* arguments[] = {&a};
#if defined(KSPMV_RAW_HIP)
  const hipError_t e = hipLaunchCooperativeKernel(reinterpret_cast<const void*>(cg_grid_kernel<WaveSize, S, O, Off>),
                                                  dim3(unsigned(blocks)), dim3(kBlockSize), arguments, 0, stream);
  if (e != hipSuccess) throw std::runtime_error(std::string("kspmv raw cg_grid: ") + hipGetErrorString(e));
#else
  const cudaError_t e = cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(cg_grid_kernel<WaveSize, S, O, Off>),
                                                    dim3(unsigned(blocks)), dim3(kBlockSize), arguments, 0, stream);
  if (e != cudaSuccess) throw std::runtime_error(std::string("kspmv raw cg_grid: ") + cudaGetErrorString(e));
#endif
}

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
