#pragma once
// DIA: one thread per row walks the stored diagonals. Values of one diagonal are contiguous
// over rows and x(i + offset) is contiguous too, so both streams coalesce; there are no column
// indices to load at all, which is why DIA can beat the CSR byte model on stencils.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView, bool BetaIsZero>
struct DiaFunctor {
  using scalar_type = typename YView::non_const_value_type;
  typename Matrix::index_view diagonal_offsets;
  typename Matrix::values_view values;
  XView x;
  YView y;
  scalar_type alpha, beta;
  int64_t num_rows, num_cols, num_diagonals;

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t row) const {
    scalar_type sum = 0;
    for (int64_t d = 0; d < num_diagonals; ++d) {
      const int64_t col = row + diagonal_offsets(d);
      if (col >= 0 && col < num_cols) sum += values(d * num_rows + row) * x(col);
    }
    if (BetaIsZero) {
      y(row) = alpha * sum;
    } else {
      y(row) = beta * y(row) + alpha * sum;
    }
  }
};

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_dia(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
              typename YView::non_const_value_type beta, const YView& y) {
  Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>> policy(space, 0, A.num_rows());
  const int64_t m = A.num_rows(), n = A.num_cols(), d = A.num_diagonals();
  if (beta == 0) {
    Kokkos::parallel_for("kspmv::spmv[dia]", policy,
                         DiaFunctor<Matrix, XView, YView, true>{A.diagonal_offsets, A.values, x, y, alpha, beta, m, n, d});
  } else {
    Kokkos::parallel_for("kspmv::spmv[dia]", policy,
                         DiaFunctor<Matrix, XView, YView, false>{A.diagonal_offsets, A.values, x, y, alpha, beta, m, n, d});
  }
}

}  // namespace impl
}  // namespace kspmv
