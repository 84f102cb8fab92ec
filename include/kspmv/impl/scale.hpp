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
    y(i) = beta == scalar_type(0) ? scalar_type(0) : beta * y(i);
  }
};

/// y = beta*y, and y = 0 when beta == 0 whatever y held.
template <class ExecSpace, class YView>
void scale_y(const ExecSpace& space, typename YView::non_const_value_type beta, const YView& y) {
  if (beta == 1) return;
  Kokkos::parallel_for("kspmv::spmv[scale_y]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, y.extent(0)),
                       ScaleFunctor<YView>{y, beta});
}

}  // namespace impl
}  // namespace kspmv
