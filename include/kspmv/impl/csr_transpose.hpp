#pragma once
// Transposed CSR without forming A^T: y += alpha*A^T*x (the caller has applied beta). Row i of
// A is read once, contiguously, and a(i,j)*alpha*x(i) is added into y(j) with an atomic: on
// GPUs by a group of vector lanes per row (the shape of vector CSR), on hosts by a thread per
// row. (A thread per row on the H200 made a warp's 32 neighbouring rows add into the same
// entries of y at once: 27-point Poisson 7.5 ms against 1.7 ms for KokkosKernels' default; and
// a heavy row was walked by one thread.) The order of the additions into an entry of y, and so
// its last bits, can change from run to run on parallel backends (as with KokkosKernels' native
// transposed kernel); Serial adds in row order.

#include <Kokkos_Core.hpp>

#include "csr_vector.hpp"
#include "launch.hpp"
#include "../spmv_options.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView>
struct CsrTransposeAtomicFunctor {
  using scalar_type = typename Matrix::value_type;
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
  using scalar_type = typename Matrix::value_type;
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

/// y += alpha*A^T*x: vector lanes per row of A on GPUs, a thread per row on hosts.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_transpose_atomic(const ExecSpace& space, typename Matrix::value_type alpha, const Matrix& A,
                               const XView& x, const YView& y) {
  if (!is_gpu_space<ExecSpace>()) {
    Kokkos::parallel_for("kspmv::spmv[csr_transpose_atomic]",
                         Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, A.num_rows()),
                         CsrTransposeAtomicFunctor<Matrix, XView, YView>{A.row_offsets, A.col_indices, A.values, x, y,
                                                                          alpha});
    return;
  }
  const CsrVectorShape shape = csr_vector_shape<ExecSpace>(A.num_rows(), A.nnz(), SpmvOptions());
  const int64_t rows_per_team = shape.rows_per_team();
  const int64_t league_size = (int64_t(A.num_rows()) + rows_per_team - 1) / rows_per_team;
  if (league_size > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("kspmv::spmv[csr_transpose_atomic]: " + std::to_string(league_size) +
                                " teams exceed the launch limit");
  }
  launch_csr_vector(space, shape, int(league_size),
                    CsrTransposeVectorFunctor<ExecSpace, Matrix, XView, YView>{
                        A.row_offsets, A.col_indices, A.values, x, y, alpha, int64_t(A.num_rows()), rows_per_team},
                    "kspmv::spmv[csr_transpose_atomic]");
}

}  // namespace impl
}  // namespace kspmv
