#pragma once
// Several vectors over the balanced partition (rank-2 x and y, rows of uneven length): the
// load-balanced kernel of kernels.hpp (csr_balanced_kernel) with A's entries read once into
// registers and its stage-then-sum repeated for each pair of vectors. Included by raw_multivector.cpp
// after kernels.hpp, whose device functions and constants it uses. The automatic call takes it
// where rows are uneven and neighbouring rows share lines of x (launch.hpp: multivector_kernel).
//
// Why this shape: the split-entries kernel (csr_multivector_entries_kernel) walks a wave's
// entries with a row search and a segmented scan of every vector at each step of 32 entries, and
// on rows of uneven length took 1.2-3 times a rank-1 call's time per vector on the H200
// (h200_vectors_3ef5c62: rajat01, wiki-Vote, arrow replicated), where a rank-1 call of the
// balanced kernel spends most of its time on the gathers and sums this kernel repeats per pass,
// and the rest on A's bytes, which it reads once. Where gathers scatter, each pass gathering its
// own lines of x costs more than the split entries' row-major X (launch.hpp).

namespace kspmv {
namespace impl {
namespace raw {

// Rows spanning blocks are summed with atomic adds into y (one partial a block), so their y must
// hold beta*y before any block adds to it: a thread per block scales the last row the block owns
// where that row continues past the block (the rows every other block adds to), beta == 0
// writing zeros (NaN in y must not leak).
template <class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    csr_multivector_balanced_scale_kernel(int64_t num_blocks, int64_t entries_per_block,
                                          const O* __restrict__ first_row, const Off* __restrict__ offsets,
                                          int64_t num_vectors, S* __restrict__ y, int64_t y_row_stride,
                                          int64_t y_vector_stride, S beta) {
  const int64_t b = int64_t(blockIdx.x) * kBlockSize + threadIdx.x;
  if (b >= num_blocks) return;
  const int64_t first = int64_t(first_row[b]), last = int64_t(first_row[b + 1]) - 1;
  if (last < first || int64_t(offsets[last + 1]) <= (b + 1) * entries_per_block) return;
  S* row = y + last * y_row_stride;
  for (int64_t j = 0; j < num_vectors; ++j) {
    S* out = row + j * y_vector_stride;
    *out = beta == S(0) ? S(0) : beta * *out;
  }
}

// Block b holds the values and column indices of its entries [k0, k1) in registers (8 a thread,
// loaded once, coalesced whatever the row lengths), then for each Vectors vectors j..: stages the
// products with x(:, j..) in shared memory, sums the rows it owns from there (a group of lanes a
// short segment, a wave a long one or the head; the same split as csr_balanced_kernel, the long
// segments listed on the first pass) and writes y(row, j..). Rows spanning blocks take an
// atomic add of each block's partial (their y scaled first, above): their last bits may change
// from run to run. Shared memory: Vectors x 2048 products and the staged offsets (34 KB in double
// with 2 vectors a pass).
template <int WaveSize, int Vectors, bool BetaIsZero, class S, class O, class Off>
__global__ void __launch_bounds__(kBlockSize)
    csr_multivector_balanced_kernel(int64_t nnz, int64_t entries_per_block, const O* __restrict__ first_row,
                                    const Off* __restrict__ offsets, const O* __restrict__ cols,
                                    const S* __restrict__ vals, int64_t num_vectors, const S* __restrict__ x,
                                    int64_t x_row_stride, int64_t x_vector_stride, S* __restrict__ y,
                                    int64_t y_row_stride, int64_t y_vector_stride, S alpha, S beta) {
  constexpr int BlockSize = kBlockSize;
  constexpr int kItems = int(kBalancedMaxEntries / BlockSize);
  __shared__ S products[Vectors][kBalancedMaxEntries];
  __shared__ int long_rows[kLongListCapacity];  // rows as r - r0; -1 stands for the head
  __shared__ int long_count;
  __shared__ Off row_offsets[BlockSize + 1];  // offsets of rows r0 .. r0 + BlockSize
  const int tid = int(threadIdx.x);
  const int64_t b = blockIdx.x;
  const int64_t k0 = b * entries_per_block;
  const int n = int(k0 + entries_per_block < nnz ? entries_per_block : nnz - k0);
  const int64_t r0 = int64_t(first_row[b]), r1 = int64_t(first_row[b + 1]);
  if (tid == 0) long_count = 0;

  const int64_t staged_rows = r1 - r0 < BlockSize ? r1 - r0 : BlockSize;
  if (tid <= staged_rows) row_offsets[tid] = offsets[r0 + tid];
  if (tid == 0 && staged_rows == BlockSize) row_offsets[BlockSize] = offsets[r0 + BlockSize];
  O c[kItems];
  S v[kItems];
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const bool in = i * BlockSize + tid < n;
    c[i] = in ? stream_load(cols + k0 + i * BlockSize + tid) : O(0);
    v[i] = in ? stream_load(vals + k0 + i * BlockSize + tid) : S(0);
  }

