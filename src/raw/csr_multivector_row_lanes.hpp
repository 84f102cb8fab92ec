#pragma once
// Several vectors on a row-major X (rank-2 x and y, x's vectors of a row contiguous: LayoutRight,
// or the row-major copy spmv.hpp stages): a group of lanes a row with the lanes over the vectors,
// lane l summing vectors l*Width .. l*Width + Width - 1, so each entry's gathers are one
// contiguous read of the row's vectors by the whole group. The group loads Group entries at a time
// (coalesced) and passes each to all its lanes with shuffles. Included by raw_multivector.cpp after
// kernels.hpp, whose device functions and constants it uses.
//
// Why this shape: csr_multivector_kernel puts its lanes over a row's entries, each lane gathering
// all of a pass's vectors: on a row-major X a warp's gather instruction then touches a line per
// lane. Measured in a raw lab on the H200 at 8 vectors in LayoutRight (50-190M entries,
// perf_tests/results/h200_vectors_row_lanes/lab/): 0.53-0.76x its time on bcsstk13, poly_chain,
// cage10, Groebner, ca-CondMat, lp_dfl001 replicated and the 7-point Poisson 300^3. At 4 vectors
// (a row of X one sector) the entries' lanes were faster: launch.hpp takes this kernel from 5
// vectors on.

#include <cstdint>
#include <type_traits>

