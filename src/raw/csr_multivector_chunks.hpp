#pragma once
// Several vectors on a row-major X over chunks of consecutive entries (rows of uneven length): a
// group of lanes over the vectors, as csr_multivector_row_lanes.hpp, walks a chunk of
// 8 * Group entries, whatever rows they belong to, writing each row it finishes. Included by
// raw_multivector.cpp after csr_multivector_row_lanes.hpp, whose device functions it uses.
//
// Why this shape: on uneven rows the balanced multivector kernel (csr_multivector_balanced.hpp)
// stages products in shared memory and sums them by row for each pair of vectors, and is bound by
// that shared-memory traffic (its Nsight Compute record); a group walking a chunk keeps its sums in
// registers. Measured in a raw lab on the H200 at 8 vectors in LayoutRight
// (perf_tests/results/h200_vectors_row_lanes/lab/): 0.35-0.66x the balanced kernel's time on
// rajat01, wiki-Vote, arrow, ca-CondMat replicated; slower than the row lanes on short even rows
// (a row's end at every few entries), so launch.hpp takes it only where rows are uneven.
// Tried and not kept: a group loading its whole chunk's entries before the row search and walking
// them from registers (80 registers instead of 58 at 8 vectors): 0.99x the time on arrow x600 at
// 8 vectors in LayoutRight, 1.02-1.34x elsewhere (H100, perf_tests/results/h100_chunks_preload_2026-11-26/):
// the kernel is bound by L2 and DRAM traffic, not by a warp's chain of loads.

