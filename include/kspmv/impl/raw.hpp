#pragma once
// The raw GPU path's interface: plain functions on device pointers and a stream, compiled in
// src/raw/raw_spmv.cpp and raw_multivector.cpp (several vectors) as CUDA or HIP when Kokkos has
// that backend (KSPMV_HAVE_RAW_GPU is then defined), for float and double values, int or int64_t
// indices, and offsets of the index type, int64_t or size_t (KokkosKernels' and Tpetra's offsets).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

namespace kspmv {
namespace impl {
namespace raw {

/// Scalar, ordinal and offset types the raw kernels are compiled for.
template <class S, class O, class Off>
constexpr bool supports() {
  return (std::is_same<S, double>::value || std::is_same<S, float>::value) &&
         (std::is_same<O, int>::value || std::is_same<O, int64_t>::value) &&
         (std::is_same<Off, O>::value || std::is_same<Off, int64_t>::value || std::is_same<Off, size_t>::value);
}

/// Mixed precision on the load-balanced kernel: values V = float with x, y and the sums in S =
/// double, for the ordinal and offset types of supports().
template <class V, class S, class O, class Off>
constexpr bool supports_mixed() {
  return std::is_same<V, float>::value && std::is_same<S, double>::value && supports<S, O, Off>();
}

/// The wave width the raw kernels were compiled for (64 HIP, 32 CUDA; 0 without a raw build).
int wave_size();

/// y = alpha*A*x + beta*y, CSR, group_size lanes per row (a power of two <= wave_size()).
template <class S, class O, class Off>
void csr_vector(void* stream, int group_size, int64_t num_rows, const Off* offsets, const O* cols, const S* vals,
                const S* x, S* y, S alpha, S beta);

/// Y = alpha*A*X + beta*Y for num_vectors vectors (the columns of rank-2 X and Y, element (i, j)
/// at x[i*x_row_stride + j*x_vector_stride], the same for y), CSR, group_size lanes per row (a
/// power of two <= wave_size()), each lane keeping the sums of columns_per_pass (4 or 8) vectors:
/// A is read once for every columns_per_pass vectors. gathers_scatter (an entry's gathers rarely
/// share lines with its neighbours': launch.hpp, stage_x_row_major) keeps the kernel's general
/// form, 4 blocks a multiprocessor, where more would evict x's lines between a lane's gathers.
template <class S, class O, class Off>
void csr_multivector(void* stream, int group_size, int columns_per_pass, int64_t num_rows, int64_t num_vectors,
                     const Off* offsets, const O* cols, const S* vals, const S* x, int64_t x_row_stride,
                     int64_t x_vector_stride, S* y, int64_t y_row_stride, int64_t y_vector_stride, S alpha, S beta,
                     bool gathers_scatter = false);

/// Y += alpha*A*X for num_vectors vectors (strides as csr_multivector; the caller scales Y by
/// beta first), the entries split evenly: entries_per_lane * wave_size() consecutive entries a
/// wave, walked a wave-wide step at a time and summed by row across the wave; a wave adds the
/// rows it shares with other waves with atomics. For rows of uneven length.
template <class S, class O, class Off>
void csr_multivector_entries(void* stream, int entries_per_lane, int columns_per_pass, int64_t num_rows, int64_t nnz,
                             int64_t num_vectors, const Off* offsets, const O* cols, const S* vals, const S* x,
                             int64_t x_row_stride, int64_t x_vector_stride, S* y, int64_t y_row_stride,
                             int64_t y_vector_stride, S alpha);

/// Y = alpha*A*X + beta*Y for num_vectors vectors (strides as csr_multivector) over the balanced
/// partition of csr_balanced (blocks of entries_per_block <= balanced_max_entries entries owning
/// the rows [first_row[b], first_row[b+1])): a block reads its entries once, then stages and
/// sums their products two vectors at a time. Rows spanning blocks take an atomic add of each
/// block's partial, their last bits then changing from run to run. For rows of uneven length.
template <class S, class O, class Off>
void csr_multivector_balanced(void* stream, int64_t nnz, int64_t entries_per_block, int64_t num_blocks,
                              const O* first_row, const Off* offsets, const O* cols, const S* vals,
                              int64_t num_vectors, const S* x, int64_t x_row_stride, int64_t x_vector_stride, S* y,
                              int64_t y_row_stride, int64_t y_vector_stride, S alpha, S beta);

/// Y = alpha*A*X + beta*Y for num_vectors vectors of a row-major X (a row's vectors contiguous:
/// x[i*x_row_stride + j]; y any strides), CSR: a group of lanes a row with the lanes over 4, 8 or
/// 16 vectors a pass (row_major_vectors_per_pass), two vectors a lane where num_vectors and
/// x_row_stride are even and x 16-byte (double) or 8-byte (float) aligned. For even rows.
template <class S, class O, class Off>
void csr_multivector_row_lanes(void* stream, int64_t num_rows, int64_t num_vectors, const Off* offsets, const O* cols,
                               const S* vals, const S* x, int64_t x_row_stride, S* y, int64_t y_row_stride,
                               int64_t y_vector_stride, S alpha, S beta);

/// As csr_multivector_row_lanes over chunks of consecutive entries (8 a lane of a group) whatever
/// their rows, each chunk's first row found between the rows of a balanced partition's block
/// (blocks of entries_per_block entries, first_row as csr_multivector_balanced's); rows spanning
/// chunks take an atomic add of each chunk's partial, their last bits then changing from run to
/// run. For rows of uneven length. Where cols or vals are not aligned to the chunks' loads of a
/// group's entries (up to 16 bytes), or x_row_stride exceeds 2^31 - 1, it runs
/// csr_multivector_row_lanes instead (same result).
template <class S, class O, class Off>
void csr_multivector_chunks(void* stream, int64_t num_rows, int64_t nnz, int64_t entries_per_block,
                            const O* first_row, int64_t num_vectors, const Off* offsets, const O* cols,
                            const S* vals, const S* x, int64_t x_row_stride, S* y, int64_t y_row_stride,
                            int64_t y_vector_stride, S alpha, S beta);

/// Most entries per block the raw balanced kernel stages in shared memory: BalancedCsrMatrix
/// partitions meant for it use blocks of at most this many entries.
constexpr int64_t balanced_max_entries = 2048;

/// y = alpha*A*x + beta*y, load-balanced CSR: blocks of entries_per_block (<= balanced_max_entries)
/// entries owning the rows [first_row[b], first_row[b+1]). Workspace: head_sum and tail_sum hold
/// num_blocks partials each, arrivals num_blocks counters that are zero before and after a call.
/// single_pass: rows spanning blocks are finished by the last block to reach them (one launch)
/// rather than by a second kernel. block_threads: 256, or 512 to leave twice the L1 for x (for
/// gathers that miss the caches; see launch.hpp: raw_balanced_block_threads). resident_blocks:
/// the blocks a multiprocessor holds at once (0: as many as fit); the launch asks for the least
/// shared memory that holds them, the rest of NVIDIA's unified L1 and shared memory being L1
/// (ignored on AMD GPUs; see launch.hpp: raw_balanced_resident_blocks). V, the values' type: S,
/// or float with S double (supports_mixed; products and sums in S).
template <class S, class O, class Off, class V = S>
void csr_balanced(void* stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz, int64_t entries_per_block, int64_t num_blocks, const O* first_row,
                  const Off* offsets, const O* cols, const V* vals, const S* x, S* y, S* head_sum, S* tail_sum,
                  int* arrivals, S alpha, S beta);

/// y = alpha*A*x + beta*y, CSR with 16-bit column offsets (Csr16Matrix, whose blocks of
/// balanced_max_entries entries are the blocks of this load-balanced kernel): the columns of
/// block b are block_base[b] + col_low[k] (wide_offset[b] < 0) or block_base[b] +
/// col_high[wide_offset[b] + k - b*balanced_max_entries] * 65536 + col_low[k]. The partition,
/// workspace, single_pass, block_threads and resident_blocks are those of csr_balanced.
template <class S, class O, class Off>
void csr16_balanced(void* stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz, int64_t num_blocks,
                    const O* first_row, const Off* offsets, const uint16_t* col_low, const O* block_base,
                    const int64_t* wide_offset, const uint16_t* col_high, const S* vals, const S* x, S* y,
                    S* head_sum, S* tail_sum, int* arrivals, S alpha, S beta);

/// y = alpha*A*x + beta*y where every stored entry of A holds `value` (UniformCsrMatrix): the
/// load-balanced kernel of csr_balanced (the same partition, workspace and launch settings) with
/// each product value * x[col] and no values read. Its sums are those csr_balanced makes of CSR
/// values all equal to `value`.
template <class S, class O, class Off>
void csr_uniform_balanced(void* stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz,
                          int64_t entries_per_block, int64_t num_blocks, const O* first_row, const Off* offsets,
                          const O* cols, S value, const S* x, S* y, S* head_sum, S* tail_sum, int* arrivals, S alpha,
                          S beta);

/// y = alpha*A*x + beta*y where entry k of A holds table[codes[k]] (CodedCsrMatrix): the
/// load-balanced kernel of csr_balanced (the same partition, workspace and launch settings)
/// reading a byte of code an entry instead of its value. Its sums are those csr_balanced makes
/// of CSR holding those values.
template <class S, class O, class Off>
void csr_coded_balanced(void* stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz,
                        int64_t entries_per_block, int64_t num_blocks, const O* first_row, const Off* offsets,
                        const O* cols, const uint8_t* codes, const S* table, const S* x, S* y, S* head_sum,
                        S* tail_sum, int* arrivals, S alpha, S beta);

/// The partition of a load-balanced CSR matrix, one launch on `stream`, not waited for:
/// first_row[b] = the first row whose entries start at or after b*entries_per_block (b <
/// num_blocks), first_row[num_blocks] = rows, and arrivals[b] = 0.
template <class O, class Off>
void balanced_partition(void* stream, int64_t rows, const Off* offsets, int64_t entries_per_block, int64_t num_blocks,
                        O* first_row, int* arrivals);

/// Bytes of the current device's L2 cache (0 if the runtime does not say).
int64_t l2_cache_bytes();

/// Threads the current device holds at once: multiprocessors x threads a multiprocessor (0 if
/// the runtime does not say).
int64_t resident_threads();

/// What one pass over the rows of a CSR matrix tells the automatic choice (impl/launch.hpp).
struct RowStatistics {
  int64_t longest_row = 0;
  double length_squares = 0;  ///< sum over rows of length^2
  /// Windows of 32 consecutive rows spread over the matrix: the distinct 128-byte lines of x their
  /// entries gather, per entry (at most 256 entries a window, evenly spaced); near 0 where
  /// neighbouring rows gather the same lines, near 1 where every entry gathers a line of its own.
  /// 0 when no window was sampled.
  double window_lines_per_entry = 0;
  int64_t window_entries = 0;  ///< the entries those windows looked at
  /// The bytes of x (one vector) a window's gathers reach, averaged over the windows: from the
  /// 10th to the 90th percentile of the lines of a wave's worth of its sampled entries, evenly
  /// spaced (a few far columns, as a dense first column's, do not count). Gathers scattered over more than the cache holds
  /// miss it whatever their order; 0 when no window was sampled.
  double window_reach_bytes = 0;
  /// The longest run of rows starting within balanced_max_entries entries of its first row, found
  /// at doubling lengths from crowded_run_rows: the largest d = crowded_run_rows * 2^j with
  /// offsets[i + d] - offsets[i] < balanced_max_entries for some row i (so the longest such run
  /// holds d to 2d - 1 rows); 0 where no run of crowded_run_rows rows is there. Such a run is
  /// nearly all empty rows, and one block of the balanced partition owns at least half of it,
  /// which it walks a block's threads of rows at a time. A maximum, not a sum: the blocks of
  /// separate runs walk them at the same time.
  int64_t crowded_run = 0;
};

/// The shortest run of rows RowStatistics::crowded_run looks for.
constexpr int64_t crowded_run_rows = 32768;

/// Where row_statistics may also write a balanced partition (as balanced_partition does), in
/// the same launch; num_blocks < 0: none.
template <class O>
struct PartitionTarget {
  int64_t entries_per_block = 1;
  int64_t num_blocks = -1;
  O* first_row = nullptr;  ///< num_blocks + 1
  int* arrivals = nullptr;  ///< num_blocks
};

/// Row statistics in one launch on `stream`, waiting for its answer (which lands in host memory
/// the device writes, last of all the call's sequence number: the host waits for that number,
/// not for the stream): every row's length, and `windows` windows of rows (none with 0); and
/// the balanced partition if `partition` asks for one.
/// x_entry_bytes: sizeof(Scalar), to count lines of x. Calls on one device are serialised.
/// after_launch, if given, runs on the calling thread right after the launch and before the
/// wait: work it queues on `stream` runs behind the statistics while the host waits.
template <class O, class Off>
RowStatistics row_statistics(void* stream, int64_t rows, const Off* offsets, const O* cols, int64_t windows,
                             int x_entry_bytes, const PartitionTarget<O>& partition = PartitionTarget<O>(),
                             const std::function<void()>& after_launch = nullptr);

/// Most bytes small_storage_allocate serves.
constexpr size_t small_storage_max_bytes = size_t(64) << 10;

/// Device memory for the small workspaces of the automatic spmv (a cache-resident matrix's
/// balanced partition: a few kilobytes), from blocks of 1 MiB that the process keeps for its
/// lifetime, one set per device: a block costs no runtime call once the first is made, where
/// cudaMalloc/hipMalloc costs microseconds, a fair part of a first spmv that must stay within a
/// few SpMVs. nullptr for more than small_storage_max_bytes. Thread-safe. A block belongs to
/// the device current when it was allocated, which must be current again when it is given back.
void* small_storage_allocate(size_t bytes);
/// Gives back what small_storage_allocate gave, for the same bytes, after waiting for the device
/// (work in flight may still read it), as cudaFree would.
void small_storage_free(void* p, size_t bytes);

/// y = alpha*A*x + beta*y, blocked ELLPACK with slice_height == wave_size().
template <class S, class O, class Off>
void blocked_ell(void* stream, int slice_height, int64_t num_rows, const Off* slice_offsets, const O* cols,
                 const S* vals, const O* permutation, const S* x, S* y, S alpha, S beta);

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