namespace kspmv {
namespace impl {
namespace raw {

// The lanes of a wave's group of Group lanes holding `lane` (a shuffle mask on CUDA).
template <int WaveSize, int Group>
__device__ __forceinline__ unsigned long long group_lanes(int wave_lane) {
  if constexpr (Group >= 64) {
    return ~0ull;
  } else {
    return ((1ull << Group) - 1) << (wave_lane / Group * Group);
  }
}

// value from lane `source` of the caller's group of Group lanes; every lane of the group calls it
// together (groups of a wave may diverge: the mask names the group alone).
template <int Group, class T>
__device__ __forceinline__ T group_shfl(unsigned long long lanes, T value, int source) {
#if defined(KSPMV_RAW_HIP)
  (void)lanes;
  return __shfl(value, source, Group);
#else
  return __shfl_sync(unsigned(lanes), value, source, Group);
#endif
}

// Width consecutive values of x from p (Width 2: one 16- or 8-byte load, p aligned to it).
template <int Width, class S>
__device__ __forceinline__ void load_vectors(const S* p, S (&out)[Width]) {
  if constexpr (Width == 2 && std::is_same<S, double>::value) {
    const double2 t = *reinterpret_cast<const double2*>(p);
    out[0] = t.x;
    out[1] = t.y;
  } else if constexpr (Width == 2 && std::is_same<S, float>::value) {
    const float2 t = *reinterpret_cast<const float2*>(p);
    out[0] = t.x;
    out[1] = t.y;
  } else {
#pragma unroll
    for (int w = 0; w < Width; ++w) out[w] = p[w];
  }
}

// Width consecutive values of y at out (Width 2 with pairs: one 16- or 8-byte access, out aligned
// to it; else a value at a time, vector_stride apart) = beta*y + alpha*sum. A warp's store of two
// vectors a lane a value at a time wrote half of each sector it touched, twice (Nsight Compute,
// chunks at 8 vectors on rajat01 x2000: 16 of 32 bytes a sector).
template <int Width, bool BetaIsZero, class S>
__device__ __forceinline__ void store_vectors(S* out, int64_t vector_stride, bool pairs, const S (&sum)[Width],
                                              S alpha, S beta) {
  if constexpr (Width == 2 && (std::is_same<S, double>::value || std::is_same<S, float>::value)) {
    if (pairs) {
      using Pair = typename std::conditional<std::is_same<S, double>::value, double2, float2>::type;
      Pair* p = reinterpret_cast<Pair*>(out);
      Pair t;
      if (BetaIsZero) {
        t.x = alpha * sum[0];
        t.y = alpha * sum[1];
      } else {
        t = *p;
        t.x = beta * t.x + alpha * sum[0];
        t.y = beta * t.y + alpha * sum[1];
      }
      *p = t;
      return;
    }
  }
#pragma unroll
  for (int w = 0; w < Width; ++w) {
    S* o = out + w * vector_stride;
    *o = BetaIsZero ? alpha * sum[w] : beta * *o + alpha * sum[w];
  }
}

// Whether Y's rows take store_vectors' pairs: consecutive vectors, even row stride, aligned.
template <class S>
bool row_major_pairs_out(const S* y, int64_t y_row_stride, int64_t y_vector_stride) {
  return y_vector_stride == 1 && y_row_stride % 2 == 0 && reinterpret_cast<uintptr_t>(y) % (2 * sizeof(S)) == 0;
}

// The group's next n <= Group entries from cols and vals (lane l loads entry l, coalesced): each
// entry's weight and the lane's Width vectors of its row of X, passed to every lane with shuffles;
// slots past n gather row 0's and weigh 0 (the caller adds them with a select, not a branch).
// Plain loads, not stream_load: the line of a load of Group entries holds the next steps' entries
// (and a neighbouring group's), which evict-first loads lost (H100: the row lanes at 4 and 8
// vectors 1.05-3.3x slower, the chunks 1.08-1.5x).
template <int Group, int Width, class S, class O>
__device__ __forceinline__ void gather_entries(unsigned long long lanes, int lane, int n, const O* __restrict__ cols,
                                               const S* __restrict__ vals, const S* x_lane, int64_t x_row_stride,
                                               S (&weight)[Group], S (&gathered)[Group][Width]) {
  const O c = lane < n ? cols[lane] : O(0);
  const S v = lane < n ? vals[lane] : S(0);
#pragma unroll
  for (int s = 0; s < Group; ++s) {
    const O cs = group_shfl<Group>(lanes, c, s);
    weight[s] = group_shfl<Group>(lanes, v, s);
    load_vectors<Width>(x_lane + int64_t(cs) * x_row_stride, gathered[s]);
  }
}

// Y = alpha*A*X + beta*Y, Group lanes a row, PerPass = Group*Width vectors a pass over the row's
// entries (a further pass for each further PerPass; lanes past the last pass's count read its
// last vectors again and write nothing). Width 2 needs num_vectors even and X's rows aligned
// (launch_csr_multivector_row_lanes checks). A lane whose entry slot is past the row's end
// gathers row 0's vectors and adds nothing (a select, not a branch: each branch around a
// gather would wait on it alone).
template <int WaveSize, int Group, int Width, bool BetaIsZero, int Passes, class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    csr_multivector_row_lanes_kernel(int64_t num_rows, int64_t num_vectors, const Off* __restrict__ offsets,
                                     const O* __restrict__ cols, const S* __restrict__ vals, const S* __restrict__ x,
                                     int64_t x_row_stride, S* __restrict__ y, int64_t y_row_stride,
                                     int64_t y_vector_stride, bool y_pairs, S alpha, S beta) {
  constexpr int PerPass = Group * Width;
  const int64_t row = (int64_t(blockIdx.x) * kBlockSize + threadIdx.x) / Group;
  if (row >= num_rows) return;  // whole groups: kBlockSize is a multiple of Group
  const int lane = int(threadIdx.x) % Group;
  const unsigned long long lanes = group_lanes<WaveSize, Group>(int(threadIdx.x) % WaveSize);
  const Off begin = offsets[row], end = offsets[row + 1];
  const int64_t vectors = Passes == kOnePass ? int64_t(PerPass) : num_vectors;
  for (int64_t first = 0; first < vectors; first += PerPass) {
    const int count =
        Passes != kAnyPasses ? PerPass : (num_vectors - first < PerPass ? int(num_vectors - first) : PerPass);
    const int vector = lane * Width < count ? lane * Width : count - Width;  // count is a multiple of Width
    const S* x_lane = x + first + vector;
    S sum[Width];
#pragma unroll
    for (int w = 0; w < Width; ++w) sum[w] = 0;
    for (Off k0 = begin; k0 < end; k0 += Group) {
      const int n = end - k0 < Off(Group) ? int(end - k0) : Group;
      S gathered[Group][Width];
      S weight[Group];
      gather_entries<Group, Width>(lanes, lane, n, cols + k0, vals + k0, x_lane, x_row_stride, weight, gathered);
#pragma unroll
      for (int s = 0; s < Group; ++s) {
#pragma unroll
        for (int w = 0; w < Width; ++w) sum[w] += s < n ? weight[s] * gathered[s][w] : S(0);
      }
    }
    if (lane * Width < count) {
      store_vectors<Width, BetaIsZero>(y + row * y_row_stride + (first + vector) * y_vector_stride, y_vector_stride,
                                       y_pairs, sum, alpha, beta);
    }
  }
}

// Vectors a pass of the row-major kernels: 4 up to 4 vectors, 8 up to 8, else 16; two a lane
// where the rows of X allow 16- (double) or 8-byte (float) loads.
inline int row_major_vectors_per_pass(int64_t num_vectors) {
  return num_vectors <= 4 ? 4 : (num_vectors <= 8 ? 8 : 16);
}
template <class S>
bool row_major_pairs(int64_t num_vectors, const S* x, int64_t x_row_stride) {
  return num_vectors % 2 == 0 && x_row_stride % 2 == 0 && reinterpret_cast<uintptr_t>(x) % (2 * sizeof(S)) == 0;
}
// go(constant<Group>(), constant<Width>()) for num_vectors on the row-major X at x.
template <class S, class Go>
void with_row_major_shape(int64_t num_vectors, const S* x, int64_t x_row_stride, Go&& go) {
  const int per_pass = row_major_vectors_per_pass(num_vectors);
  const bool pairs = row_major_pairs(num_vectors, x, x_row_stride);
  if (per_pass == 4) {
    pairs ? go(constant<2>(), constant<2>()) : go(constant<4>(), constant<1>());
  } else if (per_pass == 8) {
    pairs ? go(constant<4>(), constant<2>()) : go(constant<8>(), constant<1>());
  } else {
    pairs ? go(constant<8>(), constant<2>()) : go(constant<16>(), constant<1>());
  }
}

template <int WaveSize, int Group, int Width, class S, class O, class Off>
void launch_csr_multivector_row_lanes_group(stream_type stream, int64_t num_rows, int64_t num_vectors,
                                            const Off* offsets, const O* cols, const S* vals, const S* x,
                                            int64_t x_row_stride, S* y, int64_t y_row_stride,
                                            int64_t y_vector_stride, S alpha, S beta) {
  const unsigned blocks = blocks_for(num_rows * Group);
  const auto pick = [&](auto passes) {
    constexpr int P = decltype(passes)::value;
    return beta == S(0) ? csr_multivector_row_lanes_kernel<WaveSize, Group, Width, true, P, S, O, Off>
                        : csr_multivector_row_lanes_kernel<WaveSize, Group, Width, false, P, S, O, Off>;
  };
  auto kernel = pick_passes<Group * Width>(num_vectors, false, pick);
  kernel<<<blocks, kBlockSize, 0, stream>>>(num_rows, num_vectors, offsets, cols, vals, x, x_row_stride, y,
                                            y_row_stride, y_vector_stride,
                                            row_major_pairs_out(y, y_row_stride, y_vector_stride), alpha, beta);
  check_launch("csr_multivector_row_lanes");
}

template <int WaveSize, class S, class O, class Off>
void launch_csr_multivector_row_lanes(stream_type stream, int64_t num_rows, int64_t num_vectors, const Off* offsets,
                                      const O* cols, const S* vals, const S* x, int64_t x_row_stride, S* y,
                                      int64_t y_row_stride, int64_t y_vector_stride, S alpha, S beta) {
  if (num_rows == 0 || num_vectors == 0) return;
  with_row_major_shape(num_vectors, x, x_row_stride, [&](auto group, auto width) {
    launch_csr_multivector_row_lanes_group<WaveSize, decltype(group)::value, decltype(width)::value>(
        stream, num_rows, num_vectors, offsets, cols, vals, x, x_row_stride, y, y_row_stride, y_vector_stride, alpha,
        beta);
  });
}

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
