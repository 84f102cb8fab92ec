#pragma once
// Every launch heuristic of kspmv lives here, as plain functions that tests can call.
// Kernels take the shapes chosen here as arguments and decide nothing themselves.

#include <Kokkos_Core.hpp>

#include "../spmv_options.hpp"
#include "raw.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
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

// The native stream of a CUDA or HIP execution space instance, where the raw kernels run and
// the unit in which GPU work is ordered; nullptr on host backends.
template <class ExecSpace>
void* native_stream(const ExecSpace& space) {
#if defined(KOKKOS_ENABLE_CUDA)
  if constexpr (std::is_same<ExecSpace, Kokkos::Cuda>::value) return space.cuda_stream();
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
  if constexpr (std::is_same<ExecSpace, Kokkos::HIP>::value) return space.hip_stream();
#endif
  (void)space;
  return nullptr;
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

/// Several vectors (rank-2 x and y, impl/csr_multivector.hpp): the vectors one pass over A
/// serves, each a sum a lane keeps in registers: 4 for up to 4 vectors, else 8 (16 doubles'
/// sums and their gathers would take half the registers of a thread).
inline int multivector_columns_per_pass(int64_t num_vectors) { return num_vectors <= 4 ? 4 : 8; }

/// Lanes per row of the raw multivector kernel: the largest power of two <= a quarter of the
/// average row, clamped to [1, wave]. A lane's step gathers a line of x for each of its vectors
/// and every lane ends with one group sum per vector: fewer, busier lanes than a single vector's.
/// From 4 vectors on (num_vectors) rows of 4 to 7 entries on average get 2 lanes rather than 1:
/// a lane walking its row alone, each load of a warp touches 32 rows' lines, which the L1 of so
/// many threads lost between a lane's steps (Nsight Compute, 7-point Poisson 300^3 in
/// LayoutLeft: L1 hit rate 42%, half of the sectors excess). In a raw lab on the H100
/// (perf_tests/results/h100_vectors_2026-11-26/lab/) 2 lanes took 0.37-0.97x the time of 1 in
/// LayoutRight and 0.53-0.86x in LayoutLeft on poisson7, delaunay_n14, fe_4elt2, ct2010
/// replicated, dw8192 0.75x and 1.07x; on luxembourg_osm (2 entries a row) 1.08-1.16x, hence
/// the 4 entries. At 8 vectors in LayoutLeft on the 46 real matrices of perf_tests/matrices
/// replicated (H100, perf_tests/results/h100_vectors_structure_2026-11-26/), of the 15 whose rows
/// take this rule, 2 lanes took 0.73-0.98x the time of 1 on 11 (add32, delaunay_n14, crack,
/// trpcage_8K) and 1.01-1.06x on 4 (epb1, dw8192, Franz6, commanche_dual); the rule held 4
/// vectors alone before (the kernel's one-pass form of 4: 32 registers a thread).
/// Where every gather waits on memory (gathers_miss_cache: scattered over more of X than the L2
/// holds), lanes enough for at most 2 entries of the average row each (the fewest, a power of
/// two up to the wave), so that more of a row's gathers are in flight at once. Measured on the H100
/// (perf_tests/results/h100_vectors_reach_2026-11-26/), uniform random (16 random columns of 16
/// million a row) at 2 and 4 vectors in both layouts: 8 lanes took 0.94-0.95x the time of 4 and
/// 0.84-0.85x that of 2 (this rule's choice there before: a quarter of 15.997 entries is under
/// 4), 16 lanes the same as 8, 32 lanes 1.19-1.21x.
inline int raw_multivector_lanes(double average_row_length, int wave, int64_t num_vectors = 0,
                                 bool gathers_miss_cache = false) {
  if (gathers_miss_cache) {
    int lanes = 1;
    while (lanes < wave && lanes * 2 < average_row_length) lanes *= 2;
    return lanes;
  }
  const int lanes = lanes_for_average_row_length(average_row_length / 4, wave);
  return lanes == 1 && num_vectors >= 4 && average_row_length >= 4 && wave >= 2 ? 2 : lanes;
}

/// Several vectors with X column-major (LayoutLeft: each vector's entries contiguous): an entry's
/// gathers read a separate 32-byte sector of every vector, where row-major X (a row's k values
/// together) gives k*8 contiguous bytes, a sector for 4 vectors. Where neighbouring rows share
/// few lines of x, windows of 32 rows gathering more than raw_stage_x_min_lines_per_entry
/// distinct lines an entry (raw::RowStatistics: measured on matrices beyond the cache; the mark
/// at which the balanced kernel takes each gather as a wait on memory), the raw kernels read a
/// row-major copy made for the call: n*k*8 bytes written and read once more against up to 3 of
/// every 4 sectors of the gathers. Where rows share lines, the caches serve both layouts alike.
/// From row_major_min_vectors vectors on, the lanes kernel (lanes_per_row below a wave; 0: not
/// the lanes kernel) reads the copy from raw_stage_x_row_lanes_min_lines_per_entry lines an
/// entry, the row lanes (row_major_multivector_kernel) taking its place: an entry's 8 vectors are
/// then 2 sectors instead of 8. At 8 vectors on the 46 real matrices of perf_tests/matrices and
/// the suite's 7 replicated (H100, perf_tests/results/h100_vectors_structure_2026-11-26/), the copy
/// and the row lanes took 0.67-0.92x the time of the lanes kernel at its best width on 7 of the 9
/// of even rows between 0.25 and 0.75 lines an entry (EX5, crack, vsp_data_and_seymourl, ct2010,
/// lp_nug20, bcspwr10, ca-GrQc), 0.99x on p2p-Gnutella09 and 1.96x on wood1p (288 entries a row:
/// the lanes kernel a wave a row, left as it is); 0.98-1.0x at 0.19-0.25 (Groebner,
/// ego-Facebook, email-Eu-core), 1.2-1.6x below (pilot87, cage10, commanche_dual).
constexpr double raw_stage_x_min_lines_per_entry = 0.75;
constexpr double raw_stage_x_row_lanes_min_lines_per_entry = 0.25;
constexpr int64_t row_major_min_vectors = 5;
inline bool stage_x_row_major(int64_t x_row_stride, int64_t num_vectors, double window_lines_per_entry,
                              int lanes_per_row = 0, int wave = 0) {
  const bool row_lanes = num_vectors >= row_major_min_vectors && lanes_per_row > 0 && lanes_per_row < wave;
  return x_row_stride == 1 && num_vectors >= 2 &&
         window_lines_per_entry > (row_lanes ? raw_stage_x_row_lanes_min_lines_per_entry
                                             : raw_stage_x_min_lines_per_entry);
}

/// Whether the gathers of num_vectors vectors miss the cache whatever their order: scattered
/// (more than raw_stage_x_min_lines_per_entry distinct lines an entry) over more of X than the
/// L2 holds (a window's reach, raw::RowStatistics, times the vectors). Graphs replicated
/// block-diagonally (ca-CondMat, cs4) scatter within a replica's x, which the cache holds.
/// False where the cache's size is unknown (0).
inline bool gathers_miss_cache(double window_lines_per_entry, double window_reach_bytes, int64_t num_vectors,
                               double cache_bytes) {
  return cache_bytes > 0 && window_lines_per_entry > raw_stage_x_min_lines_per_entry &&
         window_reach_bytes * double(num_vectors) > cache_bytes;
}

/// The raw multivector kernels: lanes per row (raw_multivector_lanes), unless the longest row at
/// that width would take more steps than an average resident thread's share of the entries (the
/// rule of mode T's transpose_candidates, for the same reason); then the balanced partition
/// (raw::csr_multivector_balanced, two vectors a pass), or, where the gathers of x scatter (more
/// than raw_stage_x_min_lines_per_entry distinct lines an entry, as stage_x_row_major) but for
/// scattered_gathers_stay_in_cache, the entries split evenly over waves (raw::csr_multivector_entries, 4 or 8 vectors a pass on a
/// row-major X: a sector of x serves 4 vectors, where a pass a vector gathers each line again
/// for every pair of vectors). Measured on the H200 (perf_tests/results/h200_vectors_balanced/),
/// at 4, 8 and 16 vectors: the balanced kernel took 0.30-0.70x the split entries' time on
/// rajat01, arrow and wiki-Vote replicated in LayoutLeft (0.09, 0.07, 0.64 lines an entry) and
/// 0.44-0.93x in LayoutRight but for arrow at 16 vectors (1.35x: rows of 2 entries, whose y it
/// writes a vector at a time, 16 entries apart); 1.7-3.6x on power_law and heavy_rows (about 1
/// line an entry).
/// Where a window's scattered gathers reach little of x (replicated graphs: a replica's x), all
/// vectors' reach within gathers_in_cache_max_fraction of the L2, the balanced kernel: at 8
/// vectors on the H100 (perf_tests/results/h100_vectors_structure_2026-11-26/) it took 0.59-0.61x
/// the split entries' time in LayoutLeft, and the chunks 0.43-0.83x in LayoutRight, on lp_dfl001
/// and fit2d (0.87 and 0.90 lines an entry, windows reaching 74 and 122 KB: 1.2 and 2 MB at 16
/// vectors). The mark, an eighth of the L2, is set between those and heavy_rows (windows
/// reaching 5.9 MB: 12 MB at 2 vectors), on which the balanced kernel and the chunks took
/// 1.8-2.8x the split entries' time at 4 and 8 vectors with the whole L2 as the mark. Not on a
/// row-major X below row_major_min_vectors (x_row_major), where no chunks replace the balanced
/// kernel, which writes a row-major Y a vector at a time: fit2d at 4 vectors in LayoutRight took
/// 1.45x the split entries' time there.
constexpr double gathers_in_cache_max_fraction = 0.125;
inline bool scattered_gathers_stay_in_cache(double window_lines_per_entry, double window_reach_bytes,
                                            int64_t num_vectors, double cache_bytes, bool x_row_major = false) {
  return cache_bytes > 0 && window_lines_per_entry > raw_stage_x_min_lines_per_entry &&
         window_reach_bytes * double(num_vectors) <= gathers_in_cache_max_fraction * cache_bytes &&
         !(x_row_major && num_vectors < row_major_min_vectors);
}
enum class MultivectorKernel { lanes, balanced, entries, row_lanes, chunks };
constexpr int raw_multivector_entries_per_lane = 16;
inline MultivectorKernel multivector_kernel(int64_t num_rows, int64_t nnz, int64_t longest_row, int wave,
                                            int64_t resident_threads, double window_lines_per_entry,
                                            bool scattered_in_cache) {
  const int lanes = raw_multivector_lanes(num_rows > 0 ? double(nnz) / double(num_rows) : 0.0, wave);
  const double per_thread = double(nnz) / double(resident_threads > 0 ? resident_threads : 1);
  if (double(longest_row) / double(lanes) <= per_thread) return MultivectorKernel::lanes;
  return window_lines_per_entry > raw_stage_x_min_lines_per_entry && !scattered_in_cache ? MultivectorKernel::entries
                                                                                          : MultivectorKernel::balanced;
}

/// On a row-major X (a row's vectors contiguous: LayoutRight, or the copy stage_x_row_major
/// makes) from row_major_min_vectors vectors on, the kernels with their lanes over the vectors
/// instead (src/raw/csr_multivector_row_lanes.hpp, csr_multivector_chunks.hpp): each entry's
/// gathers one contiguous read of the row's vectors by a group of lanes. lanes becomes row_lanes,
/// balanced (uneven rows) chunks; the split entries stay. Measured in a raw lab on the H200
/// (perf_tests/results/h200_vectors_row_lanes/lab/, 50-190M entries, LayoutRight): at 8 vectors
/// the row lanes took 0.53-0.76x the lanes kernel's time on 7 matrices of even rows, the chunks
/// 0.35-0.66x the balanced kernel's on rajat01, wiki-Vote, arrow, ca-CondMat; at 4 vectors (a row
/// of X one sector, which the entries' lanes share) the row lanes took 1.07-1.49x the lanes
/// kernel's time on 5 matrices. In the suite, their first form beside the code before in one
/// call (h200_vectors_row_lanes/call3_first_form/): the plain call at 8 vectors in LayoutRight
/// 0.44-0.68x its time before on the 7 real matrices, 0.51-0.83x on the 4 generated ones it
/// changed (power_law and heavy_rows keep the split entries).
/// Below 5 vectors the split entries were also tried where gathers scatter: on uniform random at
/// 4 vectors (H100) 0.91-0.94x the time of the lanes kernel at 2 lanes a row, but 1.3-2.4x on
/// ca-CondMat, ca-HepTh and cs4 replicated (perf_tests/results/h100_vectors_2026-11-26/); the
/// lanes kernel at 8 lanes a row beat both on uniform random (raw_multivector_lanes).
/// Rows whose lengths vary more than their mean (CsrStructure::row_length_variation above
/// row_major_chunks_min_variation) take the chunks rather than the row lanes where Y is row-major
/// too (y_row_major): a group a row waits on its longest rows where a chunk's entries are even.
/// At 8 vectors in LayoutRight (H100, perf_tests/results/h100_vectors_structure_2026-11-26/) the
/// chunks took 0.45-0.93x the row lanes' time on 10 of the 13 matrices of even rows (by
/// multivector_kernel) so varied (wood1p 0.45x, ego-Facebook, ca-GrQc, ca-CondMat, orani678,
/// ca-HepTh, pilot87, email-Eu-core, Groebner, p2p-Gnutella09), the same on tomography, 1.21x and
/// 1.28x on vsp_data_and_seymourl and bayer10; 1.2-2.0x on rows varying less (add32, bcsstk13,
/// OPF_3754, cage10; the Poissons and the band in an earlier call). A column-major Y stays with
/// the row lanes: the chunks write a row's vectors a sector each there, rows apart from their
/// neighbours' (through the copy 2.1x the row lanes' time on p2p-Gnutella09, 1.5x on ca-HepTh).
constexpr double row_major_chunks_min_variation = 1.0;
/// Where a run of rows is too long for one balanced block (raw::RowStatistics::crowded_run > 0:
/// a run of 32768 or more rows starting within 2048 entries, nearly all empty), no chunks: the
/// run lies in the chunk where the next row's entries start, and its group walks it a row at a
/// time; the row lanes instead of the lanes' chunks, the balanced kernel (a block's pass of rows
/// at a time, as raw_balanced_walk_seconds) kept. On 100 runs of 60000 empty rows beside rows of
/// 24 entries, at 8 vectors in LayoutRight the chunks took 1107 us, the row lanes 536; beside
/// rows of 60000 entries the chunks 7302, the balanced kernel 2833 (one H200,
/// perf_tests/results/gpu_crowded_runs/multivector_h200/).
inline MultivectorKernel row_major_multivector_kernel(MultivectorKernel kernel, int64_t num_vectors,
                                                      double row_length_variation = 0.0, bool y_row_major = false,
                                                      int64_t crowded_run = 0) {
  if (num_vectors < row_major_min_vectors) return kernel;
  if (kernel == MultivectorKernel::lanes) {
    return y_row_major && row_length_variation > row_major_chunks_min_variation && crowded_run <= 0
               ? MultivectorKernel::chunks
               : MultivectorKernel::row_lanes;
  }
  if (kernel == MultivectorKernel::balanced && crowded_run <= 0) return MultivectorKernel::chunks;
  return kernel;
}

/// The ways the plain call may run several vectors in mode N on the raw kernels: the kernel the
/// rules above choose for X and Y as they are (`as_is`: multivector_kernel,
/// row_major_multivector_kernel, stage_x_row_major); column-major X and Y `staged` row-major (X
/// copied row-major, Y computed row-major and added back: csr_multivector.hpp, add_row_major) so
/// that the kernels of row-major X and Y run; the `balanced` kernel on X and Y as they are; the
/// `chunks` on a row-major X.
enum class MultivectorWay { as_is, staged, balanced, chunks };

/// The ways worth timing on A's first call with these layouts and vector count (as_is first; one
/// way: nothing to time), the fastest kept with A's analysis (csr_multivector.hpp:
/// fastest_multivector_way). The rules' choice loses to another way on some matrices and wins on
/// others, by margins no structural quantity of CsrStructure told apart:
///  - column-major X and Y: staged, and the balanced kernel where the rules chose another and the
///    gathers do not miss the cache (gathers_miss_cache: the balanced kernel gathers a pass's
///    scattered lines again for every pair of vectors, 1.7-3.6x the split entries' time on
///    power_law and heavy_rows, above; timing it there made the first call on uniform_random at
///    8 vectors in LayoutLeft 17 calls' time, perf_tests/results/h200_multivector_ways/).
///    Staging costs 16*k*(m + n) bytes more (for double) and two launches; the kernels it
///    reaches write Y a row at a time where the column-major ones write a sector for each value.
///    On the H200 at 8 vectors (perf_tests/results/h200_multivector_lab_2026-11-26/staged/) it
///    took 0.64-0.88x the plain call's time on wiki-Vote, Groebner, ego-Facebook, email-Eu-core,
///    ca-CondMat, wood1p, tech-WHOIS, orani678, 1.10-2.74x on rajat01, arrow, bcsstk13,
///    poly_chain, cage10, p2p-Gnutella09, lp_d6cube. The balanced kernel: p2p-Gnutella09 x1923
///    (rows of 3.2 entries, at most 61: the lanes kernel by the rules, its gathers scattered)
///    took 2322 us in the plain call that staged, 1645 on the balanced kernel at 8 vectors, 1235
///    and 864 at 4 (perf_tests/results/h200_multivector_ways/); 1.3-2.4x the plain call's time on
///    the other matrices of those records where the rules chose another kernel.
///  - a row-major X: the chunks where the rules chose another kernel (below row_major_min_vectors
///    they keep the balanced kernel and the lanes; from it on, the row lanes and split entries).
///    At 4 vectors in LayoutRight on the H200 (h200_multivector_ways/) the chunks took 0.67x the
///    plain call's time on wiki-Vote x1000 and 0.74x on ca-CondMat x274 (the balanced kernel and
///    the lanes kernel by the rules), 1.01-1.27x on rajat01 and arrow; at 8 vectors 0.87x on
///    power_law and 1.84x on heavy_rows against the split entries (H100,
///    h100_multivector_gather_lab/).
/// No chunks where a run of rows is too long for one balanced block (crowded_run > 0,
/// row_major_multivector_kernel): their group would walk it a row at a time.
inline std::vector<MultivectorWay> multivector_ways(int64_t x_row_stride, int64_t x_vector_stride,
                                                    int64_t y_row_stride, int64_t num_vectors, int64_t nnz,
                                                    MultivectorKernel as_is_kernel, bool gathers_miss = false,
                                                    int64_t crowded_run = 0) {
  std::vector<MultivectorWay> ways{MultivectorWay::as_is};
  if (num_vectors < 2 || nnz == 0) return ways;
  const bool crowded = crowded_run > 0;
  if (x_row_stride == 1 && y_row_stride == 1) {
    ways.push_back(MultivectorWay::staged);
    if (as_is_kernel != MultivectorKernel::balanced && !gathers_miss) ways.push_back(MultivectorWay::balanced);
  } else if (x_vector_stride == 1 && as_is_kernel != MultivectorKernel::chunks && !crowded) {
    ways.push_back(MultivectorWay::chunks);
  }
  return ways;
}
/// Tests only: -1 (default) times the ways of multivector_ways; a MultivectorWay's number runs
/// that way where multivector_ways offers it (else as_is).
inline int& multivector_way_for_tests() {
  static int forced = -1;
  return forced;
}

/// Mode T's kernels on A (impl/csr_transpose.hpp): a thread per row, lanes per row, the entries
/// split evenly with the rows of a block's entries staged (`entries`) or searched for each.
enum class TransposeKernel { rows, lanes, entries, entries_searched };

/// Lanes per row of mode T's lanes kernel. Where rows repeat the row before them one column to
/// the right (stencils, bands: at least transpose_shifted_min_fraction of the entries, by
/// csr_analysis.hpp: shifted_entry_fraction) and the average row's lanes are 8 or more (a warp
/// on at most 4 rows), 2: the atomics of a warp then fall on the few lines that 16 consecutive
/// rows share, where 8-32 lanes spread one row's over its far-apart runs of columns. Measured on
/// the H200 (perf_tests/results/h200_mode_t_lanes/, three runs): the band of 11 entries a row
/// 2061-2063 us at 2 lanes against 2449-2460 at 8 (KokkosKernels' default 2219-2246); 27-point
/// Poisson 200^3 1597, 1703, 1599 at 2 against 1700-1701 at 16; but the 7-point Poisson 300^3,
/// whose average row gets 4 lanes (8 rows a warp), ran 1377 at 2 against 1215 at 4, so shorter
/// rows keep theirs.
/// (A raw lab kernel of this shape gained more: perf_tests/results/h200_mode_t_lab_1eaa256/.)
/// On bcsstk13 and poly_chain (0.61 and 0.68 of their entries shifted) 2 lanes were 1.4-1.6x
/// slower than their best in the lab. Elsewhere the average row's lanes.
constexpr double transpose_shifted_min_fraction = 0.9;
constexpr int transpose_shifted_min_average_lanes = 8;
template <class ExecSpace>
int transpose_lanes(int64_t num_rows, int64_t nnz, double shifted_fraction) {
  const int average_lanes = csr_vector_shape<ExecSpace>(num_rows, nnz, SpmvOptions()).lanes_per_row;
  return shifted_fraction >= transpose_shifted_min_fraction && average_lanes >= transpose_shifted_min_average_lanes
             ? 2
             : average_lanes;
}

/// The kernels mode T's automatic call chooses from on A; where more than one, the fastest, timed
/// on A's first call (csr_transpose.hpp: time_transpose_kernels). Hosts: a thread per row.
/// GPUs: the split entries, staged and searched, and the lanes kernel unless a row is long
/// enough to hold it up (the longest row's steps at `lanes` per row, longest / lanes, more than
/// the entries an average resident thread takes, nnz / resident threads). No measure of the
/// structure told the fastest apart on the H200 (perf_tests/results/h200_mode_t_entries/): the
/// lanes were 1.1-1.3x faster than the staged entries on meshes and on rows shifted like a
/// stencil's (cage10, dw8192, cti, the 27-point Poisson at 2 lanes) and 1.1-2.1x slower on rows
/// of the same evenness and length elsewhere (bcsstk13, sherman2, lp_fit2p, ScaleMicrogrid);
/// the searched entries beat the staged where many rows share a column. The rule before, by
/// the spread of the row lengths, took the slower of lanes and entries on 7 of the 28 real
/// matrices not tuned on where it took the lanes.
struct TransposeCandidates {
  bool rows = false;     // hosts: the only one
  bool lanes = false;
  bool entries = false;  // both split-entries kernels
  int count() const { return int(rows) + int(lanes) + 2 * int(entries); }
};
template <class ExecSpace>
TransposeCandidates transpose_candidates(int64_t nnz, int64_t longest_row, int lanes, int64_t resident_threads) {
  TransposeCandidates c;
  if (!is_gpu_space<ExecSpace>()) {
    c.rows = true;
    return c;
  }
  const double per_thread = double(nnz) / double(resident_threads > 0 ? resident_threads : 1);
  c.lanes = double(longest_row) / double(lanes > 0 ? lanes : 1) <= per_thread;
  c.entries = true;
  return c;
}

/// Threads per block of the raw balanced kernel. Its blocks stage 2048 products in shared memory;
/// 512 threads of 4 entries leave the SM twice the L1 for x of 256 threads of 8, with half the
/// loads in flight. That pays where neighbouring rows share no lines of x, so that each gather
/// waits on memory: windows of 32 consecutive rows gathering more than 0.75 distinct 128-byte
/// lines of x per entry (raw::RowStatistics). Measured on the H200: 512 threads 1-3% faster on
/// uniform random, power law and heavy rows (random columns, about 1 line an entry) and 2-8%
/// on four graph and mesh matrices replicated to 50 million entries (ca-CondMat, ca-HepTh,
/// lp_dfl001, cs4: 0.81-0.86), 3-11% slower on the graphs at 0.43-0.70 (PGPgiantcompo,
/// p2p-Gnutella09, tech-WHOIS, ct2010, bcspwr10) and 5-26% slower on the other large matrices.
/// Rows of more than 16 entries on average are left at 256: the windows' samples of them (256 of
/// a window's 32 x average entries, evenly spaced) skip the neighbouring columns a row gathers
/// in runs, and overstate the lines (fit2d, 5161 entries a row, replicated: 10% slower at 512).
constexpr int raw_balanced_default_block_threads = 256;
constexpr double raw_balanced_512_min_lines_per_entry = 0.75, raw_balanced_512_max_average = 16;
inline int raw_balanced_block_threads(double window_lines_per_entry, double average_row) {
  return window_lines_per_entry > raw_balanced_512_min_lines_per_entry && average_row <= raw_balanced_512_max_average
             ? 512
             : raw_balanced_default_block_threads;
}

/// Blocks of the raw balanced kernel a multiprocessor holds at once, 0 for as many as fit: the
/// launch asks for the least shared memory that holds them, and NVIDIA's L1 is what shared
/// memory leaves of one 256 KB array (raw::csr_balanced; AMD's L1 is apart: ignored there). A
/// block of 256 threads stages 18.7 KB: 8 fit, leaving about 92 KB of L1 on the H200; 7 leave
/// about 124 KB. Where windows of 32 rows gather more than 0.4 distinct lines of x an entry and
/// the block has 256 threads (up to 0.75 lines, or rows of more than 16 entries, whose samples
/// overstate the lines: raw_balanced_block_threads), 7: measured on the H200 in one call
/// (perf_tests/results/h200_balanced_carveout/call2), 7 blocks took 0.956-0.975x the time of 8
/// on the graphs at 0.43-0.72 lines (email-Enron, ct2010, bcspwr10, p2p-Gnutella09,
/// PGPgiantcompo, replicated to 50 million entries) and wiki-Vote x1000, 0.996x on crack (0.28)
/// and 1.018-1.045x on the meshes under 0.2 lines, where gathers hit L1 anyway and the eighth
/// block's loads in flight count more; wood1p (0.53 lines, 288 entries a row) 1.03x.
constexpr double raw_balanced_fewer_blocks_min_lines_per_entry = 0.4;
constexpr int raw_balanced_fewer_blocks = 7;
inline int raw_balanced_resident_blocks(double window_lines_per_entry, double average_row, int block_threads) {
  return block_threads == 256 && window_lines_per_entry > raw_balanced_fewer_blocks_min_lines_per_entry &&
                 average_row <= raw_balanced_512_max_average
             ? raw_balanced_fewer_blocks
             : 0;
}

/// Whether the raw balanced kernel finishes rows spanning blocks in its own launch (the last
/// block to reach such a row adds the partials) rather than in a second kernel. Measured on the
/// H200: one launch took 6.4-8.7 us on the cache-resident matrices against 9.1-10.5 us for two,
/// but was 9-24% slower on the large regular ones, where nearly every block counts itself in a
/// row it shares (an atomic round trip before it can exit); so one launch up to 4096 blocks
/// (8 million entries). Those were ordinary launches: since the two launches are programmatic
/// dependents on sm_90 (src/raw/kernels.hpp) the second costs less there (about 1.1% of the call
/// on the 53 replicated real matrices, perf_tests/results/h200_balanced_pdl/); the mark was not
/// measured again.
inline bool raw_balanced_single_pass(int64_t num_blocks) { return num_blocks <= 4096; }

/// kspmv::cg's path on its own (CgPath::automatic), from the bytes of A's CSR arrays and CG's
/// six vectors. On a GPU a separate-kernel iteration costs four launches (a few microseconds
/// each) whatever the size, which on a system held in the caches is more than its arithmetic:
/// there one kernel runs the whole solve. The cooperative grid kernel (raw GPU kernels) up to
/// cg_fused_grid_max_bytes; beyond it the Plan's kernels, tuned to the structure, stream A better
/// than the grid kernel's lanes a row. Measured on an H100 with the raw vector steps of the
/// separate path (src/raw/cg_steps.hpp), an iteration of the grid kernel grows with the system
/// (poisson27_32^3, 11.7 MB: 21 us; poisson7_64^3, 35.4 MB: 30 us; poisson27_48^3, 40.1 MB:
/// 44 us) while the separate path's stays near its launches' 25 us where its SpMV is small (34,
/// 31 and 36 us): the grid kernel wins clearly up to about a third of that L2 and the two are
/// even near 35 MB; 32 MB, about two thirds of the H100's 50 MB L2 (the H200 has 60 MB), leaves
/// the grid kernel the systems it wins by a margin (poisson7_64^3 lost 5% by the change; 9% on
/// the H200, where poisson27_48^3 gained 17%: perf_tests/results/h200_cg_1eaa256/).
/// Without the raw kernels, one team for systems within the 256 KiB of an H100/H200 SM's L1 and
/// shared memory (cg_fused_team_max_bytes). On host backends the separate kernels, which use
/// every thread. The fused paths keep their residual history on the device: at most
/// cg_fused_max_iterations.
constexpr double cg_fused_grid_max_bytes = 32e6;
constexpr double cg_fused_team_max_bytes = 256 * 1024;
constexpr int64_t cg_fused_max_iterations = int64_t(1) << 20;
enum class CgKernel { separate, fused_team, fused_grid };  // kspmv::CgPath's paths
template <class ExecSpace>
CgKernel cg_path(double system_bytes, int64_t max_iterations, bool grid_available) {
  if (!is_gpu_space<ExecSpace>() || max_iterations > cg_fused_max_iterations) return CgKernel::separate;
  if (grid_available && system_bytes <= cg_fused_grid_max_bytes) return CgKernel::fused_grid;
  if (system_bytes <= cg_fused_team_max_bytes) return CgKernel::fused_team;
  return CgKernel::separate;
}

/// kspmv::cg's separate path: after a check at iteration k, the host next reads the halt codes
/// at k + cg_check_interval(k). Each read waits for the GPU to drain (a round trip of about an
/// iteration of a cache-resident system); iterations launched past the stopping one cost their
/// SpMV. With the two about equal, checking every sqrt(2k) iterations balances them
/// (k / c round trips against c / 2 wasted iterations). On host backends every iteration:
/// their kernels run in order and a read waits for nothing. A fixed interval may be given.
constexpr int cg_max_check_interval = 64;
template <class ExecSpace>
int cg_check_interval(int64_t iteration, int fixed_interval) {
  if (fixed_interval > 0) return std::min(fixed_interval, cg_max_check_interval);
  if (!is_gpu_space<ExecSpace>()) return 1;
  const int c = int(std::ceil(std::sqrt(2.0 * double(iteration))));
  return std::max(1, std::min(c, cg_max_check_interval));
}

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

/// The kernels the automatic spmv on a CsrMatrix chooses among, once per matrix and execution
/// space (impl/csr_analysis.hpp keeps the choice with the matrix). None converts the matrix.
enum class CsrKernel {
  thread_per_row,  ///< Kokkos: a thread walks each row (impl/csr_scalar.hpp)
  vector,          ///< Kokkos: a group of lanes per row (impl/csr_vector.hpp)
  balanced,        ///< Kokkos: blocks of equally many nonzeros (impl/csr_balanced.hpp)
  raw_vector,      ///< raw HIP/CUDA vector CSR (src/raw/kernels.hpp)
  raw_balanced,    ///< raw HIP/CUDA load-balanced CSR
  host_rows,       ///< host backends: chunks of rows of equal work (impl/csr_host_rows.hpp)
};

inline const char* to_string(CsrKernel k) {
  switch (k) {
    case CsrKernel::thread_per_row: return "thread_per_row";
    case CsrKernel::vector: return "vector";
    case CsrKernel::balanced: return "balanced";
    case CsrKernel::raw_vector: return "raw_vector";
    case CsrKernel::raw_balanced: return "raw_balanced";
    case CsrKernel::host_rows: return "host_rows";
  }
  return "unknown";
}

/// What the automatic choice knows of a CSR matrix: its sizes and bytes (from the host), and
/// what one pass over its rows measures on the device (raw::row_statistics; the Kokkos kernels'
/// GPU path measures the longest row alone): row lengths, and on windows of consecutive rows how
/// many distinct lines of x they gather per entry.
struct CsrStructure {
  int64_t rows = 0, cols = 0, nnz = 0;
  int64_t longest_row = 0;
  double length_squares = 0;          // sum over rows of length^2; 0 where not measured
  double window_lines_per_entry = 0;  // see raw::RowStatistics; 0 where not measured
  double window_reach_bytes = 0;      // see raw::RowStatistics; 0 where not measured
  int64_t crowded_run = 0;           // see raw::RowStatistics; 0 where not measured
  double bytes = 0;             // CSR arrays, x and y: the least one SpMV moves
  double x_bytes = 0;
  double average_row() const { return rows > 0 ? double(nnz) / double(rows) : 0.0; }
  /// Standard deviation of the row lengths over their mean.
  double row_length_variation() const {
    const double mean = average_row();
    if (rows == 0 || mean <= 0) return 0.0;
    const double variance = length_squares / double(rows) - mean * mean;
    return variance > 0 ? std::sqrt(variance) / mean : 0.0;
  }
};

/// What the automatic choice knows of the backend.
struct CsrBackend {
  int wave = 1;                  // warp_width: 1 on host backends
  bool raw = false;              // the raw HIP/CUDA kernels run for these types (raw_available)
  double cache_bytes = 0;        // the GPU's L2 cache (raw::l2_cache_bytes), 0 if unknown
  int64_t resident_threads = 0;  // threads the GPU holds at once (raw::resident_threads), 0 if unknown
};

/// The automatic choice: a kernel, its launch shape, and why (kept for reports and tests).
struct CsrChoice {
  CsrKernel kernel = CsrKernel::thread_per_row;
  int lanes_per_row = 1;  // raw_vector
  int block_threads = 0;  // raw_balanced: 256 or 512
  int resident_blocks = 0;  // raw_balanced: blocks a multiprocessor holds at once, 0 as many as fit
  std::string reason;
};

/// Below this many bytes moved (CSR arrays, x and y) a GPU SpMV is bound by its launch and by
/// its longest chain of dependent steps rather than by bandwidth: a quarter of the L2 cache (15 MB
/// on the H200, whose 60 MB L2 holds two copies of lines used by both halves of the chip), or
/// 16 MB where the cache size is unknown.
inline double latency_bound_bytes(double cache_bytes) { return cache_bytes > 0 ? cache_bytes / 4 : 16e6; }

/// Longest row, in dependent steps of 4 loads a lane, that the raw vector kernel keeps on a
/// latency-bound matrix. A step costs about 0.3 us on the H200: a wave per row beat 4 lanes on
/// wiki-Vote (893 entries: 6.1 against 13.6 us), and the balanced partition (7-8 us whatever the
/// rows) beat a wave per row on arrow's 46,500-entry row (128 us).
constexpr int64_t raw_vector_max_steps = 12;
/// The longest row the raw vector kernel keeps on a latency-bound matrix: raw_vector_max_steps
/// steps of a wave a row (latency_bound_lanes gives such a row a wave). Longer, the balanced kernel.
constexpr int64_t latency_bound_vector_max_row(int wave) { return raw_vector_max_steps * 4 * wave; }

/// A row walked by one Kokkos thread (about 80 ns an entry on the H200) outlasts the SpMV of the
/// whole matrix, streamed at about 3 TB/s (4 ps an entry), from about nnz / 20000 entries; the
/// Kokkos balanced kernel, 2-3x slower than a thread per row on regular matrices (0.43-0.62 of
/// copy bandwidth against 0.57-0.82), pays off from twice that. Latency-bound matrices: 256
/// entries (20 us), or 8192 for the vector kernel's lanes.
inline bool kokkos_long_tail(int64_t longest_row, int64_t nnz, bool vector, bool latency_bound) {
  const int64_t cap = vector ? 8192 : 256;
  return longest_row > (latency_bound ? cap : std::max<int64_t>(cap, nnz / 10000));
}

/// Lanes a row of the raw vector kernel on a latency-bound matrix. While a group per row for every
/// row fits on the GPU at once (rows x wave <= resident threads), a whole wave per row shortens
/// each row's chain of dependent loads at no cost; beyond that the extra warps queue, and rows
/// keep raw_vector_lanes. Measured on the H200 on 42 cache-resident matrices whose longest row
/// raw_vector_lanes reaches: a wave per row was within 2% of, or up to 39% faster than,
/// raw_vector_lanes on all 22 with rows x 32 <= 270,336 (132 multiprocessors of 2048 threads), and
/// 5% to 3.5x slower on 18 of the 20 larger ones (6% and 11% faster on OPF_3754 and ca-HepTh).
inline int latency_bound_lanes(const CsrStructure& s, int wave, int64_t resident_threads) {
  const int lanes = raw_vector_lanes(s.average_row(), wave);
  const bool all_resident = resident_threads > 0 && s.rows * int64_t(wave) <= resident_threads;
  return all_resident || s.longest_row > raw_vector_max_steps * 4 * lanes ? wave : lanes;
}

/// A run of rows one block of the raw balanced kernel walks alone (raw::RowStatistics::
/// crowded_run: the longest run of rows that start within one block's 2048 entries, nearly all
/// empty, found at doubling lengths): the block takes a pass of its threads' count of rows at a
/// time, about raw_balanced_row_pass_seconds a pass (H100: 9.7 million empty rows of
/// p2p-Gnutella09 x1923 in one run took 33.8 ms where the matrix in its own order took 0.34 ms,
/// perf_tests/results/h200_plan_locality/lab/row_order/). The longest run, not the sum of the
/// runs: the blocks of separate runs walk them at the same time (a first form summed them, and
/// took the vector kernel on 100 runs of 60000 empty rows beside rows of 60000 entries: 3.1 ms
/// where KokkosKernels' default took 0.32, perf_tests/results/gpu_crowded_runs/multivector_h200/).
/// Where that walk outlasts the raw vector kernel's longest row at `lanes` lanes
/// (raw_vector_step_seconds a step of 4 loads a lane), the vector kernel, which gives each row its
/// own lanes, is taken instead.
constexpr double raw_balanced_row_pass_seconds = 0.9e-6;
constexpr double raw_vector_step_seconds = 0.3e-6;
/// The seconds one balanced block walks the longest run alone (0 where crowded_run is 0);
/// kspmv::Plan charges its raw balanced candidates the same.
inline double raw_balanced_walk_seconds(int64_t crowded_run, int block_threads) {
  if (crowded_run <= 0 || block_threads <= 0) return 0.0;
  return double(crowded_run) / double(block_threads) * raw_balanced_row_pass_seconds;
}
inline bool crowded_run_outlasts_vector(const CsrStructure& s, int block_threads, int lanes) {
  if (s.crowded_run <= 0 || lanes <= 0) return false;
  const double vector_row = std::ceil(double(s.longest_row) / (4.0 * lanes)) * raw_vector_step_seconds;
  return raw_balanced_walk_seconds(s.crowded_run, block_threads) > vector_row;
}

/// The automatic CSR choice, from the structure alone (never from a matrix's name or size class):
/// - host backends: chunks of rows of equal work, long rows reduced by every thread;
/// - GPUs with the raw kernels, latency-bound matrices: raw vector CSR with latency_bound_lanes
///   while its longest row takes at most raw_vector_max_steps steps, the balanced partition
///   beyond;
/// - GPUs with the raw kernels, larger matrices: raw balanced CSR, with 512 threads a block
///   where neighbouring rows share no lines of x (raw_balanced_block_threads), 7 blocks a
///   multiprocessor instead of 8 where they share few (raw_balanced_resident_blocks). Since its stage
///   lost its predicates and 64-bit divisions and took the rows' offsets with the entries (issue
///   15), no other CSR kernel beat it by more than 7% on a large matrix of the H200 record
///   (perf_tests/results/h200: the 6 generated and 7 replicated matrices of the suite, 46 real
///   matrices replicated to 50 million entries). The exceptions kept until then, a thread per row
///   for short alike rows and raw vector CSR for long rows without a long tail, were 0-7% faster
///   on five meshes of 4-7 entries a row (commanche_dual, dw8192, epb1, fe_4elt2, Franz6) and
///   1-15% slower on eight others (7-point Poisson, cti, delaunay_n14, luxembourg_osm, t2d_q9,
///   bcsstk16, tomography, ScaleMicrogrid); no rule on the structure measured separates the two
///   groups, so neither is kept;
/// - GPUs with the raw kernels, either: raw vector CSR instead of the balanced partition where a
///   run of rows one balanced block would walk alone outlasts the longest row
///   (crowded_run_outlasts_vector);
/// - GPUs without them: thread per row or vector lanes by the average row, the Kokkos balanced
///   kernel for a long tail (kokkos_long_tail).
inline CsrChoice choose_csr_kernel(const CsrStructure& s, const CsrBackend& b) {
  CsrChoice c;
  if (b.wave <= 1) {
    c.kernel = CsrKernel::host_rows;
    c.reason = "host backend: chunks of rows of equal work";
    return c;
  }
  const bool latency_bound = s.bytes <= latency_bound_bytes(b.cache_bytes);
  const double average = s.average_row();
  if (b.raw && latency_bound) {
    const int lanes = latency_bound_lanes(s, b.wave, b.resident_threads);
    if (s.longest_row <= raw_vector_max_steps * 4 * lanes) {
      c.kernel = CsrKernel::raw_vector;
      c.lanes_per_row = lanes;
      c.reason = "latency-bound; the longest row takes at most " + std::to_string(raw_vector_max_steps) + " steps";
    } else if (crowded_run_outlasts_vector(s, raw_balanced_default_block_threads, lanes)) {
      c.kernel = CsrKernel::raw_vector;
      c.lanes_per_row = lanes;
      c.reason = "latency-bound; a run of rows too long for one balanced block outlasts the longest row";
    } else {
      c.kernel = CsrKernel::raw_balanced;
      c.block_threads = raw_balanced_default_block_threads;
      c.reason = "latency-bound; balanced partition so no row runs alone";
    }
    return c;
  }
  if (b.raw) {
    const int threads = raw_balanced_block_threads(s.window_lines_per_entry, average);
    const int lanes = raw_vector_lanes(average, b.wave);
    if (crowded_run_outlasts_vector(s, threads, lanes)) {
      c.kernel = CsrKernel::raw_vector;
      c.lanes_per_row = lanes;
      c.reason = "bandwidth-bound; a run of rows too long for one balanced block outlasts the longest row";
      return c;
    }
    c.kernel = CsrKernel::raw_balanced;
    c.block_threads = threads;
    c.resident_blocks = raw_balanced_resident_blocks(s.window_lines_per_entry, average, threads);
    c.reason = "bandwidth-bound; balanced partition";
    return c;
  }
  const bool vector = choose_csr_algorithm(average, b.wave) == Algorithm::csr_vector;
  if (kokkos_long_tail(s.longest_row, s.nnz, vector, latency_bound)) {
    c.kernel = CsrKernel::balanced;
    c.reason = "long tail: balanced partition";
  } else {
    c.kernel = vector ? CsrKernel::vector : CsrKernel::thread_per_row;
    c.reason = vector ? "lanes per row by the average row" : "short rows: a thread per row";
  }
  return c;
}

/// Host backends (impl/csr_host_rows.hpp): the rows are cut into chunks of equal work, counting
/// each row as its entries plus host_row_cost (the loop's start, y's write), so that short rows
/// are not free; host_chunks_per_thread consecutive chunks a thread. A row longer than a chunk's
/// work is summed by every thread, one reduction per such row (there are fewer than the chunks),
/// so no thread holds more than an eighth of a share beyond its own. Rows of
/// host_unrolled_row_length entries or more are summed with four running sums and their last
/// 0-3 entries without a branch (1.3-1.5x faster than one sum on the cache-resident matrices,
/// no slower on the large ones; 2 OpenMP threads).
constexpr int64_t host_row_cost = 2;
constexpr int host_chunks_per_thread = 8;
constexpr int64_t host_unrolled_row_length = 8;
inline int64_t host_chunks(int concurrency) { return concurrency > 1 ? int64_t(concurrency) * host_chunks_per_thread : 1; }

}  // namespace impl
}  // namespace kspmv
