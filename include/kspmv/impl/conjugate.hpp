#pragma once
// Modes "C" and "H" on complex scalars: conj(A)*x = conj(A*conj(x)), so
//   y = alpha*conj(A)*x + beta*y = conj(conj(alpha)*A*conj(x) + conj(beta)*conj(y)),
// and likewise with A^T for "H". spmv runs every kernel of mode N or T unchanged on a
// conjugated copy of x, between two conjugations of y in place; the copy is one vector (or k
// for several) of x's size, allocated per call.

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kspmv {
namespace impl {

// dst = conj(src) (dst == src: in place), rank 1 or rank 2 (several vectors).
template <class SourceView, class TargetView>
struct ConjugateFunctor {
  SourceView src;
  TargetView dst;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i) const {
    if constexpr (SourceView::rank == 1) {
      dst(i) = Kokkos::conj(src(i));
    } else {
      for (size_t j = 0; j < src.extent(1); ++j) dst(i, j) = Kokkos::conj(src(i, j));
    }
  }
};

/// A new View holding conj(x), x of rank 1 or 2 (a strided x gives a LayoutLeft copy).
template <class ExecSpace, class XView>
auto conjugate_copy(const ExecSpace& space, const XView& x) {
  using Layout = std::conditional_t<std::is_same<typename XView::array_layout, Kokkos::LayoutStride>::value,
                                    Kokkos::LayoutLeft, typename XView::array_layout>;
  using Copy = Kokkos::View<typename XView::non_const_data_type, Layout, typename XView::device_type>;
  Copy copy;
  if constexpr (XView::rank == 1) {
    copy = Copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::spmv conj(x)"), x.extent(0));
  } else {
    copy = Copy(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::spmv conj(x)"), x.extent(0), x.extent(1));
  }
  Kokkos::parallel_for("kspmv::spmv[conjugate]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, x.extent(0)),
                       ConjugateFunctor<XView, Copy>{x, copy});
  return copy;
}

/// y = conj(y) in place, y of rank 1 or 2.
template <class ExecSpace, class YView>
void conjugate_in_place(const ExecSpace& space, const YView& y) {
  Kokkos::parallel_for("kspmv::spmv[conjugate]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, y.extent(0)),
                       ConjugateFunctor<YView, YView>{y, y});
}

}  // namespace impl
}  // namespace kspmv
