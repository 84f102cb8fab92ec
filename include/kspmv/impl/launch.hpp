#pragma once
// Every launch heuristic of kspmv lives here, as plain functions that tests can call.
// Kernels take the shapes chosen here as arguments and decide nothing themselves.

#include <Kokkos_Core.hpp>

#include "../spmv_options.hpp"
#include "raw.hpp"

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace kspmv {
namespace impl {

/// The SIMD width kernels may group lanes over: a CUDA warp (32), a HIP wavefront (64), or 1 on
/// host backends, where vector lanes are a loop the compiler may vectorise.
template <class ExecSpace>
constexpr int warp_width() {
#if defined(KOKKOS_ENABLE_CUDA)
  if (std::is_same<ExecSpace, Kokkos::Cuda>::value) return 32;
#endif
#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
  if (std::is_same<ExecSpace, Kokkos::HIP>::value) return 64;
#else
  if (std::is_same<ExecSpace, Kokkos::Experimental::HIP>::value) return 64;
#endif
#endif
  return 1;
}

template <class ExecSpace>
constexpr bool is_gpu_space() {
  return warp_width<ExecSpace>() > 1;
}

/// Whether the hand-written HIP/CUDA kernels (impl/raw.hpp) can run on ExecSpace for these
/// types: a CUDA or HIP build of kspmv (KSPMV_HAVE_RAW_GPU) and a GPU execution space.
template <class ExecSpace, class S, class O, class Off>
constexpr bool raw_available() {
#if defined(KSPMV_HAVE_RAW_GPU)
  return is_gpu_space<ExecSpace>() && raw::supports<S, O, Off>();
#else
  return false;
#endif
}

/// Largest power of two <= average entries per row, clamped to [1, warp]. A group wider than
/// the row wastes lanes; a narrower one leaves the row's loads serialised.
inline int lanes_for_average_row_length(double average_row_length, int warp) {
  int lanes = 1;
  while (lanes * 2 <= warp && lanes * 2 <= average_row_length) lanes *= 2;
  return lanes;
}

/// Lanes per row of the raw vector CSR kernel, whose lanes each keep 4 entries in flight: the
/// largest power of two <= a third of the average row, clamped to [4, wave]. Measured on the
/// H200 against every power of two: best or within 2% of best on bcsstk13 x1000 (42 a row: 8
/// lanes, 359 us against 483 us for 32), Groebner x500 (35: 8), cage10 x600 (13: 4) and
/// wiki-Vote x1000 (12.5: 4); neutral on the cache-resident matrices.
inline int raw_vector_lanes(double average_row_length, int wave) {
  int lanes = 4;
  while (lanes * 2 <= wave && lanes * 2 * 3 <= average_row_length) lanes *= 2;
  return lanes < wave ? lanes : wave;
}

/// Average row length from which the automatic choice uses the vector kernel on a GPU.
/// Measured on the H200 (perf_tests/results/h200): thread-per-row was 1.4-2.1x faster than
/// vector CSR on 7-point Poisson (7 per row), banded (11), cage10 (13) and poly_chain (16)
/// matrices, because a thread walking its whole row keeps more independent loads in flight;
/// from 27 per row on, the two were within 15% either way (27-point Poisson: vector 14% faster).
inline constexpr double gpu_vector_min_average_row_length = 24.0;

/// The automatic CSR choice: the vector kernel on GPUs once rows average
/// gpu_vector_min_average_row_length entries, the thread-per-row kernel otherwise and on host
/// backends (where a row gets one lane anyway).
inline Algorithm choose_csr_algorithm(double average_row_length, int warp) {
  const bool vector = warp > 1 && average_row_length >= gpu_vector_min_average_row_length;
  return vector ? Algorithm::csr_vector : Algorithm::csr_scalar;
}

/// Launch shape of the vector CSR kernel.
struct CsrVectorShape {
  int lanes_per_row;    // vector length of the team policy
  int team_size;        // team threads, each owning rows_per_thread consecutive rows
  int rows_per_thread;  // rows each team thread processes
  bool team_size_forced;  // the caller chose team_size: report rather than adjust it if too large
  int64_t rows_per_team() const { return int64_t(team_size) * rows_per_thread; }
};

inline bool is_power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }

/// GPU: 256 threads per block (lanes x team threads), one row per team thread, so a block has
/// 256 / lanes rows in flight: enough independent loads to cover memory latency with blocks of
/// 8 warps. Host: one thread per team working on a chunk of rows large enough to amortise the
/// team dispatch (rows_per_thread 256 for short rows, 64 otherwise), as KokkosKernels does.
/// Options that are non-zero override the corresponding choice.
template <class ExecSpace>
CsrVectorShape csr_vector_shape(int64_t num_rows, int64_t nnz, const SpmvOptions& options) {
  constexpr int warp = warp_width<ExecSpace>();
  const double average = num_rows > 0 ? double(nnz) / double(num_rows) : 0.0;
  CsrVectorShape s{};
  s.team_size_forced = options.team_size > 0;
  s.lanes_per_row = options.lanes_per_row > 0 ? options.lanes_per_row : lanes_for_average_row_length(average, warp);
  if (is_gpu_space<ExecSpace>()) {
    s.team_size = options.team_size > 0 ? options.team_size : 256 / s.lanes_per_row;
    s.rows_per_thread = options.rows_per_thread > 0 ? options.rows_per_thread : 1;
  } else {
    s.team_size = options.team_size > 0 ? options.team_size : 1;
    s.rows_per_thread = options.rows_per_thread > 0 ? options.rows_per_thread : (average < 20 ? 256 : 64);
  }
  return s;
}

/// Load-balanced CSR shape. GPU: teams of 256 lanes (team_size x lanes) own blocks of nonzeros
/// sized so each team thread gets about two rows of average length (at least 1024 entries);
/// lanes per row follow the automatic CSR choice (one lane below 24 entries per row, measured in
/// gpu_vector_min_average_row_length); a row segment of 128 entries or more in a block is summed
/// by the whole team; matrices too small for 512 such blocks get smaller ones. For the raw
/// kernel (`raw`), blocks of raw::balanced_max_entries, the most it stages in shared memory (8
/// entries a thread), or smaller ones for 512 blocks. Host: one thread per team walks blocks of
/// 8192 nonzeros.
struct BalancedShape {
  int lanes;
  int team_size;
  int64_t entries_per_block;
  int64_t team_row_min;  // in-block row segments at least this long are reduced by the whole team
};
template <class ExecSpace>
BalancedShape balanced_shape(double average_row_length, int64_t nnz, bool raw = false) {
  if (is_gpu_space<ExecSpace>()) {
    const int lanes = average_row_length < gpu_vector_min_average_row_length
                          ? 1
                          : lanes_for_average_row_length(average_row_length, warp_width<ExecSpace>());
    const int team_size = 256 / lanes;
    const double per_block = 2.0 * team_size * (average_row_length > 1 ? average_row_length : 1.0);
    int64_t entries = raw ? raw::balanced_max_entries
                          : (per_block < 1024 ? 1024 : (per_block > 16384 ? 16384 : int64_t(per_block)));
    // Small matrices: at least 512 blocks (down to 256 entries each), or most of the GPU idles.
    const int64_t spread = nnz / 512 < 256 ? 256 : nnz / 512;
    if (spread < entries) entries = spread;
    return {lanes, team_size, entries, 128};
  }
  return {1, 1, 8192, int64_t(1) << 62};
}

/// Threads per block of the raw balanced kernel. Its blocks stage 2048 products in shared memory;
/// 512 threads of 4 entries leave the SM twice the L1 for x of 256 threads of 8, with half the
/// loads in flight. On the H200 (experiment outside the repository, same partition) 512 threads
/// were 2.1% faster on uniform random, 3.0% on power law and 1.0% on heavy rows, whose columns
/// are random over an x of 64-128 MB, and 7-25% slower on the replicated real matrices and
/// bcsstk13, whose gathers stay near the diagonal. So 512 when most sampled rows gather far from
/// their diagonal (far_fraction: the mean over rows of the share of entries with
/// |col - row*n/m| > n/8) and x is larger than the L2 cache.
constexpr int raw_balanced_default_block_threads = 256;
inline int raw_balanced_block_threads(double far_fraction, double x_bytes, double l2_bytes) {
  return far_fraction > 0.5 && l2_bytes > 0 && x_bytes > l2_bytes ? 512 : raw_balanced_default_block_threads;
}

/// Whether the raw balanced kernel finishes rows spanning blocks in its own launch (the last
/// block to reach such a row adds the partials) rather than in a second kernel. Measured on the
/// H200: one launch took 6.4-8.7 us on the cache-resident matrices against 9.1-10.5 us for two,
/// but was 9-24% slower on the large regular ones, where nearly every block counts itself in a
/// row it shares (an atomic round trip before it can exit); so one launch up to 4096 blocks
/// (8 million entries).
inline bool raw_balanced_single_pass(int64_t num_blocks) { return num_blocks <= 4096; }

/// Blocked ELLPACK slice height when the caller does not choose one: a warp or wavefront on GPUs,
/// so one slice is one coalesced load per slot; 8 on host backends (a cache line of doubles).
template <class ExecSpace>
constexpr int default_slice_height() {
  return is_gpu_space<ExecSpace>() ? warp_width<ExecSpace>() : 8;
}

/// Blocked ELLPACK team shape: on GPUs a team of 256 threads covers 256 / slice_height slices
/// (one thread per row); on host backends one thread walks 64 slices in a row.
struct BlockedEllShape {
  int team_size;
  int slices_per_team;
};
template <class ExecSpace>
BlockedEllShape blocked_ell_shape(int slice_height) {
  if (is_gpu_space<ExecSpace>()) {
    const int slices = slice_height >= 256 ? 1 : 256 / slice_height;
    return {slices * slice_height, slices};
  }
  return {1, 64};
}

/// DIA's fill (CSR to DIA): a thread per row writes its row's value on every diagonal, so the
/// writes of a team are coalesced. On GPUs a team first copies its rows' entries into scratch,
/// coalesced: a thread walking its own row in global memory read 27-entry rows (27-point
/// Poisson) at a fifth of the bandwidth, each warp touching 32 lines per step and the SM's
/// lines evicted before their next entries were used. Teams of 256 rows, halved (down to 32)
/// until the average row rounded up plus one entry a row fit in 44 KB of scratch (Kokkos offers
/// 48 KB a team without opting in); a team whose rows hold more entries than that reads them from
/// global memory. Measured on the H200 (experiment outside the repository): 27-point Poisson
/// 200^3 10.2 ms to 2.3 ms with teams of 128 rows (2.7 ms with 64), 7-point Poisson 300^3 and an
/// 11-diagonal band of 32 million rows 1.9 to 1.4 ms and 7.0 to 2.5 ms with teams of 256. Host
/// backends: one thread walks 256 rows, nothing staged.
struct DiaFillShape {
  int team_size;
  int64_t rows_per_team;
  int64_t staged_entries;  // scratch entries per team; 0: none
};
template <class ExecSpace>
DiaFillShape dia_fill_shape(double average_row_length, int entry_bytes) {
  if (!is_gpu_space<ExecSpace>()) return {1, 256, 0};
  constexpr double budget = 44 * 1024;
  const int64_t per_row = int64_t(std::ceil(average_row_length)) + 1;
  int rows = 256;
  while (rows > 32 && double(rows * per_row) * entry_bytes > budget) rows /= 2;
  const int64_t fit = int64_t(budget) / entry_bytes;
  return {rows, rows, rows * per_row < fit ? rows * per_row : fit};
}

/// Entries per thread of the deterministic COO kernel: few on GPUs, where many threads hide
/// latency; large chunks on host backends, where a thread streams its chunk.
template <class ExecSpace>
constexpr int coo_chunk_size() {
  return is_gpu_space<ExecSpace>() ? 16 : 4096;
}

/// HYB's ELLPACK width from the row-length histogram (histogram[L] = rows of length L): the width
/// w minimising the bytes stored, w*num_rows*(value + index) for the ELL part plus
/// overflow(w)*(value + 2 indices) for the COO part, overflow(w) = sum over rows of max(0, L - w).
/// Ties go to the smaller width.
inline int64_t hyb_width_minimizing_bytes(const std::vector<int64_t>& histogram, int64_t num_rows,
                                          size_t value_bytes, size_t index_bytes) {
  if (histogram.empty()) return 0;
  const int64_t max_length = int64_t(histogram.size()) - 1;
  int64_t longer = 0;    // rows longer than w
  int64_t overflow = 0;  // entries beyond w
  int64_t best_width = max_length;
  double best_bytes = double(max_length) * num_rows * (value_bytes + index_bytes);
  for (int64_t w = max_length - 1; w >= 0; --w) {
    longer += histogram[size_t(w + 1)];
    overflow += longer;
    const double bytes = double(w) * num_rows * (value_bytes + index_bytes) + double(overflow) * (value_bytes + 2 * index_bytes);
    if (bytes <= best_bytes) {
      best_bytes = bytes;
      best_width = w;
    }
  }
  return best_width;
}

}  // namespace impl
}  // namespace kspmv
