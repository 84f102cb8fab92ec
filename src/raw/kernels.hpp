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

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

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

// A load of the matrix stream (values, column indices, offsets), read once per SpMV: marked to
// be evicted first, so the cache keeps the entries of x that other rows gather again.
template <class T>
__device__ __forceinline__ T stream_load(const T* p) {
#if defined(KSPMV_RAW_HIP)
  return __builtin_nontemporal_load(p);
#else
  return __ldcs(p);
#endif
}

// A gather of x by the load-balanced kernel's stage, marked to stay in L1 ahead of other lines
// (the stream's loads are marked evict-first: stream_load), so that more of the rows' later
// gathers of the same lines hit L1 rather than L2. On the H200 (sm_90; the hint needs sm_70)
// the kernel took 0.997x the time without it over the 53 replicated real matrices and 0.995x
// over the 17 of perf_tests/matrices_fourth, 0.98x where the gathers scatter (ca-HepTh,
// dano3mip), 1.005x at worst (perf_tests/results/h200_balanced_evict_last). HIP: a plain load.
template <class T>
__device__ __forceinline__ T gather_load(const T* p) {
#if !defined(KSPMV_RAW_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  static_assert(sizeof(T) == 8 || sizeof(T) == 4, "x of double or float");
  T v;
  if constexpr (sizeof(T) == 8) {
    asm("ld.global.L1::evict_last.f64 %0, [%1];" : "=d"(v) : "l"(p));
  } else {
    asm("ld.global.L1::evict_last.f32 %0, [%1];" : "=f"(v) : "l"(p));
  }
  return v;
#else
  return *p;
#endif
}

// The lanes of the wave for which `predicate` holds, as bits (64 on AMD, 32 on NVIDIA).
__device__ __forceinline__ unsigned long long ballot(bool predicate) {
#if defined(KSPMV_RAW_HIP)
  return __ballot(predicate);
#else
  return __ballot_sync(0xffffffffu, predicate);
#endif
}

// The lowest lane set in a ballot's bits.
__device__ __forceinline__ int lowest_lane(unsigned long long bits) { return __ffsll((long long)bits) - 1; }

// The highest lane set in a ballot's bits (bits != 0).
__device__ __forceinline__ int highest_lane(unsigned long long bits) { return 63 - __clzll((long long)bits); }

// `value` as lane `source` holds it; every lane of the wave must call it.
template <class T>
__device__ __forceinline__ T shfl(T value, int source) {
#if defined(KSPMV_RAW_HIP)
  return __shfl(value, source);
#else
  return __shfl_sync(0xffffffffu, value, source);
#endif
}

// Orders the shared-memory accesses of one wave (its lanes before the call, then after).
__device__ __forceinline__ void wave_sync() {
#if defined(KSPMV_RAW_HIP)
  __builtin_amdgcn_wave_barrier();  // a wavefront's lanes run in lockstep: order the compiler's accesses
#else
  __syncwarp();
#endif
}

// Programmatic dependent launch (NVIDIA sm_90 and later): a kernel launched with
// launch_dependent (below) may start while the kernel before it in the stream still runs, once
// every block of that kernel has called allow_dependent_launch; wait_for_prior_grid then waits
// until that kernel has finished and its writes are visible. Elsewhere both are no-ops and the
// launch is an ordinary one.
__device__ __forceinline__ void allow_dependent_launch() {
#if !defined(KSPMV_RAW_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
__device__ __forceinline__ void wait_for_prior_grid() {
#if !defined(KSPMV_RAW_HIP) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Sum over groups of GroupSize consecutive lanes; lane 0 of each group holds its group's sum.
template <int GroupSize, class T>
__device__ __forceinline__ T group_sum(T value) {
  for (int offset = GroupSize / 2; offset > 0; offset /= 2) value += shfl_down<GroupSize>(value, offset);
  return value;
}

// The same with a group size known only at run time (a power of two <= the wave width); every
// lane of the wave must call it.
template <class T>
__device__ __forceinline__ T group_sum(T value, int group_size) {
  for (int offset = group_size / 2; offset > 0; offset /= 2) {
#if defined(KSPMV_RAW_HIP)
    value += __shfl_down(value, unsigned(offset), group_size);
#else
    value += __shfl_down_sync(0xffffffffu, value, unsigned(offset), group_size);
#endif
  }
  return value;
}

// ---- kernels ---------------------------------------------------------------------------------

constexpr int kVectorUnroll = 4;

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
    Off k = offsets[row] + lane;
    // kVectorUnroll entries a lane per step, all loads issued before the first use: 5-6% faster
    // than one at a time on the large matrices with 13-42 entries a row (H200).
    for (; k + (kVectorUnroll - 1) * GroupSize < end; k += kVectorUnroll * GroupSize) {
      O c[kVectorUnroll];
      S v[kVectorUnroll];
#pragma unroll
      for (int j = 0; j < kVectorUnroll; ++j) {
        c[j] = stream_load(cols + k + j * GroupSize);
        v[j] = stream_load(vals + k + j * GroupSize);
      }
#pragma unroll
      for (int j = 0; j < kVectorUnroll; ++j) sum += v[j] * x[c[j]];
    }
    for (; k < end; k += GroupSize) sum += stream_load(vals + k) * x[stream_load(cols + k)];
  }
  sum = group_sum<GroupSize>(sum);
  if (row < num_rows && lane == 0) y[row] = BetaIsZero ? alpha * sum : beta * y[row] + alpha * sum;
}

// Several vectors at once (rank-2 x and y of num_vectors columns, any strides): vector CSR's
// groups of 1 << group_shift lanes a row, each lane keeping the sums of Columns vectors, so one
// pass over a row's entries serves Columns vectors; the row is walked again for each further
// Columns vectors, from the caches (its entries are plain loads, not marked evict-first, for
// that). Every lane of a wave runs the same passes: the group sums shuffle across the wave.
// Passes: kOnePass where num_vectors == Columns, kWholePasses where Columns divides it, else
// kAnyPasses (a pass's vectors past its count gather its last one again and write nothing). The
// first two know their counts at compile time: 40 and 48 registers a thread in double against
// 60-64 (CUDA 13, sm_90), so 6 and 5 blocks of 256 threads a multiprocessor against 4, and these
// gathers wait on memory: at 8 vectors in LayoutLeft the general form took 1.4-1.7x the time of
// a lab copy of the one-pass form (38 registers) on bcsstk13, poly_chain, cage10, Groebner
// replicated (H200, perf_tests/results/h200_vectors_row_lanes/lab/). But where gathers scatter
// (gathers_scatter) the general form stays: with 6-8 blocks the L1 lost x's lines between a
// lane's gathers of one row of a row-major X (uniform random at 4 vectors in LayoutRight 1.5x
// slower in the suite, 1.4x in the lab).
enum MultivectorPasses { kOnePass, kWholePasses, kAnyPasses };
template <int Value>
using constant = std::integral_constant<int, Value>;
// pick(constant<Passes>) for num_vectors at PerPass vectors a pass (kAnyPasses where general).
template <int PerPass, class Pick>
auto pick_passes(int64_t num_vectors, bool general, Pick&& pick) {
  return general || num_vectors % PerPass != 0 ? pick(constant<kAnyPasses>())
         : num_vectors == PerPass              ? pick(constant<kOnePass>())
                                               : pick(constant<kWholePasses>());
}
template <int WaveSize, int Columns, bool BetaIsZero, int Passes, class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    csr_multivector_kernel(int64_t num_rows, int group_shift, int64_t num_vectors, const Off* __restrict__ offsets,
                           const O* __restrict__ cols, const S* __restrict__ vals, const S* __restrict__ x,
                           int64_t x_row_stride, int64_t x_vector_stride, S* __restrict__ y, int64_t y_row_stride,
                           int64_t y_vector_stride, S alpha, S beta) {
  const int group = 1 << group_shift;
  const int64_t row = (int64_t(blockIdx.x) * kBlockSize + threadIdx.x) >> group_shift;
  const int lane = int(threadIdx.x) & (group - 1);
  const bool active = row < num_rows;
  const Off begin = active ? offsets[row] : Off(0), end = active ? offsets[row + 1] : Off(0);
  const int64_t vectors = Passes == kOnePass ? int64_t(Columns) : num_vectors;
  for (int64_t first = 0; first < vectors; first += Columns) {
    const int count =
        Passes != kAnyPasses ? Columns : (num_vectors - first < Columns ? int(num_vectors - first) : Columns);
    const S* x_first = x + first * x_vector_stride;
    S sum[Columns];
#pragma unroll
    for (int j = 0; j < Columns; ++j) sum[j] = 0;
    for (Off k = begin + lane; k < end; k += group) {
      const S v = vals[k];
      const S* x_entry = x_first + int64_t(cols[k]) * x_row_stride;
#pragma unroll
      for (int j = 0; j < Columns; ++j) sum[j] += v * x_entry[(j < count ? j : count - 1) * x_vector_stride];
    }
#pragma unroll
    for (int j = 0; j < Columns; ++j) sum[j] = group_sum(sum[j], group);
    if (active && lane == 0) {
      S* y_first = y + row * y_row_stride + first * y_vector_stride;
#pragma unroll
      for (int j = 0; j < Columns; ++j) {
        if (j < count) {
          S* out = y_first + j * y_vector_stride;
          *out = BetaIsZero ? alpha * sum[j] : beta * *out + alpha * sum[j];
        }
      }
    }
  }
}

