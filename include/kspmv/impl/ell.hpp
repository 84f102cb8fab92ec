#pragma once
// ELLPACK: one thread per row. Slot k of consecutive rows is contiguous (column-major), so the
// threads of a warp read one coalesced segment per slot; padding makes every row the same
// length, so there is no per-row trip count and no branch.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView, bool BetaIsZero>
struct EllFunctor {
  using scalar_type = typename YView::non_const_value_type;
  typename Matrix::index_view col_indices;
  typename Matrix::values_view values;
  XView x;
  YView y;
  scalar_type alpha, beta;
  int64_t num_rows, width;

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t row) const {
    scalar_type sum = 0;
    for (int64_t k = 0, slot = row; k < width; ++k, slot += num_rows) sum += values(slot) * x(col_indices(slot));
    if (BetaIsZero) {
      y(row) = alpha * sum;
    } else {
      y(row) = beta * y(row) + alpha * sum;
    }
  }
};

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_ell(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
              typename YView::non_const_value_type beta, const YView& y) {
  Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>> policy(space, 0, A.num_rows());
  if (beta == 0) {
    Kokkos::parallel_for("kspmv::spmv[ell]", policy,
                         EllFunctor<Matrix, XView, YView, true>{A.col_indices, A.values, x, y, alpha, beta,
                                                                int64_t(A.num_rows()), int64_t(A.width())});
  } else {
    Kokkos::parallel_for("kspmv::spmv[ell]", policy,
                         EllFunctor<Matrix, XView, YView, false>{A.col_indices, A.values, x, y, alpha, beta,
                                                                 int64_t(A.num_rows()), int64_t(A.width())});
  }
}

}  // namespace impl
}  // namespace kspmv
