#pragma once
// kspmv::cg's separate path on a GPU: the three vector steps of an iteration around the plan's
// SpMV (impl/cg_separate.hpp has the same steps as Kokkos functors, for every backend). Kokkos'
// reductions ran these at 55-70% of the copy bandwidth on an H100 (the update of 2.4M entries,
// six vector passes: 67 us, where this kernel takes 45 us) and took 7-8 us on a cache-resident
// system where these take 4.5: a Kokkos range reduction gives each thread a run of entries that
// it loads one at a time, after the stores of the previous one. Here each thread issues the
// loads of all its kCgStepItems entries before any store, and the block sums go to partials,
// the last block to finish adding them in block order (the same bits in every run).
// Included by raw_spmv.cpp after kernels.hpp and cg_grid.hpp (block_sums).

#include "kspmv/impl/raw_cg.hpp"

namespace kspmv {
namespace impl {
namespace raw {

// ---- device functions ------------------------------------------------------------------------

constexpr int kCgStepItems = 4;  // entries a thread, kBlockSize apart
constexpr int64_t kCgStepBlockEntries = int64_t(kBlockSize) * kCgStepItems;

// The block's Count sums into partials (Count x gridDim.x doubles); the last block to arrive adds
// all blocks' in block order into out[0 .. Count) and resets the counter for the next step.
// Every thread of the block calls it.
template <int WaveSize, int Count>
__device__ __forceinline__ void step_sums(double (&v)[Count], double* partials, unsigned* counter, double* out,
                                          double* shared) {
  __shared__ bool last;
  block_sums<WaveSize, Count>(v, shared);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int c = 0; c < Count; ++c) partials[c * gridDim.x + blockIdx.x] = v[c];
    __threadfence();  // the partials are visible before this block counts itself
    last = atomicAdd(counter, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  const volatile double* all = partials;  // other blocks' writes, not this SM's cached copies
#pragma unroll
  for (int c = 0; c < Count; ++c) {
    double s = 0;
    for (unsigned blk = threadIdx.x; blk < gridDim.x; blk += kBlockSize) s += all[c * gridDim.x + blk];
    v[c] = s;
  }
  block_sums<WaveSize, Count>(v, shared);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int c = 0; c < Count; ++c) out[c] = v[c];
    *counter = 0;
  }
}

// impl::CgDirection's decision: the same from the same scalars in every thread.
template <class S>
__device__ __forceinline__ int step_decision(const CgStepArguments<S>& a) {
  const int before = a.halt[a.previous];
  if (before != cg_grid_running) return before;
  if (!(a.pq[a.slot] > 0)) return cg_grid_indefinite;
  if (a.sums[3 * a.slot + 1] <= a.converged_rr) return a.verified ? cg_grid_converged : cg_grid_unverified;
  if (!(a.sums[3 * a.slot] > 0)) return cg_grid_lost_positivity;
  return cg_grid_running;
}

// ---- kernels ---------------------------------------------------------------------------------

template <int WaveSize, class S>
__global__ void __launch_bounds__(kBlockSize) cg_curvature_kernel(CgStepArguments<S> a) {
  __shared__ double shared[kBlockSize / WaveSize];
  if (a.halt[a.previous] != cg_grid_running) return;  // every block alike: none counts itself
  const int64_t first = int64_t(blockIdx.x) * kCgStepBlockEntries + threadIdx.x;
  const S* __restrict__ p = a.p;
  const S* __restrict__ q = a.q;
  S pv[kCgStepItems], qv[kCgStepItems];
#pragma unroll
  for (int j = 0; j < kCgStepItems; ++j) {
    const int64_t i = first + j * kBlockSize;
    pv[j] = i < a.n ? p[i] : S(0);
    qv[j] = i < a.n ? q[i] : S(0);
  }
  double sum[1] = {0};
#pragma unroll
  for (int j = 0; j < kCgStepItems; ++j) sum[0] += double(pv[j]) * double(qv[j]);
  step_sums<WaveSize, 1>(sum, a.partials, a.counter, a.pq + a.slot, shared);
}

template <int WaveSize, class S>
__global__ void __launch_bounds__(kBlockSize) cg_update_kernel(CgStepArguments<S> a) {
  __shared__ double shared[2 * (kBlockSize / WaveSize)];
  if (a.halt[a.previous] != cg_grid_running || !(a.pq[a.slot] > 0)) return;  // every block alike
  const S alpha = S(a.sums[3 * a.previous] / a.pq[a.slot]);
  const int64_t first = int64_t(blockIdx.x) * kCgStepBlockEntries + threadIdx.x;
  const S* __restrict__ p = a.p;
  const S* __restrict__ q = a.q;
  const S* __restrict__ inverse = a.inverse;
  S* __restrict__ x = a.x;
  S* __restrict__ r = a.r;
  S* __restrict__ z = a.z;
  S pv[kCgStepItems], qv[kCgStepItems], xv[kCgStepItems], rv[kCgStepItems], dv[kCgStepItems];
#pragma unroll
  for (int j = 0; j < kCgStepItems; ++j) {
    const int64_t i = first + j * kBlockSize;
    if (i < a.n) {
      pv[j] = p[i];
      qv[j] = q[i];
      xv[j] = x[i];
      rv[j] = r[i];
      if (inverse) dv[j] = inverse[i];
    }
  }
  double sums[2] = {0, 0};
#pragma unroll
  for (int j = 0; j < kCgStepItems; ++j) {
    const int64_t i = first + j * kBlockSize;
    if (i < a.n) {
      x[i] = xv[j] + alpha * pv[j];
      const S ri = rv[j] - alpha * qv[j];
      r[i] = ri;
      const S zi = inverse ? ri * dv[j] : ri;
      if (z) z[i] = zi;
      sums[0] += double(ri) * double(zi);
      sums[1] += double(ri) * double(ri);
    }
  }
  step_sums<WaveSize, 2>(sums, a.partials, a.counter, a.sums + 3 * a.slot, shared);
}

template <int WaveSize, class S>
__global__ void __launch_bounds__(kBlockSize) cg_direction_kernel(CgStepArguments<S> a) {
  const int code = step_decision(a);
  if (blockIdx.x == 0 && threadIdx.x == 0) a.halt[a.slot] = code;
  if (code != cg_grid_running) return;
  const S beta = S(a.sums[3 * a.slot] / a.sums[3 * a.previous]);
  const int64_t first = int64_t(blockIdx.x) * kCgStepBlockEntries + threadIdx.x;
  const S* __restrict__ z = a.z ? a.z : a.r;
  S* __restrict__ p = a.p;
  S zv[kCgStepItems], pv[kCgStepItems];
#pragma unroll
  for (int j = 0; j < kCgStepItems; ++j) {
    const int64_t i = first + j * kBlockSize;
    if (i < a.n) {
      zv[j] = z[i];
      pv[j] = p[i];
    }
  }
#pragma unroll
  for (int j = 0; j < kCgStepItems; ++j) {
    const int64_t i = first + j * kBlockSize;
    if (i < a.n) p[i] = zv[j] + beta * pv[j];
  }
}

// ---- launchers -------------------------------------------------------------------------------

inline int64_t cg_step_blocks_for(int64_t n) { return (n + kCgStepBlockEntries - 1) / kCgStepBlockEntries; }

// One of the kernels above (the same arguments, as many blocks) on stream.
template <class S>
void launch_cg_step(stream_type stream, void (*kernel)(CgStepArguments<S>), const char* name,
                    const CgStepArguments<S>& a) {
  const int64_t blocks = cg_step_blocks_for(a.n);
  if (blocks == 0) return;
  kernel<<<unsigned(blocks), kBlockSize, 0, stream>>>(a);
  check_launch(name);
}

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