// Count consecutive values at p (aligned to 16 bytes) into out, in 16-byte loads: a gather of a
// row of X at a time (LayoutRight, or a row-major copy) where one load a value issued Count
// requests of the wave's scattered lines. In the split entries on the H200 at 4 and 8 vectors
// (perf_tests/results/h200_entries_pieces/): 0.975-0.98x the time on heavy_rows but at 8 in
// LayoutLeft (1.00x), 0.99-1.00x on power_law.
// (PieceBytes: pieces of another size, p aligned to them.)
template <int Count, int PieceBytes = 16, class T>
__device__ __forceinline__ void load_pieces(const T* __restrict__ p, T (&out)[Count]) {
  constexpr int PerPiece = PieceBytes / int(sizeof(T));
  static_assert(PieceBytes % sizeof(T) == 0 && Count % PerPiece == 0, "whole values a piece, whole pieces");
  struct alignas(PieceBytes) Piece {
    T v[PerPiece];
  };
#pragma unroll
  for (int i = 0; i < Count / PerPiece; ++i) {
    const Piece piece = reinterpret_cast<const Piece*>(p)[i];
#pragma unroll
    for (int j = 0; j < PerPiece; ++j) out[i * PerPiece + j] = piece.v[j];
  }
}

// Several vectors over entries split evenly (rows of uneven length, where a group of lanes a row
// would leave the longest rows to a few lanes): wave w takes the entries_per_lane * WaveSize
// consecutive entries from w * entries_per_lane * WaveSize on and walks them a wave-wide step
// at a time, lane l on entry step + l, so the loads of values and column indices are coalesced
// (a thread walking its own 32 entries, this kernel's first form, touched a line per lane and
// load: 2-5% of copy bandwidth on the H200). Each lane finds its entry's row among the ends of
// the next WaveSize rows, loaded by the wave and searched with shuffles. A step inside one row
// adds each lane's products to the lane's own partial sums of that row (no shuffles: the long
// rows); a step crossing rows sums its products by row with a segmented scan across the wave,
// the row reaching the step's end carried on. A row's sum is added into y, which the caller has
// scaled by beta: a plain add for a row that begins and ends inside the wave's entries (no other
// wave touches it), an atomic add for the wave's first row and the row it carries past its last
// entry, whose last bits may then change from run to run.
// At least kEntriesMinBlocks blocks of kBlockSize threads resident a multiprocessor (64 registers
// a thread): with 8 vectors a pass in double with 32-bit indices the compiler took 78 registers,
// 3 blocks fitted, and a quarter fewer waves had their gathers of a scattered X (each a trip to
// DRAM) in flight. On the H200 beside the kernel before (perf_tests/results/h200_entries_occupancy/)
// at 8 vectors: 0.901x the time on heavy_rows in LayoutLeft, 0.929x in LayoutRight, 0.919x on
// power_law in LayoutLeft, 0.99-1.01x elsewhere (4 vectors a pass took 55 registers before); 12-20
// bytes a thread spilled. HIP's second bound means something else (KSPMV_RAW_BALANCED_BOUNDS):
// not given there.
constexpr int kEntriesMinBlocks = 4;
#if defined(KSPMV_RAW_HIP)
#define KSPMV_RAW_ENTRIES_BOUNDS __launch_bounds__(kBlockSize)
#else
#define KSPMV_RAW_ENTRIES_BOUNDS __launch_bounds__(kBlockSize, kEntriesMinBlocks)
#endif
template <int WaveSize, int Columns, class S, class O, class Off>
__global__ void KSPMV_RAW_ENTRIES_BOUNDS
    csr_multivector_entries_kernel(int64_t num_rows, int64_t nnz, int entries_per_lane, int64_t num_vectors,
                                   const Off* __restrict__ offsets, const O* __restrict__ cols,
                                   const S* __restrict__ vals, const S* __restrict__ x, int64_t x_row_stride,
                                   int64_t x_vector_stride, S* __restrict__ y, int64_t y_row_stride,
                                   int64_t y_vector_stride, S alpha, bool x_pieces) {
  const int lane = int(threadIdx.x) % WaveSize;
  const int64_t per_wave = int64_t(WaveSize) * entries_per_lane;
  const int64_t k0 = (int64_t(blockIdx.x) * kBlockSize + threadIdx.x) / WaveSize * per_wave;
  if (k0 >= nnz) return;  // the whole wave
  const int64_t k1 = k0 + per_wave < nnz ? k0 + per_wave : nnz;
  // The row holding k0 (the last row starting at or before it): each round the wave probes
  // WaveSize evenly spaced rows of [lo, hi) and keeps the span from the last one starting at or
  // before k0, so a few dependent loads find it among billions of rows.
  int64_t lo = 0, hi = num_rows;
  while (hi - lo > 1) {
    const int64_t spacing = (hi - lo + WaveSize - 1) / WaveSize;
    const int64_t probe = lo + lane * spacing;
    const int last = highest_lane(ballot(probe < hi && int64_t(offsets[probe]) <= k0));  // lane 0's probe is lo
    hi = lo + (last + 1) * spacing < hi ? lo + (last + 1) * spacing : hi;
    lo += last * spacing;
  }
  const int64_t first_row = lo;
  for (int64_t first = 0; first < num_vectors; first += Columns) {
    const int count = num_vectors - first < Columns ? int(num_vectors - first) : Columns;
    const S* x_first = x + first * x_vector_stride;
    S* y_first = y + first * y_vector_stride;
    const auto add = [&](int64_t row, const S* sum, bool shared) {
      S* out = y_first + row * y_row_stride;
#pragma unroll
      for (int j = 0; j < Columns; ++j) {
        if (j < count) {
          if (shared) {
            atomicAdd(out + j * y_vector_stride, alpha * sum[j]);
          } else {
            out[j * y_vector_stride] += alpha * sum[j];
          }
        }
      }
    };
    // The carried row (the row of the last step's last entry) and each lane's part of its sum.
    int64_t carry_row = first_row;
    S carry[Columns];
#pragma unroll
    for (int j = 0; j < Columns; ++j) carry[j] = 0;
    // Whether the carried sum lies in several lanes (a step inside the row added to every lane's
    // part) or in the last lane alone (a step crossing rows left it there): then one shuffle moves
    // it to lane 0 where a wave's sum took log2(WaveSize) of them. On the H200 at 4 and 8 vectors
    // (perf_tests/results/h200_entries_pieces/call5/): 0.974-0.998x the time on heavy_rows and
    // power_law.
    bool carry_spread = false;
    const auto gather_carry = [&]() {
      if (carry_spread) {
#pragma unroll
        for (int j = 0; j < Columns; ++j) carry[j] = group_sum<WaveSize>(carry[j]);
      } else {
#pragma unroll
        for (int j = 0; j < Columns; ++j) carry[j] = shfl(carry[j], WaveSize - 1);
      }
    };
    for (int64_t step = k0; step < k1; step += WaveSize) {
      const int64_t step_last = step + WaveSize <= k1 ? step + WaveSize - 1 : k1 - 1;
      const bool active = step + lane < k1;
      const int64_t k = active ? step + lane : step_last;  // lanes past the end join the last row
      // The lane's row: lane m loads the end of row base + m; the number of those ends at or
      // before k (a binary search over the lanes) places k's row. Short or empty rows ending
      // before the step's last entry beyond the window take further windows.
      int64_t my_row = -1;
      bool whole = false;  // the step lies inside the carried row
      for (int64_t base = carry_row;; base += WaveSize) {
        const int64_t end = base + 1 + lane <= num_rows ? int64_t(offsets[base + 1 + lane]) : nnz;
        if (shfl(end, 0) > step_last) {  // every lane still without a row is in row base
          whole = base == carry_row;
          if (my_row < 0) my_row = base;
          break;
        }
        int before = 0;
#pragma unroll
        for (int half = WaveSize / 2; half > 0; half /= 2) {
          if (shfl(end, before + half - 1) <= k) before += half;
        }
        const int64_t last_end = shfl(end, WaveSize - 1);
        if (before == WaveSize - 1 && last_end <= k) before = WaveSize;
        if (my_row < 0 && before < WaveSize) my_row = base + before;
        if (last_end > step_last) break;
      }
      S sum[Columns];
      if (active) {
        const S v = vals[k];
        const S* x_entry = x_first + int64_t(cols[k]) * x_row_stride;
        if (x_pieces && count == Columns) {  // the row's Columns values in 16-byte pieces
          load_pieces<Columns>(x_entry, sum);
#pragma unroll
          for (int j = 0; j < Columns; ++j) sum[j] *= v;
        } else {
#pragma unroll
          for (int j = 0; j < Columns; ++j) sum[j] = v * x_entry[(j < count ? j : count - 1) * x_vector_stride];
#pragma unroll
          for (int j = 0; j < Columns; ++j) sum[j] = j < count ? sum[j] : S(0);  // gathers unguarded, as above
        }
      } else {
#pragma unroll
        for (int j = 0; j < Columns; ++j) sum[j] = 0;
      }
      if (whole) {
#pragma unroll
        for (int j = 0; j < Columns; ++j) carry[j] += sum[j];
        carry_spread = true;
        continue;
      }
      // Lanes starting a row (bit l: lane l's row is not lane l - 1's).
      const int64_t previous_row = shfl(my_row, lane > 0 ? lane - 1 : 0);
      const unsigned long long heads = ballot(lane == 0 || previous_row != my_row);
      // The carried row's sum, over the lanes, joins lane 0's if the row goes on; else the row
      // ended with the last step (inside the wave's entries unless it is the first row).
      gather_carry();
      if (lane == 0) {
        if (my_row == carry_row) {
#pragma unroll
          for (int j = 0; j < Columns; ++j) sum[j] += carry[j];
        } else {
          add(carry_row, carry, carry_row == first_row);
        }
      }
      // Inclusive scan inside each row's lanes: lanes lane - distance and lane hold the same row
      // when no row starts in (lane - distance, lane].
#pragma unroll
      for (int distance = 1; distance < WaveSize; distance *= 2) {
        const int source = lane >= distance ? lane - distance : lane;
        const unsigned long long between = (heads >> (source + 1)) & ((1ull << distance) - 1);
        const bool same = lane >= distance && between == 0;
#pragma unroll
        for (int j = 0; j < Columns; ++j) {
          const S other = shfl(sum[j], source);
          if (same) sum[j] += other;
        }
      }
      // A row ending inside the step is added by its last lane; the last lane's row is carried.
      if (lane + 1 < WaveSize && ((heads >> (lane + 1)) & 1ull) != 0) add(my_row, sum, my_row == first_row);
#pragma unroll
      for (int j = 0; j < Columns; ++j) carry[j] = lane == WaveSize - 1 ? sum[j] : S(0);
      carry_spread = false;
      carry_row = shfl(my_row, WaveSize - 1);
    }
    gather_carry();
    if (lane == 0) add(carry_row, carry, true);
  }
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

// Load-balanced CSR (the partition of BalancedCsrMatrix): block b stages the products of its
// entries [k0, k1) in shared memory with loads that are coalesced whatever the row lengths, then
// sums the rows it owns (those starting in [k0, k1)) from there. Row segments get a group of
// lanes sized from the block's average; segments longer than kLongSegmentSteps steps of that
// group, and the head (entries of a row started in an earlier block), get a whole wave each.
// A row that spans blocks is finished without atomics on y: every block it covers writes its
// partial (the owner's to tail_sum, the others' to head_sum); then either (SinglePass) each
// counts itself in arrivals[owner] and the last to arrive adds the partials in block order, so
// the result is the same bits whichever block that is, and resets the counter for the next call;
// or csr_balanced_carry_kernel adds them after the launch.
// 2048 entries a block, 8 a thread: blocks of 1024 entries (4 a thread) and of 4096 (16 a thread,
// 61 registers, half the blocks resident), tried on the H200, were 8-28% and 3-22% slower on the
// large regular matrices and within 2% on the random ones. BlockSize 512 (4 entries a thread)
// stages the same 2048 entries with half the blocks resident, which leaves the SM twice the L1
// for x: on the H200 2-3% faster where the gathers of x miss the caches (random columns over an
// x larger than L2: uniform random, power law, heavy rows) and 7-25% slower everywhere else.
constexpr int64_t kBalancedMaxEntries = 2048;
// A segment goes to a wave when its group would need more than 32 steps. At 8 steps (and at
// least 32 entries), the H200 spent most of bcsstk13 x1000's time in the waves (rows of ~42
// entries, groups of 4): 32 steps made it 11-13% faster and Groebner x500 3% faster, neutral on
// the other large matrices; 12-16 steps were in between, 48-64 gained nothing more.
constexpr int kLongSegmentSteps = 32;
constexpr int kLongListCapacity = int(kBalancedMaxEntries / kLongSegmentSteps) + 2;  // segments > 32 entries

template <class S>
__device__ __forceinline__ S finish(S sum, S alpha, S beta, const S* y_row, bool beta_is_zero) {
  return beta_is_zero ? alpha * sum : beta * *y_row + alpha * sum;
}

// Where the balanced kernel's stage reads the columns of its entries: CSR's column indices, or
// Csr16Matrix's 16-bit offsets from a base column per block of kBalancedMaxEntries entries (its
// blocks are the kernel's): 2 bytes of index an entry where a block's columns span fewer than
// 65,536, 4 where they do not. at(b, k) is a thread's view of block b from entry k on: load(j)
// issues the load of entry k + j's stored index, decode(stored, j) makes it a column. Every load
// is issued before any decode: a test of the block's kind (narrow or wide) before them made
// every load wait for that of the kind, and the kernel ran 9% slower than on CSR (H200).
template <class O>
struct CsrColumns {
  using Stored = O;
  static constexpr bool full_occupancy = false;  // see KSPMV_RAW_BALANCED_BOUNDS
  const O* __restrict__ cols;
  struct Thread {
    const O* p;
    __device__ __forceinline__ O load(int j) const { return stream_load(p + j); }
    __device__ __forceinline__ O decode(O stored, int) const { return stored; }
  };
  __device__ __forceinline__ Thread at(int64_t, int64_t k) const { return {cols + k}; }
};

template <class O>
struct Csr16Columns {
  using Stored = uint16_t;
  static constexpr bool full_occupancy = sizeof(O) == 4;
  const uint16_t* __restrict__ low;
  const O* __restrict__ base;
  const int64_t* __restrict__ wide;
  const uint16_t* __restrict__ high;
  struct Thread {
    const uint16_t* low;
    const uint16_t* high;  // the thread's first high half, or nullptr in a narrow block
    O base;
    __device__ __forceinline__ uint16_t load(int j) const { return stream_load(low + j); }
    __device__ __forceinline__ O decode(uint16_t stored, int j) const {
      return high == nullptr ? base + O(stored) : base + O(stored) + (O(stream_load(high + j)) << 16);
    }
  };
  __device__ __forceinline__ Thread at(int64_t b, int64_t k) const {
    const int64_t w = wide[b];
    return {low + k, w < 0 ? nullptr : high + (w + k - b * kBalancedMaxEntries), base[b]};
  }
};

// Where the balanced kernel's stage reads the values of its entries: stored (S, or float with S
// double: mixed precision), the one value every stored entry holds (UniformCsrMatrix), which the
// kernel multiplies each gathered x by as it would a loaded value (the products, and so the sums,
// are those of CSR holding that value), with no load, or a code an entry into a table of values
// (CodedCsrMatrix). at(k) is a thread's view from entry k on: load(j) issues entry k + j's load,
// value(stored) makes it a value (every load is issued before any is used, as the columns').
template <class V>
struct StoredValues {
  using Stored = V;
  const V* __restrict__ vals;
  struct Thread {
    const V* p;
    __device__ __forceinline__ V load(int j) const { return stream_load(p + j); }
    __device__ __forceinline__ V value(V stored) const { return stored; }
  };
  __device__ __forceinline__ Thread at(int64_t k) const { return {vals + k}; }
};

template <class S>
struct UniformValue {
  using Stored = S;
  S value;
  struct Thread {
    S uniform;
    __device__ __forceinline__ S load(int) const { return uniform; }
    __device__ __forceinline__ S value(S stored) const { return stored; }
  };
  __device__ __forceinline__ Thread at(int64_t) const { return {value}; }
};

// CodedCsrMatrix: an 8-bit code an entry into a table of at most 256 values (2 KB in double, which
// stays in L1 beside the gathers of x).
template <class S>
struct CodedValues {
  using Stored = uint8_t;
  const uint8_t* __restrict__ codes;
  const S* __restrict__ table;
  struct Thread {
    const uint8_t* p;
    const S* __restrict__ table;
    __device__ __forceinline__ uint8_t load(int j) const { return stream_load(p + j); }
    __device__ __forceinline__ S value(uint8_t code) const { return table[code]; }
  };
  __device__ __forceinline__ Thread at(int64_t k) const { return {codes + k, table}; }
};

// Blocks of the balanced kernel resident at once on a multiprocessor, for Csr16Matrix with
// 32-bit ordinals (Columns::full_occupancy): as many as its threads allow (2048 on NVIDIA's
// sm_80 and sm_90), which caps the kernel at 32 registers a thread. Without the cap it took 40
// (the base column and a second pointer), 6 blocks of 256 threads fitted instead of 8, and it
// ran 8% slower than on CSR's larger indices (H200). CSR's variant takes 32 registers by itself
// when given no minimum (0); given a minimum of 1 block it took 54, 4 blocks fitted, and it ran
// 21% slower (H200, c30d866). With 64-bit ordinals the cap spills 32-60 bytes a thread and the
// compiler takes 56-79 registers without it (not measured). HIP's second bound means something
// else (waves per execution unit): not given there.
#if defined(KSPMV_RAW_HIP)
#define KSPMV_RAW_BALANCED_BOUNDS(threads, full) __launch_bounds__(threads)
#else
#define KSPMV_RAW_BALANCED_BOUNDS(threads, full) __launch_bounds__(threads, (full) ? 2048 / (threads) : 0)
#endif

template <int WaveSize, int BlockSize, bool BetaIsZero, bool SinglePass, class S, class O, class Off, class Columns,
          class Values>
__global__ void KSPMV_RAW_BALANCED_BOUNDS(BlockSize, Columns::full_occupancy)
    csr_balanced_kernel(int64_t nnz, int64_t entries_per_block, const O* __restrict__ first_row,
                        const Off* __restrict__ offsets, Columns columns, Values values,
                        const S* __restrict__ x, S* __restrict__ y, S* head_sum, S* tail_sum, int* arrivals, S alpha,
                        S beta) {
  static_assert(BlockSize == 256 || BlockSize == 512, "blocks of 256 or 512 threads");
  constexpr int kItems = int(kBalancedMaxEntries / BlockSize);
  __shared__ S products[kBalancedMaxEntries];
  __shared__ int long_rows[kLongListCapacity];  // rows as r - r0; -1 stands for the head
  __shared__ int long_count;
  __shared__ int64_t last_arrival[2];  // owner blocks of the spanning rows this block finishes, or -1
  __shared__ Off row_offsets[BlockSize + 1];  // offsets of rows r0 .. r0 + BlockSize
  // Launched as a dependent (launch_dependent): nothing is read or written before the kernel
  // before it in the stream has finished. The carry kernel (the two-launch finish) may then start
  // as this grid's last blocks start: it waits for this grid's partials itself.
  wait_for_prior_grid();
  allow_dependent_launch();
  const int tid = int(threadIdx.x);
  const int64_t b = blockIdx.x;
  const int64_t k0 = b * entries_per_block;
  // Positions inside the block are 32-bit (at most kBalancedMaxEntries): 64-bit index arithmetic
  // made the kernel issue-bound (the 32-bit version was 7-12% faster on the large matrices, H200).
  const int n = int(k0 + entries_per_block < nnz ? entries_per_block : nnz - k0);
  const int64_t r0 = int64_t(first_row[b]), r1 = int64_t(first_row[b + 1]);
  if (tid == 0) long_count = 0;

  // Stage: all column indices and values first, then the gathers of x, so each thread has up to
  // 2 x kItems independent loads in flight; with them, the offsets of the block's first
  // BlockSize rows (and the next), so the sums below wait on no load. Each thread loads from
  // one base pointer at constant distances, and a full block (all but the last) without a
  // predicate an item: Nsight Compute on the H200 (bcsstk13 replicated) showed the predicated
  // form recomputing every address in 64 bits and, with the 64-bit division below, 30% of the
  // kernel's instructions. With the offsets staged, the kernel went from 0.74 to 0.82 of copy
  // bandwidth (geometric mean over the 53 replicated real matrices of perf_tests/results/h200
  // against h200_686fe52).
  const auto thread_vals = values.at(k0 + tid);  // Values::Stored: S, or float with double S (mixed precision)
  S* thread_products = products + tid;
  const int64_t staged_rows = r1 - r0 < BlockSize ? r1 - r0 : BlockSize;
  if (tid <= staged_rows) row_offsets[tid] = offsets[r0 + tid];
  if (tid == 0 && staged_rows == BlockSize) row_offsets[BlockSize] = offsets[r0 + BlockSize];
  const auto thread_cols = columns.at(b, k0 + tid);
  typename Columns::Stored c[kItems];
  typename Values::Stored v[kItems];
  // (One branch for the loads and the gathers: split in two, the same code ran 5-10% slower.)
  if (n == kBalancedMaxEntries) {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      c[i] = thread_cols.load(i * BlockSize);
      v[i] = thread_vals.load(i * BlockSize);
    }
#pragma unroll
    for (int i = 0; i < kItems; ++i) thread_products[i * BlockSize] = S(thread_vals.value(v[i])) * gather_load(x + thread_cols.decode(c[i], i * BlockSize));
  } else {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (i * BlockSize + tid < n) {
        c[i] = thread_cols.load(i * BlockSize);
        v[i] = thread_vals.load(i * BlockSize);
      }
    }
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      if (i * BlockSize + tid < n) thread_products[i * BlockSize] = S(thread_vals.value(v[i])) * gather_load(x + thread_cols.decode(c[i], i * BlockSize));
    }
  }
  __syncthreads();

  // Block-relative positions: a row's begin and end, clamped to the block.
  auto local = [&](Off offset) { return int64_t(offset) - k0 < n ? int(int64_t(offset) - k0) : n; };
  const int head_end = r0 < r1 ? local(row_offsets[0]) : n;
  if (tid == 0 && head_end > 0) long_rows[atomicAdd(&long_count, 1)] = -1;

  const int64_t rows = r1 - r0;
  // The group: the largest power of two lanes, at most a wave, no larger than the average row
  // ((n - head_end) / rows, compared without dividing: the division cost 10% of the kernel's
  // instructions) and small enough for one pass over the rows. 1 << shift lanes: shifts below.
  const int body = n - head_end;
  int shift = 0;
  while ((2 << shift) <= WaveSize && rows > 0 && (int64_t(2) << shift) * rows <= body &&
         (int64_t(2) << shift) * rows <= BlockSize)
    ++shift;
  const int group = 1 << shift;
  const int long_segment = kLongSegmentSteps * group;
  const int groups = BlockSize >> shift, lane = tid & (group - 1);
  // Every thread makes the same number of passes: the group sums shuffle across the whole wave.
  for (int64_t first = 0; first < rows; first += groups) {
    const int64_t i = first + (tid >> shift), row = r0 + i;
    S sum = 0;
    bool done = false;
    if (row < r1) {
      const int begin = int(int64_t(i < BlockSize ? row_offsets[i] : offsets[row]) - k0);
      const Off row_end = i < BlockSize ? row_offsets[i + 1] : offsets[row + 1];
      const int end = local(row_end);
      if (end - begin > long_segment || int64_t(row_end) - k0 > n) {
        if (lane == 0) long_rows[atomicAdd(&long_count, 1)] = int(row - r0);
      } else {
        for (int k = begin + lane; k < end; k += group) sum += products[k];
        done = true;
      }
    }
    sum = group_sum(sum, group);
    if (done && lane == 0) y[row] = finish(sum, alpha, beta, y + row, BetaIsZero);
  }
  __syncthreads();

  // Long segments, the head, and the segment of a row continuing past the block: a wave each.
  const int wave = tid / WaveSize, wave_lane = tid % WaveSize;
  for (int i = wave; i < long_count; i += BlockSize / WaveSize) {
    const int entry = long_rows[i];
    const int64_t row = r0 + entry;
    const int64_t row_end = entry < 0 ? k0 + head_end : int64_t(offsets[row + 1]);
    const int begin = entry < 0 ? 0 : int(int64_t(offsets[row]) - k0);
    const int end = row_end - k0 < n ? int(row_end - k0) : n;
    S sum = 0;
    for (int k = begin + wave_lane; k < end; k += WaveSize) sum += products[k];
    sum = group_sum<WaveSize>(sum);
    if (wave_lane != 0) continue;
    if (entry < 0 || row_end - k0 > n) {
      (entry < 0 ? head_sum : tail_sum)[b] = sum;
      if (SinglePass) __threadfence();  // visible to the block that finishes the row before this block counts itself
    } else {
      y[row] = finish(sum, alpha, beta, y + row, BetaIsZero);
    }
  }
  if (!SinglePass) return;
  __syncthreads();

  // Count this block in the rows it shares: the head's row (owned by an earlier block) and the
  // last owned row if it continues past the block.
  if (tid == 0) {
    last_arrival[0] = last_arrival[1] = -1;
    if (head_end > 0) {
      const int64_t row = r0 - 1;  // the row holding entry k0
      const int64_t owner = int64_t(offsets[row]) / entries_per_block;
      const int64_t blocks = (int64_t(offsets[row + 1]) - 1) / entries_per_block - owner + 1;
      if (atomicAdd(arrivals + owner, 1) == blocks - 1) last_arrival[0] = owner;
    }
    if (r0 < r1 && int64_t(offsets[r1]) - k0 > n) {
      const int64_t blocks = (int64_t(offsets[r1]) - 1) / entries_per_block - b + 1;
      if (atomicAdd(arrivals + b, 1) == blocks - 1) last_arrival[1] = b;
    }
  }
  __syncthreads();
  if (wave < 2 && last_arrival[wave] >= 0) {
    __threadfence();
    const int64_t owner = last_arrival[wave];
    const int64_t row = int64_t(first_row[owner + 1]) - 1;
    const int64_t last_block = (int64_t(offsets[row + 1]) - 1) / entries_per_block;
    // Volatile: the partials of other blocks, not stale copies from this SM's cache.
    const volatile S* heads = head_sum;
    S sum = 0;
    for (int64_t d = owner + 1 + wave_lane; d <= last_block; d += WaveSize) sum += heads[d];
    sum = group_sum<WaveSize>(sum);
    if (wave_lane == 0) {
      arrivals[owner] = 0;
      y[row] = finish(static_cast<const volatile S*>(tail_sum)[owner] + sum, alpha, beta, y + row, BetaIsZero);
    }
  }
}

