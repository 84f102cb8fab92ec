#pragma once
// y = beta*y, the whole of spmv when alpha == 0 or A is empty, and the first pass of the
// accumulating (COO) kernels.

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kspmv {
namespace impl {

template <class YView>
struct ScaleFunctor {
  using scalar_type = typename YView::non_const_value_type;
  YView y;
  scalar_type beta;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i) const {
    // beta == 0 overwrites: 0 * NaN would be NaN.
    if constexpr (YView::rank == 1) {
      y(i) = beta == scalar_type(0) ? scalar_type(0) : beta * y(i);
    } else {  // a row of several vectors
      for (size_t j = 0; j < y.extent(1); ++j) y(i, j) = beta == scalar_type(0) ? scalar_type(0) : beta * y(i, j);
    }
  }
};

/// y = beta*y, and y = 0 when beta == 0 whatever y held (y of rank 1, or rank 2: several vectors).
template <class ExecSpace, class YView>
void scale_y(const ExecSpace& space, typename YView::non_const_value_type beta, const YView& y) {
  if (beta == 1) return;
  Kokkos::parallel_for("kspmv::spmv[scale_y]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, y.extent(0)),
                       ScaleFunctor<YView>{y, beta});
}

}  // namespace impl
}  // namespace kspmv