namespace kspmv {
namespace impl {
namespace raw {

// A row spans chunks where its first and last entries lie in different chunks: its y takes an
// atomic add from each chunk, so it holds beta*y before the walk (this kernel, a thread a row).
// An empty row starting at a chunk's first entry or at nnz lies in no chunk's walk: written here
// too. Every other row is written by the one chunk holding it.
template <class S, class Off>
__global__ void __launch_bounds__(kBlockSize)
    csr_multivector_chunks_scale_kernel(int64_t num_rows, int64_t chunk, const Off* __restrict__ offsets,
                                        int64_t num_vectors, S* __restrict__ y, int64_t y_row_stride,
                                        int64_t y_vector_stride, S beta) {
  const int64_t row = int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  if (row >= num_rows) return;
  const int64_t b = int64_t(offsets[row]), e = int64_t(offsets[row + 1]);
  if (b == e ? (b % chunk != 0 && b != int64_t(offsets[num_rows])) : b / chunk == (e - 1) / chunk) return;
  S* out = y + row * y_row_stride;
  for (int64_t j = 0; j < num_vectors; ++j) {
    S* o = out + j * y_vector_stride;
    *o = beta == S(0) ? S(0) : beta * *o;  // beta == 0: NaN in y must not leak
  }
}

// A group's step of entries is loaded by every lane of the group in 16-byte pieces (the same
// addresses for the group's lanes: a request a group), with x's row stride as a 32-bit integer (a
// gather's address one wide multiply-add). Measured in one binary on the H200 at 8 and 16 vectors
// (perf_tests/results/h200_multivector_lab_2026-11-26/lane_loads/): 0.92-0.99x the time of one
// lane loading them and passing them with shuffles, in LayoutRight on 7 replicated real matrices
// and 8 of perf_tests/matrices (the pieces alone 0.94-1.00x); one load an entry took 1.00-1.17x.
// Where cols or vals are not aligned to the pieces, or the row stride needs 64 bits, the launcher
// takes the row lanes kernel instead (a second, shuffling form of this kernel doubled its
// instantiations, the longest compile of the library for HIP).
template <class T, int Group>
constexpr int kPieceBytes = Group * int(sizeof(T)) < 16 ? Group * int(sizeof(T)) : 16;
template <class T, int Group>
bool piece_aligned(const T* p) {
  return reinterpret_cast<uintptr_t>(p) % kPieceBytes<T, Group> == 0;
}
// Group values at p into out, every lane of the group loading all of them: pieces of
// min(16, Group * sizeof(T)) bytes (kernels.hpp: load_pieces), p aligned to them (piece_aligned).
template <int Group, class T>
__device__ __forceinline__ void load_group_run(const T* __restrict__ p, T (&out)[Group]) {
  load_pieces<Group, kPieceBytes<T, Group>>(p, out);
}

// Y = alpha*A*X + beta*Y: group g walks entries [g*Chunk, (g+1)*Chunk), Group at a time (loaded
// in pieces: x_row_stride <= INT32_MAX, cols and vals piece_aligned), lane l
// summing vectors l*Width.. as the row lanes kernel; a row ending in the chunk is written
// (beta*y + alpha*sum), or added with an atomic where it spans chunks (its last bits may then
// change from run to run). The chunk's first row is searched for between the rows the balanced
// partition's block gives (first_row: the first row starting at or after each block of
// entries_per_block entries, as raw.hpp's balanced_partition writes), the group's lanes probing
// Group rows a step (a binary search's dependent loads were one after another: about 9 a chunk on
// rajat01's blocks of ~300 rows). The walk loads each row's end one row ahead, so crossing a row
// waits on no load.
template <int WaveSize, int Group, int Width, bool BetaIsZero, int Passes, class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    csr_multivector_chunks_kernel(int64_t num_rows, int64_t nnz, int64_t entries_per_block,
                                  const O* __restrict__ first_row, int64_t num_vectors,
                                  const Off* __restrict__ offsets, const O* __restrict__ cols,
                                  const S* __restrict__ vals, const S* __restrict__ x, int64_t x_row_stride,
                                  S* __restrict__ y, int64_t y_row_stride, int64_t y_vector_stride, bool y_pairs,
                                  S alpha, S beta) {
  constexpr int PerPass = Group * Width;
  constexpr int64_t Chunk = 8 * Group;
  const int64_t k0 = (int64_t(blockIdx.x) * kBlockSize + threadIdx.x) / Group * Chunk;
  const bool has_chunk = k0 < nnz;  // whole groups; the others still vote in the search below
  const int64_t k1 = k0 + Chunk < nnz ? k0 + Chunk : nnz;
  const int lane = int(threadIdx.x) % Group;
  const unsigned long long lanes = group_lanes<WaveSize, Group>(int(threadIdx.x) % WaveSize);
  // The row holding k0: the last row starting at or before it, between the row before the
  // partition block's first (which starts before k0) and the block's last. Each step lane l
  // probes row lo + min(step * (l + 1), span), step = ceil(span / (Group + 1)); the count of
  // those starting at or before k0 (a prefix of the lanes: offsets never decrease) narrows the
  // range about Group + 1 times. The votes are the whole wave's, one ballot a step for all its
  // groups until the last is done: a ballot over one group's lanes was issued once for each group
  // of the wave (Nsight Compute on the H200, rajat01 x2000 at 8 vectors in LayoutRight: 7 votes
  // a step; with the probes' 64-bit division by Group + 1, 27% of the kernel's instructions and
  // 29% of its stall samples before the walk). The step is a 32-bit division where the span fits.
  // In one H200 call beside the search before: 0.84-0.97x the time on 12 of 66 cases (wiki-Vote
  // and rajat01 in LayoutRight at 4 vectors 0.84x, at 8 0.91x), 0.98-1.01x on the others
  // (perf_tests/results/h200_chunks_search/).
  int64_t lo = 0, hi = 0;
  if (has_chunk) {
    const int64_t block = k0 / entries_per_block;
    lo = int64_t(first_row[block]) > 0 ? int64_t(first_row[block]) - 1 : 0;
    hi = int64_t(first_row[block + 1]) - 1 > lo ? int64_t(first_row[block + 1]) - 1 : lo;
    if (hi > num_rows - 1) hi = num_rows - 1;
  }
  for (;;) {
    const bool searching = lo < hi;
    if (ballot(searching) == 0) break;
    const int64_t span = hi - lo;
    const int64_t step = span <= INT32_MAX ? int64_t((uint32_t(span) + Group) / uint32_t(Group + 1))
                                           : (span + Group) / (Group + 1);
    const auto probe = [&](int l) {
      const int64_t d = step * (l + 1);
      return lo + (d < span ? d : span);
    };
    const bool at_or_before = searching && int64_t(offsets[probe(lane)]) <= k0;
    const int below = __popcll(ballot(at_or_before) & lanes);
    if (searching) {
      if (below == 0) {
        hi = probe(0) - 1;
      } else {
        const int64_t next_hi = below < Group ? probe(below) - 1 : hi;
        lo = probe(below - 1);
        hi = next_hi;
      }
    }
  }
  if (!has_chunk) return;
  const int64_t start_row = lo;
  const int64_t vectors = Passes == kOnePass ? int64_t(PerPass) : num_vectors;
  // The walk in 32-bit positions within the chunk: a row's end as its offset from k0, at most
  // chunk_n + 1 (past the chunk: the row spans chunks); y's row and the next row's end by
  // pointers. Nsight Compute on the H200 showed the walk in 64-bit positions issuing about 400
  // instructions a step of 4 entries (rajat01 at 8 vectors: 64% of issue slots); in one binary
  // this walk took 0.92-0.97x its time at 8 vectors in LayoutRight on 15 matrices of uneven rows
  // (perf_tests/results/h200_multivector_lab_2026-11-26/). Its registers must stay at or below
  // the 64-bit walk's: a first form keeping the chunk's own pointers took 88 instead of 80 at 16
  // vectors (2 blocks a multiprocessor instead of 3) and 1.13-1.28x the time there.
  const int chunk_n = int(k1 - k0);
  const auto local_end = [&](Off end) {
    const int64_t e = int64_t(end) - k0;
    return e > chunk_n ? chunk_n + 1 : int(e);
  };
  // A step's Group entries at chunk position `at` (the last chunk's last step: fewer, guarded). In one pass of groups of at most 4 lanes the columns are loaded a step ahead, so a
  // step's gathers wait on no load of its own: Nsight Compute of the chunks on the H100 (rajat01
  // at 8 vectors) had 22% of stall samples on the columns' load; a step ahead took 0.93-0.99x the
  // time at 8 vectors in LayoutRight (4 lanes of 2 vectors: 61 registers, 4 blocks a
  // multiprocessor still), where 8 lanes of 2 vectors took 90 registers instead of 75 (2 blocks
  // instead of 3) and 1.10-1.18x the time at 16 (perf_tests/results/h200_multivector_lab_2026-11-26/
  // ahead/); with further passes (6 vectors) 77 registers instead of 62. Values a step ahead too:
  // 0.92-1.22x.
  constexpr bool kColumnsAhead = Group <= 4 && Passes == kOnePass;
  const auto load_step_cols = [&](int at, O(&c)[Group]) {
    const int m = chunk_n - at < Group ? chunk_n - at : Group;
    if (m == Group) {
      load_group_run<Group>(cols + (k0 + at), c);  // aligned: k0 + at is a multiple of Group
    } else {
#pragma unroll
      for (int s = 0; s < Group; ++s) c[s] = s < m ? cols[k0 + at + s] : O(0);
    }
  };
  const auto load_step_vals = [&](int at, S(&w)[Group]) {
    const int m = chunk_n - at < Group ? chunk_n - at : Group;
    if (m == Group) {
      load_group_run<Group>(vals + (k0 + at), w);
    } else {
#pragma unroll
      for (int s = 0; s < Group; ++s) w[s] = s < m ? vals[k0 + at + s] : S(0);
    }
  };
  for (int64_t first = 0; first < vectors; first += PerPass) {
    const int count =
        Passes != kAnyPasses ? PerPass : (num_vectors - first < PerPass ? int(num_vectors - first) : PerPass);
    const int vector = lane * Width < count ? lane * Width : count - Width;
    const bool writes = lane * Width < count;
    const S* x_lane = x + first + vector;
    S* out = y + start_row * y_row_stride + (first + vector) * y_vector_stride;
    const Off* next_end_at = offsets + (start_row + 2 <= num_rows ? start_row + 2 : num_rows);
    O ends_left = O(num_rows - (next_end_at - offsets));  // row ends past next_end_at (O holds num_rows)
    int end = local_end(offsets[start_row + 1]);
    int next_end = local_end(*next_end_at);
    bool spans = int64_t(offsets[start_row]) < k0 || end > chunk_n;
    S sum[Width];
#pragma unroll
    for (int w = 0; w < Width; ++w) sum[w] = 0;
    const auto finish_row = [&]() {
      if (writes) {
        if (spans) {
#pragma unroll
          for (int w = 0; w < Width; ++w) atomicAdd(out + w * y_vector_stride, alpha * sum[w]);
        } else {
          store_vectors<Width, BetaIsZero>(out, y_vector_stride, y_pairs, sum, alpha, beta);
        }
      }
#pragma unroll
      for (int w = 0; w < Width; ++w) sum[w] = 0;
    };
    O col_next[Group];
    if constexpr (kColumnsAhead) load_step_cols(0, col_next);
    for (int step = 0; step < chunk_n; step += Group) {
      const int n = chunk_n - step < Group ? chunk_n - step : Group;
      S gathered[Group][Width];
      S weight[Group];
      O col[Group];
      if constexpr (kColumnsAhead) {
#pragma unroll
        for (int s = 0; s < Group; ++s) col[s] = col_next[s];
        if (step + Group < chunk_n) load_step_cols(step + Group, col_next);
      } else {
        load_step_cols(step, col);
      }
      load_step_vals(step, weight);
#pragma unroll
      for (int s = 0; s < Group; ++s) load_vectors<Width>(x_lane + int64_t(col[s]) * int(x_row_stride), gathered[s]);
#pragma unroll
      for (int s = 0; s < Group; ++s) {
        if (s < n) {
          while (step + s >= end) {  // the same for the whole group
            finish_row();
            out += y_row_stride;
            end = next_end;
            spans = end > chunk_n;
            if (ends_left > 0) {
              ++next_end_at;
              --ends_left;
            }
            next_end = local_end(*next_end_at);
          }
#pragma unroll
          for (int w = 0; w < Width; ++w) sum[w] += weight[s] * gathered[s][w];
        }
      }
    }
    finish_row();
  }
}

template <int WaveSize, int Group, int Width, class S, class O, class Off>
void launch_csr_multivector_chunks_group(stream_type stream, int64_t num_rows, int64_t nnz,
                                         int64_t entries_per_block, const O* first_row, int64_t num_vectors,
                                         const Off* offsets, const O* cols, const S* vals, const S* x,
                                         int64_t x_row_stride, S* y, int64_t y_row_stride, int64_t y_vector_stride,
                                         S alpha, S beta) {
  if (!(x_row_stride <= INT32_MAX && piece_aligned<O, Group>(cols) && piece_aligned<S, Group>(vals))) {
    // entries not aligned to this group's pieces, or rows of X beyond 32-bit strides
    launch_csr_multivector_row_lanes_group<WaveSize, Group, Width>(stream, num_rows, num_vectors, offsets, cols, vals,
                                                                   x, x_row_stride, y, y_row_stride, y_vector_stride,
                                                                   alpha, beta);
    return;
  }
  constexpr int64_t chunk = 8 * Group;
  if (beta != S(1)) {
    csr_multivector_chunks_scale_kernel<<<blocks_for(num_rows), kBlockSize, 0, stream>>>(
        num_rows, chunk, offsets, num_vectors, y, y_row_stride, y_vector_stride, beta);
    check_launch("csr_multivector_chunks_scale");
  }
  const unsigned blocks = blocks_for((nnz + chunk - 1) / chunk * Group);
  const auto pick = [&](auto passes) {
    constexpr int P = decltype(passes)::value;
    return beta == S(0) ? csr_multivector_chunks_kernel<WaveSize, Group, Width, true, P, S, O, Off>
                        : csr_multivector_chunks_kernel<WaveSize, Group, Width, false, P, S, O, Off>;
  };
  auto kernel = pick_passes<Group * Width>(num_vectors, false, pick);
  kernel<<<blocks, kBlockSize, 0, stream>>>(num_rows, nnz, entries_per_block, first_row, num_vectors, offsets, cols,
                                            vals, x, x_row_stride, y, y_row_stride, y_vector_stride,
                                            row_major_pairs_out(y, y_row_stride, y_vector_stride), alpha, beta);
  check_launch("csr_multivector_chunks");
}

template <int WaveSize, class S, class O, class Off>
void launch_csr_multivector_chunks(stream_type stream, int64_t num_rows, int64_t nnz, int64_t entries_per_block,
                                   const O* first_row, int64_t num_vectors, const Off* offsets, const O* cols,
                                   const S* vals, const S* x, int64_t x_row_stride, S* y, int64_t y_row_stride,
                                   int64_t y_vector_stride, S alpha, S beta) {
  if (entries_per_block < 1) {
    throw std::invalid_argument("kspmv raw csr_multivector_chunks: partition blocks of " +
                                std::to_string(entries_per_block) + " entries");
  }
  if (num_rows == 0 || num_vectors == 0) return;
  if (nnz == 0) {  // no chunk: y = beta*y, by the scale kernel's rule for empty rows at entry 0
    csr_multivector_chunks_scale_kernel<<<blocks_for(num_rows), kBlockSize, 0, stream>>>(
        num_rows, 1, offsets, num_vectors, y, y_row_stride, y_vector_stride, beta);
    check_launch("csr_multivector_chunks_scale");
    return;
  }
  with_row_major_shape(num_vectors, x, x_row_stride, [&](auto group, auto width) {
    launch_csr_multivector_chunks_group<WaveSize, decltype(group)::value, decltype(width)::value>(
        stream, num_rows, nnz, entries_per_block, first_row, num_vectors, offsets, cols, vals, x, x_row_stride, y,
        y_row_stride, y_vector_stride, alpha, beta);
  });
}

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