// Two-pass finish: a thread per block b; if b's last row continues past it, the heads of the
// blocks the row covers are added to b's tail in the order of the one-launch finish (a wave's
// lanes stride over them, then group_sum), so both give the same bits. A row reaching one more
// block (nearly all) is finished by its thread: the wave's sum of one head is that head. Longer
// ones are taken in turn by the thread's whole wave. (A wave per block made this launch 5% of
// the SpMV on the large matrices, H200.)
template <int WaveSize, bool BetaIsZero, class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    csr_balanced_carry_kernel(int64_t num_blocks, int64_t entries_per_block, const O* __restrict__ first_row,
                              const Off* __restrict__ offsets, S* __restrict__ y, const S* __restrict__ head_sum,
                              const S* __restrict__ tail_sum, S alpha, S beta) {
  allow_dependent_launch();  // the next call's balanced kernel waits for this one itself
  const int64_t b = int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  const int lane = int(threadIdx.x % WaveSize);
  int64_t row = -1, last_block = 0;
  if (b < num_blocks) {
    const int64_t first = int64_t(first_row[b]), last = int64_t(first_row[b + 1]) - 1;
    if (last >= first) {  // owns a row
      const int64_t row_end = int64_t(offsets[last + 1]);
      if (row_end > (b + 1) * entries_per_block) {  // that continues past the block
        row = last;
        last_block = (row_end - 1) / entries_per_block;
      }
    }
  }
  // Above, the loads of the partition, which the balanced kernel does not write; below, its
  // partials, once it has finished (launched as a dependent: this thread may start before).
  wait_for_prior_grid();
  if (row >= 0 && last_block == b + 1) y[row] = finish(tail_sum[b] + head_sum[b + 1], alpha, beta, y + row, BetaIsZero);
  // Every lane of the wave takes part in the shuffles: no lane returns before this.
  for (auto longer = ballot(row >= 0 && last_block > b + 1); longer != 0; longer &= longer - 1) {
    const int source = lowest_lane(longer);
    const int64_t owner = shfl(b, source), long_row = shfl(row, source), end_block = shfl(last_block, source);
    S heads = 0;
    for (int64_t d = owner + 1 + lane; d <= end_block; d += WaveSize) heads += head_sum[d];
    heads = group_sum<WaveSize>(heads);
    if (lane == 0) y[long_row] = finish(tail_sum[owner] + heads, alpha, beta, y + long_row, BetaIsZero);
  }
}

