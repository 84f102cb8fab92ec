#pragma once
// Transposed CSR without forming A^T: y += alpha*A^T*x (the caller has applied beta). A's
// entries are read once, contiguously, and a(i,j)*alpha*x(i) is added into y(j) with an atomic,
// by one of three kernels (launch.hpp: transpose_kernel chooses): a thread per row (hosts), a
// group of vector lanes per row (the shape of vector CSR; 2 lanes where rows are shifted copies
// of their neighbours, launch.hpp: transpose_lanes), or a thread per entry over the
// balanced partition (rows of uneven length). A thread per row on the H200 made a warp's 32
// neighbouring rows add into the same entries of y at once (27-point Poisson 7.5 ms against 1.7
// ms for KokkosKernels' default), and lanes sized from the average row left a long row to a few
// of them (heavy_rows 190 ms against 3.1 ms). The order of the additions into an entry of y, and
// so its last bits, can change from run to run on parallel backends (as with KokkosKernels'
// native transposed kernel); Serial adds in row order.

#include <Kokkos_Core.hpp>

#include "csr_vector.hpp"
#include "launch.hpp"
#include "../spmv_options.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView>
struct CsrTransposeAtomicFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using offset_type = typename Matrix::offset_type;
  typename Matrix::row_offsets_type row_offsets;
  typename Matrix::col_indices_type col_indices;
  typename Matrix::values_type values;
  XView x;
  YView y;
  scalar_type alpha;

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t row) const {
    // Not skipped when x(row) is 0: 0 * Inf in A must still give NaN, as A^T*x does.
    const scalar_type scaled = alpha * x(row);
    const offset_type end = row_offsets(row + 1);
    for (offset_type k = row_offsets(row); k < end; ++k) Kokkos::atomic_add(&y(col_indices(k)), values(k) * scaled);
  }
};

template <class ExecSpace, class Matrix, class XView, class YView>
struct CsrTransposeVectorFunctor {
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

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t first = static_cast<int64_t>(team.league_rank()) * rows_per_team;
    const int64_t last = first + rows_per_team < num_rows ? first + rows_per_team : num_rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const int64_t row) {
      const scalar_type scaled = alpha * x(row);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, row_offsets(row), row_offsets(row + 1)),
                           [&](const offset_type k) { Kokkos::atomic_add(&y(col_indices(k)), values(k) * scaled); });
    });
  }
};

/// y += alpha*A^T*x, a thread per row of A.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_transpose_rows(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                             const XView& x, const YView& y) {
  Kokkos::parallel_for("kspmv::spmv[csr_transpose_rows]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, A.num_rows()),
                       CsrTransposeAtomicFunctor<Matrix, XView, YView>{A.row_offsets, A.col_indices, A.values, x, y,
                                                                        alpha});
}

// The nonzeros split evenly: a team per block of the balanced partition, a thread per entry,
// which finds its row by a binary search over the rows the block covers (their offsets stay in
// the cache). Rows of any length cost the same per entry.
template <class ExecSpace, class Balanced, class XView, class YView>
struct CsrTransposeEntriesFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using csr_type = typename std::remove_cv<decltype(Balanced::csr)>::type;
  typename csr_type::row_offsets_type row_offsets;
  typename csr_type::col_indices_type col_indices;
  typename csr_type::values_type values;
  typename Balanced::index_view first_row;
  XView x;
  YView y;
  scalar_type alpha;
  int64_t nnz, entries_per_block;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t b = team.league_rank(), k0 = b * entries_per_block;
    const int64_t k1 = k0 + entries_per_block < nnz ? k0 + entries_per_block : nnz;
    int64_t first = int64_t(first_row(b));
    if (first > 0 && int64_t(row_offsets(first)) > k0) --first;  // the row holding entry k0
    const int64_t last = int64_t(first_row(b + 1)) - 1 > first ? int64_t(first_row(b + 1)) - 1 : first;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, k0, k1), [&](const int64_t k) {
      int64_t lo = first, hi = last;  // the last row starting at or before k holds it
      while (lo < hi) {
        const int64_t mid = (lo + hi + 1) / 2;
        if (int64_t(row_offsets(mid)) <= k) lo = mid; else hi = mid - 1;
      }
      Kokkos::atomic_add(&y(col_indices(k)), alpha * values(k) * x(lo));
    });
  }
};

/// y += alpha*A^T*x over the balanced partition of A (B.csr).
template <class ExecSpace, class Balanced, class XView, class YView>
void spmv_csr_transpose_entries(const ExecSpace& space, typename YView::non_const_value_type alpha, const Balanced& B,
                                const XView& x, const YView& y) {
  const int64_t blocks = B.num_blocks();
  if (blocks > int64_t(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("kspmv::spmv[csr_transpose_entries]: " + std::to_string(blocks) +
                                " blocks exceed the launch limit");
  }
  Kokkos::parallel_for("kspmv::spmv[csr_transpose_entries]",
                       Kokkos::TeamPolicy<ExecSpace>(space, int(blocks), Kokkos::AUTO),
                       CsrTransposeEntriesFunctor<ExecSpace, Balanced, XView, YView>{
                           B.csr.row_offsets, B.csr.col_indices, B.csr.values, B.block_first_row, x, y, alpha,
                           int64_t(B.nnz()), B.entries_per_block()});
}

/// y += alpha*A^T*x, a group of lanes_per_row vector lanes per row of A (vector CSR's shape
/// otherwise; launch.hpp: transpose_lanes).
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_transpose_lanes(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                              const XView& x, const YView& y, int lanes_per_row) {
  SpmvOptions options;
  options.lanes_per_row = lanes_per_row;
  const CsrVectorShape shape = csr_vector_shape<ExecSpace>(A.num_rows(), A.nnz(), options);
  const int64_t rows_per_team = shape.rows_per_team();
  const int64_t league_size = (int64_t(A.num_rows()) + rows_per_team - 1) / rows_per_team;
  if (league_size > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("kspmv::spmv[csr_transpose_lanes]: " + std::to_string(league_size) +
                                " teams exceed the launch limit");
  }
  launch_csr_vector(space, shape, int(league_size),
                    CsrTransposeVectorFunctor<ExecSpace, Matrix, XView, YView>{
                        A.row_offsets, A.col_indices, A.values, x, y, alpha, int64_t(A.num_rows()), rows_per_team},
                    "kspmv::spmv[csr_transpose_lanes]");
}

}  // namespace impl
}  // namespace kspmv
