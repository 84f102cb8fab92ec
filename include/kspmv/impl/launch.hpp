#pragma once
// Every launch heuristic of kspmv lives here, as plain functions that tests can call.
// Kernels take the shapes chosen here as arguments and decide nothing themselves.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kspmv {

/// Kernel choices for CSR. `automatic` picks by the average row length (see
/// impl::choose_csr_algorithm).
enum class Algorithm {
  automatic,
  csr_scalar,  ///< one thread per row
  csr_vector,  ///< a power-of-two group of vector lanes per row
};

/// Human-readable name of an algorithm ("csr_scalar", ...), as used in labels and tables.
inline const char* to_string(Algorithm a) {
  switch (a) {
    case Algorithm::automatic: return "automatic";
    case Algorithm::csr_scalar: return "csr_scalar";
    case Algorithm::csr_vector: return "csr_vector";
  }
  return "unknown";
}

/// Options of kspmv::spmv. Zero means "let kspmv choose" for every tunable.
struct SpmvOptions {
  Algorithm algorithm = Algorithm::automatic;
  int team_size = 0;      ///< csr_vector: threads (rows in flight) per team
  int lanes_per_row = 0;  ///< csr_vector: vector lanes reducing one row; a power of two <= warp width
  int rows_per_thread = 0;  ///< csr_vector: consecutive rows one team thread handles
};

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

/// Largest power of two <= average entries per row, clamped to [1, warp]. A group wider than
/// the row wastes lanes; a narrower one leaves the row's loads serialised.
inline int lanes_for_average_row_length(double average_row_length, int warp) {
  int lanes = 1;
  while (lanes * 2 <= warp && lanes * 2 <= average_row_length) lanes *= 2;
  return lanes;
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

}  // namespace impl
}  // namespace kspmv