// One entry of the balanced partition (raw.hpp: balanced_partition): for b < num_blocks, the
// first row that starts at or after entry b*entries_per_block (a binary search over the row
// offsets) and a zero arrival counter; for b == num_blocks, the end.
template <class O, class Off>
__device__ __forceinline__ void write_partition_entry(int64_t b, int64_t rows, const Off* __restrict__ offsets,
                                                      int64_t entries_per_block, int64_t num_blocks,
                                                      O* __restrict__ first_row, int* __restrict__ arrivals) {
  if (b == num_blocks) {
    first_row[b] = O(rows);
    return;
  }
  arrivals[b] = 0;
  const int64_t start = b * entries_per_block;
  int64_t lo = 0, hi = rows;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    if (int64_t(offsets[mid]) < start) lo = mid + 1; else hi = mid;
  }
  first_row[b] = O(lo);
}

// Row statistics for the automatic choice (impl/csr_analysis.hpp), in one launch. First every
// row's length (the longest, and the sum of squares) and, if partition_blocks >= 0, the balanced
// partition's entries; then, unless windows == 0, `windows` windows
// of kWindowRows consecutive rows spread over the matrix, a wave each: how many distinct lines of
// x (line_entries entries of x each) the window's entries gather (at most kWindowEntries of them,
// evenly spaced), how many entries, and the lines from the 10th to the 90th percentile of up
// to WaveSize of those (the window's reach: a few far columns, a dense first column's, do not
// count). Separate phases, so that the sampled work runs on every
// lane at once rather than on one lane of a wave while the others wait. Blocks fold their sums into
// `sums` with atomics; the last block to finish copies them to `result` (host memory mapped for
// the device, no copy) after zeroing `sums` for the next call, and then the call's sequence
// number: the host waits for that number to appear rather than for the stream to finish, which
// it learns microseconds later.
struct RowStatisticsSums {
  unsigned long long longest;
  unsigned long long window_lines;
  unsigned long long window_entries;
  unsigned long long window_span_lines;  // over the windows measured: each one's reach in lines
  unsigned long long windows_measured;   // windows with an entry
  double length_squares;
  unsigned long long crowded_run;  // raw.hpp: RowStatistics::crowded_run (a maximum)
  unsigned int blocks_done;
  unsigned long long sequence;  // result only: the call's number, written last (see below)
};
constexpr int kWindowRows = 32;
constexpr int64_t kCrowdedRunRows = 32768;  // raw.hpp: crowded_run_rows
constexpr int kWindowEntries = 256;

