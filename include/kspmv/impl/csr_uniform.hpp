#pragma once
// CSR holding one value (UniformCsrMatrix): a thread per row, each product value * x(col) as
// CSR's would be with that value stored. (The Kokkos kernel of every backend; on GPUs with the
// raw kernels, spmv runs the load-balanced CSR kernel over the matrix's partition without
// loading values instead: src/raw/kernels.hpp, UniformValue.)

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView, bool BetaIsZero>
struct UniformCsrFunctor {
  using scalar_type = typename YView::non_const_value_type;  // the vectors' (double in mixed precision)
  typename Matrix::csr_type::row_offsets_type row_offsets;
  typename Matrix::csr_type::col_indices_type col_indices;
  scalar_type value;
  XView x;
  YView y;
  scalar_type alpha, beta;

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t row) const {
    const int64_t end = int64_t(row_offsets(row + 1));
    scalar_type sum = 0;
    for (int64_t k = int64_t(row_offsets(row)); k < end; ++k) sum += value * x(col_indices(k));
    if (BetaIsZero) {
      y(row) = alpha * sum;
    } else {
      y(row) = beta * y(row) + alpha * sum;
    }
  }
};

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_uniform(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                      const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  using Y = typename YView::non_const_value_type;
  Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>> policy(space, 0, A.num_rows());
  const auto& csr = A.balanced.csr;
  if (beta == Y(0)) {
    Kokkos::parallel_for("kspmv::spmv[csr_uniform]", policy,
                         UniformCsrFunctor<Matrix, XView, YView, true>{csr.row_offsets, csr.col_indices, Y(A.value),
                                                                      x, y, alpha, beta});
  } else {
    Kokkos::parallel_for("kspmv::spmv[csr_uniform]", policy,
                         UniformCsrFunctor<Matrix, XView, YView, false>{csr.row_offsets, csr.col_indices, Y(A.value),
                                                                       x, y, alpha, beta});
  }
}

}  // namespace impl
}  // namespace kspmv
