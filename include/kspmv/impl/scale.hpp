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
  if constexpr (YView::rank == 2) {
    // Several vectors stored contiguously (LayoutLeft, LayoutRight): scaled as one flat array.
    // A thread a row of a LayoutRight y wrote a warp's 32 rows a vector at a time, each store
    // touching 32 sectors for 8 bytes of each: on the H100 the plain call on the split entries
    // at 8 vectors in LayoutRight took 6865 us with it and 6358 us flat on heavy_rows (8M rows),
    // 9745 and 8802 on power_law (one call, perf_tests/results/h100_vectors_2026-11-26/).
    if (y.span_is_contiguous()) {
      using Flat = Kokkos::View<typename YView::non_const_value_type*, typename YView::memory_space,
                                Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
      const Flat flat(y.data(), y.span());
      Kokkos::parallel_for("kspmv::spmv[scale_y]",
                           Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, int64_t(flat.extent(0))),
                           ScaleFunctor<Flat>{flat, beta});
      return;
    }
  }
  Kokkos::parallel_for("kspmv::spmv[scale_y]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, y.extent(0)),
                       ScaleFunctor<YView>{y, beta});
}

}  // namespace impl
}  // namespace kspmv