template <int WaveSize, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    row_statistics_kernel(int64_t rows, const Off* __restrict__ offsets, const O* __restrict__ cols, int64_t windows,
                          int64_t window_stride, int64_t line_entries, RowStatisticsSums* sums,
                          RowStatisticsSums* result, unsigned long long sequence, int64_t entries_per_block,
                          int64_t partition_blocks,
                          O* first_row, int* arrivals) {
  unsigned long long longest = 0, lines = 0, entries = 0, span_lines = 0, measured = 0, crowded = 0;
  double squares = 0;
  const int64_t threads = int64_t(gridDim.x) * kBlockSize;
  for (int64_t i = int64_t(blockIdx.x) * kBlockSize + threadIdx.x; i < rows; i += threads) {
    const int64_t start = int64_t(offsets[i]);
    const int64_t length = int64_t(offsets[i + 1]) - start;
    longest = length > int64_t(longest) ? (unsigned long long)length : longest;
    squares += double(length) * double(length);
    // A run of rows too long for one block of the balanced kernel (raw.hpp: crowded_run), its
    // length doubled while the rows still start within one block's entries of row i's start.
    if (i + kCrowdedRunRows <= rows && int64_t(offsets[i + kCrowdedRunRows]) - start < kBalancedMaxEntries) {
      int64_t run = kCrowdedRunRows;
      while (i + 2 * run <= rows && int64_t(offsets[i + 2 * run]) - start < kBalancedMaxEntries) run *= 2;
      crowded = (unsigned long long)run > crowded ? (unsigned long long)run : crowded;
    }
  }
  for (int64_t b = int64_t(blockIdx.x) * kBlockSize + threadIdx.x; b <= partition_blocks; b += threads) {
    write_partition_entry(b, rows, offsets, entries_per_block, partition_blocks, first_row, arrivals);
  }
  __shared__ int64_t window_lines[kBlockSize / WaveSize][kWindowEntries];
  const int wave = int(threadIdx.x) / WaveSize, lane = int(threadIdx.x) % WaveSize;
  int64_t* line = window_lines[wave];
  const int64_t waves = int64_t(gridDim.x) * (kBlockSize / WaveSize);
  for (int64_t w = int64_t(blockIdx.x) * (kBlockSize / WaveSize) + wave; w < windows; w += waves) {
    const int64_t r0 = w * window_stride, r1 = r0 + kWindowRows < rows ? r0 + kWindowRows : rows;
    const int64_t begin = int64_t(offsets[r0]), count = int64_t(offsets[r1]) - begin;
    const int64_t step = (count + kWindowEntries - 1) / kWindowEntries > 1 ? (count + kWindowEntries - 1) / kWindowEntries : 1;
    const int n = int((count + step - 1) / step);
    for (int j = lane; j < n; j += WaveSize) line[j] = int64_t(cols[begin + int64_t(j) * step]) / line_entries;
    wave_sync();
    unsigned long long distinct = 0;
    for (int j = lane; j < n; j += WaveSize) {
      bool first = true;
      for (int i = 0; i < j && first; ++i) first = line[i] != line[j];
      distinct += first ? 1 : 0;
    }
    // The reach from m <= WaveSize of the sampled entries, evenly spaced, a lane each: each one's
    // rank in the order of (line, lane) by shuffles; the lines of ranks m/10 and m-1-m/10 bound it.
    const int m = n < WaveSize ? n : WaveSize;
    const long long mine = lane < m ? (long long)line[int64_t(lane) * n / (m > 0 ? m : 1)] : 0;
    int rank = 0;
    for (int i = 0; i < WaveSize; ++i) {
      const long long other = shfl(mine, i);
      rank += i < m && (other < mine || (other == mine && i < lane)) ? 1 : 0;
    }
    wave_sync();  // the slice is rewritten by the wave's next window
    long long low = lane < m && rank == m / 10 ? mine : -1, high = lane < m && rank == m - 1 - m / 10 ? mine : -1;
    for (int offset = WaveSize / 2; offset > 0; offset /= 2) {  // one lane holds each rank
      const long long other_low = shfl_down<WaveSize>(low, offset), other_high = shfl_down<WaveSize>(high, offset);
      low = other_low > low ? other_low : low;
      high = other_high > high ? other_high : high;
    }
    lines += distinct;
    if (lane == 0 && n > 0) {
      entries += (unsigned long long)(n);
      span_lines += (unsigned long long)(high - low + 1);
      measured += 1;
    }
  }
  // Block sums: each wave's, then the block's, then one set of atomics a block.
  for (int offset = WaveSize / 2; offset > 0; offset /= 2) {
    const unsigned long long other = shfl_down<WaveSize>(longest, offset);
    longest = other > longest ? other : longest;
    lines += shfl_down<WaveSize>(lines, offset);
    entries += shfl_down<WaveSize>(entries, offset);
    span_lines += shfl_down<WaveSize>(span_lines, offset);
    measured += shfl_down<WaveSize>(measured, offset);
    squares += shfl_down<WaveSize>(squares, offset);
    const unsigned long long other_crowded = shfl_down<WaveSize>(crowded, offset);
    crowded = other_crowded > crowded ? other_crowded : crowded;
  }
  __shared__ RowStatisticsSums wave_sums[kBlockSize / WaveSize];
  if (lane == 0) wave_sums[wave] = {longest, lines, entries, span_lines, measured, squares, crowded, 0u, 0ull};
  __syncthreads();
  if (threadIdx.x != 0) return;
  RowStatisticsSums block = wave_sums[0];
  for (int v = 1; v < kBlockSize / WaveSize; ++v) {
    block.longest = wave_sums[v].longest > block.longest ? wave_sums[v].longest : block.longest;
    block.window_lines += wave_sums[v].window_lines;
    block.window_entries += wave_sums[v].window_entries;
    block.window_span_lines += wave_sums[v].window_span_lines;
    block.windows_measured += wave_sums[v].windows_measured;
    block.length_squares += wave_sums[v].length_squares;
    block.crowded_run = wave_sums[v].crowded_run > block.crowded_run ? wave_sums[v].crowded_run : block.crowded_run;
  }
  atomicMax(&sums->longest, block.longest);
  atomicAdd(&sums->window_lines, block.window_lines);
  atomicAdd(&sums->window_entries, block.window_entries);
  atomicAdd(&sums->window_span_lines, block.window_span_lines);
  atomicAdd(&sums->windows_measured, block.windows_measured);
  atomicAdd(&sums->length_squares, block.length_squares);
  atomicMax(&sums->crowded_run, block.crowded_run);
  __threadfence();  // this block's sums are visible before it counts itself
  if (atomicAdd(&sums->blocks_done, 1u) != gridDim.x - 1) return;
  __threadfence();
  volatile RowStatisticsSums* all = sums;
  const RowStatisticsSums total{all->longest,           all->window_lines,     all->window_entries,
                                all->window_span_lines, all->windows_measured, all->length_squares,
                                all->crowded_run,      0u,                    0ull};
  *sums = RowStatisticsSums{0, 0, 0, 0, 0, 0.0, 0, 0u, 0ull};
  __threadfence();  // zeroed before the host, seeing the sequence number, lets the next call launch
  result->longest = total.longest;
  result->window_lines = total.window_lines;
  result->window_entries = total.window_entries;
  result->window_span_lines = total.window_span_lines;
  result->windows_measured = total.windows_measured;
  result->length_squares = total.length_squares;
  result->crowded_run = total.crowded_run;
  __threadfence_system();  // the answer is visible to the host before its sequence number
  *reinterpret_cast<volatile unsigned long long*>(&result->sequence) = sequence;
}

