#pragma once
// CSR times several vectors at once (rank-2 x and y, k columns, any layout): A's entries are read
// once for several vectors rather than once per vector. The Kokkos kernels here run on every
// backend; on GPUs with the raw kernels, spmv.hpp runs raw::csr_multivector in mode N instead
// (on a row-major copy of X, made here, where launch.hpp's stage_x_row_major says so).
//  - mode N, a thread per row keeping the sums of up to 8 vectors in registers; the row is
//    walked again, from the caches, for each further pass;
//  - mode T, vector CSR's lanes per row of A adding a(i,j)*alpha*x(i,v) into y(j,v) with atomics
//    for every vector v (the caller has applied beta), so the last bits may change from run to
//    run on parallel backends, as with one vector.

#include <Kokkos_Core.hpp>

#include "csr_vector.hpp"
#include "launch.hpp"
#include "../spmv_options.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView, bool BetaIsZero>
struct CsrMultivectorRowsFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using offset_type = typename Matrix::offset_type;
  typename Matrix::row_offsets_type row_offsets;
  typename Matrix::col_indices_type col_indices;
  typename Matrix::values_type values;
  XView x;
  YView y;
  scalar_type alpha;
  scalar_type beta;
  int64_t num_vectors;

  // Vectors [first, first + Columns) of one row: Columns known at compile time, so the sums stay
  // in registers and the loop over them unrolls (a run-time count made the 2-core Serial build
  // 1.4-1.8x slower than KokkosKernels' on bcsstk13).
  template <int Columns>
  KOKKOS_INLINE_FUNCTION void pass(const int64_t row, const int64_t first) const {
    scalar_type sum[Columns];
    for (int j = 0; j < Columns; ++j) sum[j] = 0;
    const offset_type end = row_offsets(row + 1);
    for (offset_type k = row_offsets(row); k < end; ++k) {
      const scalar_type v = values(k);
      const auto c = col_indices(k);
      for (int j = 0; j < Columns; ++j) sum[j] += v * x(c, first + j);
    }
    for (int j = 0; j < Columns; ++j) {
      // With beta == 0, y is write-only: NaN in y must not leak.
      if (BetaIsZero) {
        y(row, first + j) = alpha * sum[j];
      } else {
        y(row, first + j) = beta * y(row, first + j) + alpha * sum[j];
      }
    }
  }

  // Passes of 8 vectors, then 4, 2 and 1 for the rest: a row's later passes find it in the cache.
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t row) const {
    int64_t first = 0;
    for (; first + 8 <= num_vectors; first += 8) pass<8>(row, first);
    if (first + 4 <= num_vectors) {
      pass<4>(row, first);
      first += 4;
    }
    if (first + 2 <= num_vectors) {
      pass<2>(row, first);
      first += 2;
    }
    if (first < num_vectors) pass<1>(row, first);
  }
};

/// Y = alpha*A*X + beta*Y, a thread per row (every backend).
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_multivector_rows(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                               const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>> policy(space, 0, A.num_rows());
  const int64_t k = int64_t(x.extent(1));
  if (beta == 0) {
    Kokkos::parallel_for("kspmv::spmv[csr_multivector_rows]", policy,
                         CsrMultivectorRowsFunctor<Matrix, XView, YView, true>{A.row_offsets, A.col_indices, A.values,
                                                                                x, y, alpha, beta, k});
  } else {
    Kokkos::parallel_for("kspmv::spmv[csr_multivector_rows]", policy,
                         CsrMultivectorRowsFunctor<Matrix, XView, YView, false>{A.row_offsets, A.col_indices, A.values,
                                                                                 x, y, alpha, beta, k});
  }
}

template <class Source, class Destination>
struct CopyRowsFunctor {
  Source source;
  Destination destination;
  int64_t num_vectors;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t t) const {
    const int64_t row = t / num_vectors, v = t - row * num_vectors;
    destination(row, v) = source(row, v);
  }
};

/// destination(i, v) = source(i, v) for rank-2 Views of one shape, a thread per entry in the
/// destination's row-major order: the row-major copy of a column-major X (launch.hpp:
/// stage_x_row_major), written coalesced, each vector read a sector for every 32 / sizeof rows. A
/// thread per row wrote a row's vectors one at a time, each store of a warp touching 32 sectors
/// for a value of each: on the H100 at 8 vectors, 7-point Poisson 300^3, that copy and the row
/// lanes took 7175 us, this one and the row lanes 4068, the row lanes alone 2632 (one call).
template <class ExecSpace, class Source, class Destination>
void copy_rows(const ExecSpace& space, const Source& source, const Destination& destination) {
  const int64_t num_vectors = int64_t(source.extent(1));
  Kokkos::parallel_for(
      "kspmv::spmv[x_row_major]",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, int64_t(source.extent(0)) * num_vectors),
      CopyRowsFunctor<Source, Destination>{source, destination, num_vectors});
}

template <class Source, class Destination>
struct AddRowMajorFunctor {
  using scalar_type = typename Destination::non_const_value_type;
  Source source;
  Destination destination;
  scalar_type beta;
  int64_t num_rows, num_vectors;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t t) const {
    const int64_t tile = t / (32 * num_vectors), within = t - tile * 32 * num_vectors;
    const int64_t v = within / 32, row = tile * 32 + within % 32;
    if (row >= num_rows) return;
    // beta == 0: NaN in y must not leak
    destination(row, v) = beta == scalar_type(0) ? source(row, v) : source(row, v) + beta * destination(row, v);
  }
};

