#pragma once
// Transposed CSR without forming A^T: y += alpha*A^T*x (the caller has applied beta). A thread
// per row i of A reads the row once, contiguously, and adds a(i,j)*alpha*x(i) into y(j) with an
// atomic. The order of the additions into an entry of y, and so its last bits, can change from
// run to run on parallel backends (as with KokkosKernels' native transposed kernel); Serial
// adds in row order.

#include <Kokkos_Core.hpp>

#include <cstdint>

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

/// y += alpha*A^T*x, a thread per row of A.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_transpose_atomic(const ExecSpace& space, typename Matrix::value_type alpha, const Matrix& A,
                               const XView& x, const YView& y) {
  Kokkos::parallel_for("kspmv::spmv[csr_transpose_atomic]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, A.num_rows()),
                       CsrTransposeAtomicFunctor<Matrix, XView, YView>{A.row_offsets, A.col_indices, A.values, x, y,
                                                                        alpha});
}

}  // namespace impl
}  // namespace kspmv