// The balanced partition (raw.hpp: balanced_partition): a thread per block of entries.
template <class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    balanced_partition_kernel(int64_t rows, const Off* __restrict__ offsets, int64_t entries_per_block,
                              int64_t num_blocks, O* __restrict__ first_row, int* __restrict__ arrivals) {
  const int64_t b = int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  if (b <= num_blocks) write_partition_entry(b, rows, offsets, entries_per_block, num_blocks, first_row, arrivals);
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

#if !defined(KSPMV_RAW_HIP)
// Whether the current device has programmatic dependent launch (compute capability 9.0 and
// later), asked once a device.
inline bool current_device_launches_dependents() {
  constexpr int kDevices = 64;
  static std::atomic<signed char> known[kDevices];  // 0: not asked yet, 1: yes, -1: no
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device < 0 || device >= kDevices) return false;
  signed char k = known[device].load(std::memory_order_relaxed);
  if (k == 0) {
    int major = 0;
    k = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess && major >= 9 ? 1 : -1;
    known[device].store(k, std::memory_order_relaxed);
  }
  return k > 0;
}
#endif

#if !defined(KSPMV_RAW_HIP)
// The carveout (percent of the largest shared memory of a multiprocessor) that holds `blocks`
// blocks of `kernel` (Threads a block; 0: as many as its threads and registers allow) and no
// more: NVIDIA's L1 and shared memory share one array (256 KB on the H100 and H200), and what
// shared memory does not take is L1, where gathers of x hit. Asked once a device and kernel;
// -1 (the driver's choice) where the device does not say.
template <int Threads, class... Params>
int shared_carveout_holding(void (*kernel)(Params...), int blocks) {
  constexpr int kDevices = 64, kMostBlocks = 32;
  static std::atomic<signed char> known[kDevices][kMostBlocks + 1];  // percent + 1; 0: not asked yet
  int device = 0;
  if (blocks < 0 || blocks > kMostBlocks || cudaGetDevice(&device) != cudaSuccess || device < 0 ||
      device >= kDevices)
    return -1;
  signed char k = known[device][blocks].load(std::memory_order_relaxed);
  if (k == 0) {
    cudaFuncAttributes attributes;
    int per_multiprocessor = 0, reserved = 0, fit = blocks;
    if (cudaFuncGetAttributes(&attributes, kernel) == cudaSuccess &&
        cudaDeviceGetAttribute(&per_multiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device) ==
            cudaSuccess &&
        cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, device) == cudaSuccess &&
        (blocks > 0 || cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, Threads, 0) == cudaSuccess) &&
        per_multiprocessor > 0 && fit > 0) {
      const int64_t need = int64_t(fit) * (int64_t(attributes.sharedSizeBytes) + reserved);
      const int64_t percent = (need * 100 + per_multiprocessor - 1) / per_multiprocessor;
      k = static_cast<signed char>((percent < 100 ? percent : 100) + 1);
    } else {
      (void)cudaGetLastError();
      return -1;  // asked again next time
    }
    known[device][blocks].store(k, std::memory_order_relaxed);
  }
  return k - 1;
}
#endif