/// destination(i, v) = source(i, v) + beta*destination(i, v) (beta == 0: source alone) for a
/// row-major source and a column-major destination of one shape, by tiles of 32 rows: a tile's
/// threads read its rows' vectors, contiguous in the source, and each warp writes 32 rows of one
/// vector, contiguous in the destination. The way back of a column-major Y staged row-major
/// (launch.hpp: MultivectorWay::staged).
template <class ExecSpace, class Source, class Destination>
void add_row_major(const ExecSpace& space, const Source& source, typename Destination::non_const_value_type beta,
                   const Destination& destination) {
  const int64_t m = int64_t(source.extent(0)), k = int64_t(source.extent(1));
  Kokkos::parallel_for(
      "kspmv::spmv[y_from_row_major]",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, (m + 31) / 32 * 32 * k),
      AddRowMajorFunctor<Source, Destination>{source, destination, beta, m, k});
}

/// The index of the fastest of `count` ways (launch.hpp: multivector_ways) of a product into a
/// scratch Y, run(i) running way i: each run once first (code loaded, buffers allocated,
/// untimed), then timed once each with the device fenced around it; where the shortest took
/// under multivector_settled_seconds and another is within multivector_clear_ratio of it, three
/// rounds more, alternating the order, the shorter time of each kept (short runs swing more from
/// one timing to the next). Ties: the earlier way. Costs 2 products a way on large matrices, 5 on
/// small ones with close times, once per vector count and layout. On the H200 the first form (two
/// ways, two timed rounds always) cost 6.2-14.7 calls' time beyond the call itself at 8 and 16
/// vectors (perf_tests/results/h200_multivector_lab_2026-11-26/staged_plain/); the two ways'
/// times differed by 1.10-2.67x on the 15 replicated real matrices measured both ways there
/// (0.5-8 ms). The second form (one timed round where settled): 4.2-9.7 calls' time, the same
/// choices (.../staged_timing/).
constexpr double multivector_settled_seconds = 200e-6;
constexpr double multivector_clear_ratio = 1.25;
template <class ExecSpace, class Run>
size_t fastest_multivector_way(const ExecSpace& space, size_t count, Run&& run) {
  const auto seconds = [&](size_t way) {
    space.fence();
    Kokkos::Timer timer;
    run(way);
    space.fence();
    return timer.seconds();
  };
  for (size_t i = 0; i < count; ++i) run(i);
  std::vector<double> times(count);
  for (size_t i = 0; i < count; ++i) times[i] = seconds(i);
  const auto fastest = [&] { return size_t(std::min_element(times.begin(), times.end()) - times.begin()); };
  const double shortest = times[fastest()];
  bool close = false;
  for (size_t i = 0; i < count; ++i) close = close || (i != fastest() && times[i] <= multivector_clear_ratio * shortest);
  if (shortest >= multivector_settled_seconds || !close) return fastest();
  for (int round = 1; round < 4; ++round) {
    for (size_t j = 0; j < count; ++j) {
      const size_t i = round % 2 == 0 ? j : count - 1 - j;
      times[i] = std::min(times[i], seconds(i));
    }
  }
  return fastest();
}

template <class ExecSpace, class Matrix, class XView, class YView>
struct CsrMultivectorTransposeFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using offset_type = typename Matrix::offset_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  typename Matrix::row_offsets_type row_offsets;
  typename Matrix::col_indices_type col_indices;
  typename Matrix::values_type values;
  XView x;
  YView y;
  scalar_type alpha;
  int64_t num_rows;
  int64_t rows_per_team;
  int64_t num_vectors;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t first = static_cast<int64_t>(team.league_rank()) * rows_per_team;
    const int64_t last = first + rows_per_team < num_rows ? first + rows_per_team : num_rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const int64_t row) {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, row_offsets(row), row_offsets(row + 1)),
                           [&](const offset_type k) {
                             const auto c = col_indices(k);
                             const scalar_type scaled = alpha * values(k);
                             // Not skipped when x(row, v) is 0: 0 * Inf in A must still give NaN.
                             for (int64_t v = 0; v < num_vectors; ++v) Kokkos::atomic_add(&y(c, v), scaled * x(row, v));
                           });
    });
  }
};

/// Y += alpha*A^T*X, vector CSR's lanes per row of A (every backend).
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_multivector_transpose(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                                    const XView& x, const YView& y) {
  const CsrVectorShape shape = csr_vector_shape<ExecSpace>(A.num_rows(), A.nnz(), SpmvOptions());
  const int64_t rows_per_team = shape.rows_per_team();
  const int64_t league_size = (int64_t(A.num_rows()) + rows_per_team - 1) / rows_per_team;
  if (league_size > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("kspmv::spmv[csr_multivector_transpose]: " + std::to_string(league_size) +
                                " teams exceed the launch limit");
  }
  launch_csr_vector(space, shape, int(league_size),
                    CsrMultivectorTransposeFunctor<ExecSpace, Matrix, XView, YView>{
                        A.row_offsets, A.col_indices, A.values, x, y, alpha, int64_t(A.num_rows()), rows_per_team,
                        int64_t(x.extent(1))},
                    "kspmv::spmv[csr_multivector_transpose]");
}

}  // namespace impl
}  // namespace kspmv