  auto local = [&](Off offset) { return int64_t(offset) - k0 < n ? int(int64_t(offset) - k0) : n; };
  const int64_t rows = r1 - r0;
  const int wave = tid / WaveSize, wave_lane = tid % WaveSize;
  int head_end = n, shift = 0;
  for (int64_t j = 0; j < num_vectors; j += Vectors) {
    const int count = num_vectors - j < Vectors ? int(num_vectors - j) : Vectors;  // vectors this pass
    // Gathers unguarded (entries past n hold column 0, a vector past count is the pass's last):
    // a branch around each would wait on it alone (csr_multivector_kernel's note).
#pragma unroll
    for (int u = 0; u < Vectors; ++u) {
      const S* xu = x + (j + (u < count ? u : count - 1)) * x_vector_stride;
      S p[kItems];
#pragma unroll
      for (int i = 0; i < kItems; ++i) p[i] = v[i] * xu[int64_t(c[i]) * x_row_stride];
#pragma unroll
      for (int i = 0; i < kItems; ++i) {
        if (u < count && i * BlockSize + tid < n) products[u][i * BlockSize + tid] = p[i];
      }
    }
    __syncthreads();  // the products, and (first pass) the staged offsets and long_count = 0
    if (j == 0) {
      // Block-relative positions and the group: as csr_balanced_kernel.
      head_end = r0 < r1 ? local(row_offsets[0]) : n;
      if (tid == 0 && head_end > 0) long_rows[atomicAdd(&long_count, 1)] = -1;
      const int body = n - head_end;
      while ((2 << shift) <= WaveSize && rows > 0 && (int64_t(2) << shift) * rows <= body &&
             (int64_t(2) << shift) * rows <= BlockSize)
        ++shift;
    }
    const int group = 1 << shift;
    const int long_segment = kLongSegmentSteps * group;
    const int groups = BlockSize >> shift, lane = tid & (group - 1);
    S* yj = y + j * y_vector_stride;
    for (int64_t first = 0; first < rows; first += groups) {
      const int64_t i = first + (tid >> shift), row = r0 + i;
      S sum[Vectors];
#pragma unroll
      for (int u = 0; u < Vectors; ++u) sum[u] = 0;
      bool done = false;
      if (row < r1) {
        const int begin = int(int64_t(i < BlockSize ? row_offsets[i] : offsets[row]) - k0);
        const Off row_end = i < BlockSize ? row_offsets[i + 1] : offsets[row + 1];
        const int end = local(row_end);
        if (end - begin > long_segment || int64_t(row_end) - k0 > n) {
          if (j == 0 && lane == 0) long_rows[atomicAdd(&long_count, 1)] = int(row - r0);
        } else {
          for (int k = begin + lane; k < end; k += group) {
#pragma unroll
            for (int u = 0; u < Vectors; ++u) sum[u] += products[u][k];
          }
          done = true;
        }
      }
#pragma unroll
      for (int u = 0; u < Vectors; ++u) sum[u] = group_sum(sum[u], group);
      if (done && lane == 0) {
#pragma unroll
        for (int u = 0; u < Vectors; ++u) {
          S* out = yj + row * y_row_stride + u * y_vector_stride;
          if (u < count) *out = finish(sum[u], alpha, beta, out, BetaIsZero);
        }
      }
    }
    __syncthreads();  // the long list complete

    for (int i = wave; i < long_count; i += BlockSize / WaveSize) {
      const int entry = long_rows[i];
      const int64_t row = entry < 0 ? r0 - 1 : r0 + entry;
      const int64_t row_end = entry < 0 ? k0 + head_end : int64_t(offsets[row + 1]);
      const int begin = entry < 0 ? 0 : int(int64_t(offsets[row]) - k0);
      const int end = row_end - k0 < n ? int(row_end - k0) : n;
      S sum[Vectors];
#pragma unroll
      for (int u = 0; u < Vectors; ++u) sum[u] = 0;
      for (int k = begin + wave_lane; k < end; k += WaveSize) {
#pragma unroll
        for (int u = 0; u < Vectors; ++u) sum[u] += products[u][k];
      }
#pragma unroll
      for (int u = 0; u < Vectors; ++u) sum[u] = group_sum<WaveSize>(sum[u]);
      if (wave_lane != 0) continue;
      const bool shared = entry < 0 || row_end - k0 > n;  // a row spanning blocks, scaled by beta beforehand
#pragma unroll
      for (int u = 0; u < Vectors; ++u) {
        S* out = yj + row * y_row_stride + u * y_vector_stride;
        if (u >= count) continue;
        if (shared) {
          atomicAdd(out, alpha * sum[u]);
        } else {
          *out = finish(sum[u], alpha, beta, out, BetaIsZero);
        }
      }
    }
    __syncthreads();  // every read of the products before the next pass's
  }
}

// Vectors a pass of csr_multivector_balanced_kernel: 2 (32 KB of products in double). On the H200
// (perf_tests/results/h200_vectors_balanced/) 2 took 0.73-0.90x the time of 1 on rajat01, wiki-Vote
// and arrow replicated at 4, 8 and 16 vectors in both layouts; 4 would need 64 KB, beyond the
// static shared memory of a CUDA block and the whole LDS of an AMD workgroup.
constexpr int kBalancedVectorsPerPass = 2;

template <int WaveSize, class S, class O, class Off>
void launch_csr_multivector_balanced(stream_type stream, int64_t nnz, int64_t entries_per_block, int64_t num_blocks,
                                     const O* first_row, const Off* offsets, const O* cols, const S* vals,
                                     int64_t num_vectors, const S* x, int64_t x_row_stride, int64_t x_vector_stride,
                                     S* y, int64_t y_row_stride, int64_t y_vector_stride, S alpha, S beta) {
  if (entries_per_block < 1 || entries_per_block > kBalancedMaxEntries) {
    throw std::invalid_argument("kspmv raw csr_multivector_balanced: blocks of " + std::to_string(entries_per_block) +
                                " entries; the kernel holds at most " + std::to_string(kBalancedMaxEntries));
  }
  if (num_blocks == 0 || num_vectors == 0) return;
  if (beta != S(1)) {
    csr_multivector_balanced_scale_kernel<<<blocks_for(num_blocks), kBlockSize, 0, stream>>>(
        num_blocks, entries_per_block, first_row, offsets, num_vectors, y, y_row_stride, y_vector_stride, beta);
    check_launch("csr_multivector_balanced_scale");
  }
  auto kernel = beta == S(0) ? csr_multivector_balanced_kernel<WaveSize, kBalancedVectorsPerPass, true, S, O, Off>
                             : csr_multivector_balanced_kernel<WaveSize, kBalancedVectorsPerPass, false, S, O, Off>;
  kernel<<<unsigned(num_blocks), kBlockSize, 0, stream>>>(nnz, entries_per_block, first_row, offsets, cols, vals,
                                                          num_vectors, x, x_row_stride, x_vector_stride, y,
                                                          y_row_stride, y_vector_stride, alpha, beta);
  check_launch("csr_multivector_balanced");
}

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