// Launches kernel (Threads a block) as a dependent of the kernel before it in the stream where
// the device has programmatic dependent launch (CUDA 12, sm_90 and later; the kernel calls
// wait_for_prior_grid before it touches memory that kernel may use): its blocks are then placed
// while that kernel's last blocks run, instead of after. Elsewhere an ordinary launch.
// shared_carveout >= 0: the launch asks for that split of L1 and shared memory (CUDA 12.6 and
// later; shared_carveout_holding); AMD GPUs, whose L1 is apart from shared memory, ignore it.
template <int Threads, class... Params, class... Args>
void launch_dependent(void (*kernel)(Params...), unsigned blocks, stream_type stream, int shared_carveout,
                      Args... args) {
#if defined(KSPMV_RAW_HIP) || CUDART_VERSION < 12000
  (void)shared_carveout;
  kernel<<<blocks, Threads, 0, stream>>>(args...);
#else
  const bool dependent = current_device_launches_dependents();
#if CUDART_VERSION >= 12060
  const bool carveout = shared_carveout >= 0;
#else
  const bool carveout = false;
#endif
  if (!dependent && !carveout) {
    kernel<<<blocks, Threads, 0, stream>>>(args...);
    return;
  }
  cudaLaunchAttribute attribute[2];
  unsigned attributes = 0;
  if (dependent) {
    attribute[attributes].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[attributes++].val.programmaticStreamSerializationAllowed = 1;
  }
#if CUDART_VERSION >= 12060
  if (carveout) {
    attribute[attributes].id = cudaLaunchAttributePreferredSharedMemoryCarveout;
    attribute[attributes++].val.sharedMemCarveout = unsigned(shared_carveout);
  }
#endif
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(Threads);
  config.dynamicSmemBytes = 0;
  config.stream = stream;
  config.attrs = attribute;
  config.numAttrs = attributes;
  if (cudaLaunchKernelEx(&config, kernel, Params(args)...) == cudaSuccess) return;
  // Not launched (a stream capture of a runtime that takes no dependent launch, say): the error
  // cleared, an ordinary launch, whose own errors check_launch reports.
  (void)cudaGetLastError();
  kernel<<<blocks, Threads, 0, stream>>>(args...);
#endif
}

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

template <int WaveSize, int Columns, class S, class O, class Off>
void launch_csr_multivector(stream_type stream, int group_size, int64_t num_rows, int64_t num_vectors,
                            const Off* offsets, const O* cols, const S* vals, const S* x, int64_t x_row_stride,
                            int64_t x_vector_stride, S* y, int64_t y_row_stride, int64_t y_vector_stride, S alpha,
                            S beta, bool gathers_scatter = false) {
  int shift = 0;
  while ((1 << shift) < group_size) ++shift;
  if (group_size < 1 || (1 << shift) != group_size || group_size > WaveSize) {
    throw std::invalid_argument("kspmv raw csr_multivector: group size " + std::to_string(group_size) +
                                " must be a power of two <= the wave width " + std::to_string(WaveSize));
  }
  if (num_rows == 0 || num_vectors == 0) return;
  const unsigned blocks = blocks_for(num_rows * group_size);
  const auto pick = [&](auto passes) {
    constexpr int P = decltype(passes)::value;
    return beta == S(0) ? csr_multivector_kernel<WaveSize, Columns, true, P, S, O, Off>
                        : csr_multivector_kernel<WaveSize, Columns, false, P, S, O, Off>;
  };
  auto kernel = pick_passes<Columns>(num_vectors, gathers_scatter, pick);
  kernel<<<blocks, kBlockSize, 0, stream>>>(num_rows, shift, num_vectors, offsets, cols, vals, x, x_row_stride,
                                            x_vector_stride, y, y_row_stride, y_vector_stride, alpha, beta);
  check_launch("csr_multivector");
}

template <int WaveSize, int Columns, class S, class O, class Off>
void launch_csr_multivector_entries(stream_type stream, int entries_per_lane, int64_t num_rows, int64_t nnz,
                                    int64_t num_vectors, const Off* offsets, const O* cols, const S* vals, const S* x,
                                    int64_t x_row_stride, int64_t x_vector_stride, S* y, int64_t y_row_stride,
                                    int64_t y_vector_stride, S alpha) {
  if (entries_per_lane < 1) {
    throw std::invalid_argument("kspmv raw csr_multivector_entries: " + std::to_string(entries_per_lane) +
                                " entries a lane");
  }
  if (num_rows == 0 || nnz == 0 || num_vectors == 0) return;
  const int64_t per_wave = int64_t(WaveSize) * entries_per_lane;
  const unsigned blocks = blocks_for((nnz + per_wave - 1) / per_wave * WaveSize);
  // X's rows in 16-byte pieces where a row's values are contiguous and every row aligned to them
  const bool x_pieces = x_vector_stride == 1 && reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                        (x_row_stride * int64_t(sizeof(S))) % 16 == 0 && (Columns * sizeof(S)) % 16 == 0;
  csr_multivector_entries_kernel<WaveSize, Columns><<<blocks, kBlockSize, 0, stream>>>(
      num_rows, nnz, entries_per_lane, num_vectors, offsets, cols, vals, x, x_row_stride, x_vector_stride, y,
      y_row_stride, y_vector_stride, alpha, x_pieces);
  check_launch("csr_multivector_entries");
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

// Both launches are dependents (launch_dependent): the carry's blocks are placed as the balanced
// kernel's last blocks run and load the partition before they wait, and the next call's
// balanced kernel is placed while this call's carry runs. On the H200, beside the ordinary
// launches in one call (perf_tests/results/h200_balanced_pdl/), the plain call took 0.983x the
// time over the 53 replicated real matrices (geometric mean of two rounds, each matrix 0.97-1.00x),
// the carry alone a dependent 0.989x.
//
// resident_blocks: the blocks of the balanced kernel a multiprocessor holds at once, 0 as many as
// its threads and registers allow; the launch asks for the least shared memory that holds them,
// leaving the rest to L1 (shared_carveout_holding). Left to itself, the driver gave 512 threads
// a block 132 KB of shared memory where 100 KB held all 4 blocks (Nsight Compute on the H200);
// with 100 KB the L1 hit rate of ca-CondMat x274 went from 16% to 18% and the kernel took 0.993x
// the time over 24 replicated real matrices (0.963-0.984x on the four graphs it is chosen for);
// 8 blocks of 256 threads take the same 164 KB as the driver's
// (perf_tests/results/h200_balanced_carveout/).
template <int WaveSize, int BlockSize, bool BetaIsZero, bool SinglePass, class S, class O, class Off, class Columns,
          class Values>
void launch_csr_balanced(stream_type stream, int resident_blocks, int64_t nnz, int64_t entries_per_block,
                         int64_t num_blocks, const O* first_row, const Off* offsets, const Columns& cols,
                         const Values& vals, const S* x, S* y, S* head_sum, S* tail_sum, int* arrivals, S alpha, S beta) {
  const auto kernel = csr_balanced_kernel<WaveSize, BlockSize, BetaIsZero, SinglePass, S, O, Off, Columns, Values>;
#if defined(KSPMV_RAW_HIP)
  const int carveout = -1;
  (void)resident_blocks;
#else
  const int carveout = shared_carveout_holding<BlockSize>(kernel, resident_blocks);
#endif
  launch_dependent<BlockSize>(kernel, unsigned(num_blocks), stream, carveout, nnz, entries_per_block, first_row,
                              offsets, cols, vals, x, y, head_sum, tail_sum, arrivals, alpha, beta);
  check_launch("csr_balanced");
  if (SinglePass || num_blocks < 2) return;
  launch_dependent<kBlockSize>(csr_balanced_carry_kernel<WaveSize, BetaIsZero, S, O, Off>, blocks_for(num_blocks), stream,
                   -1, num_blocks, entries_per_block, first_row, offsets, y, static_cast<const S*>(head_sum),
                   static_cast<const S*>(tail_sum), alpha, beta);
  check_launch("csr_balanced_carry");
}

template <int WaveSize, int BlockSize, class S, class O, class Off, class Columns, class Values>
void launch_csr_balanced(stream_type stream, bool single_pass, int resident_blocks, int64_t nnz, int64_t entries_per_block,
                         int64_t num_blocks, const O* first_row, const Off* offsets, const Columns& cols,
                         const Values& vals, const S* x, S* y, S* head_sum, S* tail_sum, int* arrivals, S alpha, S beta) {
  const bool zero = beta == S(0);
  auto launch = zero ? (single_pass ? launch_csr_balanced<WaveSize, BlockSize, true, true, S, O, Off, Columns, Values>
                                    : launch_csr_balanced<WaveSize, BlockSize, true, false, S, O, Off, Columns, Values>)
                     : (single_pass ? launch_csr_balanced<WaveSize, BlockSize, false, true, S, O, Off, Columns, Values>
                                    : launch_csr_balanced<WaveSize, BlockSize, false, false, S, O, Off, Columns, Values>);
  launch(stream, resident_blocks, nnz, entries_per_block, num_blocks, first_row, offsets, cols, vals, x, y, head_sum,
         tail_sum, arrivals, alpha, beta);
}

// Values: StoredValues<S>, StoredValues<float> with S double (mixed precision: the products and
// sums in S), UniformValue<S> or CodedValues<S>.
template <int WaveSize, class S, class O, class Off, class Columns, class Values>
void launch_csr_balanced(stream_type stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz,
                         int64_t entries_per_block, int64_t num_blocks, const O* first_row, const Off* offsets,
                         const Columns& cols, const Values& vals, const S* x, S* y, S* head_sum, S* tail_sum, int* arrivals,
                         S alpha, S beta) {
  if (entries_per_block < 1 || entries_per_block > kBalancedMaxEntries) {
    throw std::invalid_argument("kspmv raw csr_balanced: blocks of " + std::to_string(entries_per_block) +
                                " entries; the kernel stages at most " + std::to_string(kBalancedMaxEntries));
  }
  if (block_threads != 256 && block_threads != 512) {
    throw std::invalid_argument("kspmv raw csr_balanced: " + std::to_string(block_threads) +
                                " threads a block; the kernel runs 256 or 512");
  }
  if (resident_blocks < 0 || resident_blocks > 32) {
    throw std::invalid_argument("kspmv raw csr_balanced: " + std::to_string(resident_blocks) +
                                " blocks resident a multiprocessor; 0 (as many as fit) to 32");
  }
  if (num_blocks == 0) return;
  (block_threads == 512 ? launch_csr_balanced<WaveSize, 512, S, O, Off, Columns, Values>
                        : launch_csr_balanced<WaveSize, 256, S, O, Off, Columns, Values>)(
      stream, single_pass, resident_blocks, nnz, entries_per_block, num_blocks, first_row, offsets, cols, vals, x, y, head_sum, tail_sum,
      arrivals, alpha, beta);
}

template <int WaveSize, class O, class Off>
void launch_row_statistics(stream_type stream, int64_t rows, const Off* offsets, const O* cols, int64_t windows,
                           int64_t line_entries, RowStatisticsSums* sums, RowStatisticsSums* result,
                           unsigned long long sequence,
                           int64_t entries_per_block, int64_t partition_blocks, O* first_row, int* arrivals) {
  // A block per 256 rows up to 1024 blocks, which then stride: enough to keep the loads of a
  // large matrix in flight, few enough that the atomics of the blocks stay cheap.
  const int64_t wanted = (rows + kBlockSize - 1) / kBlockSize;
  const unsigned blocks = unsigned(wanted < 1024 ? (wanted > 0 ? wanted : 1) : 1024);
  const int64_t window_count = windows < (rows + kWindowRows - 1) / kWindowRows ? windows : (rows + kWindowRows - 1) / kWindowRows;
  const int64_t window_stride = window_count > 0 ? rows / window_count : 0;
  row_statistics_kernel<WaveSize><<<blocks, kBlockSize, 0, stream>>>(rows, offsets, cols, window_count, window_stride,
                                                                      line_entries, sums, result, sequence,
                                                                      entries_per_block,
                                                                      partition_blocks, first_row, arrivals);
  check_launch("row_statistics");
}

template <class O, class Off>
void launch_balanced_partition(stream_type stream, int64_t rows, const Off* offsets, int64_t entries_per_block,
                               int64_t num_blocks, O* first_row, int* arrivals) {
  if (entries_per_block < 1 || num_blocks < 0) {
    throw std::invalid_argument("kspmv raw balanced_partition: " + std::to_string(num_blocks) + " blocks of " +
                                std::to_string(entries_per_block) + " entries");
  }
  balanced_partition_kernel<<<blocks_for(num_blocks + 1), kBlockSize, 0, stream>>>(rows, offsets, entries_per_block,
                                                                                   num_blocks, first_row, arrivals);
  check_launch("balanced_partition");
}

constexpr int log2_of(int v) { return v <= 1 ? 0 : 1 + log2_of(v / 2); }

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
