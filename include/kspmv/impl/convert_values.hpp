#pragma once
// A CSR matrix with its values in another scalar type (double to float for mixed precision), on
// the device: a thread per entry; the row offsets and column indices are shared, not copied.
// Rounding to a narrower type can overflow to infinity or flush a nonzero to zero: the count of
// such entries comes back so that the caller can refuse the result rather than use it.

#include "../csr.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>
#include <utility>

namespace kspmv {
namespace impl {

// The narrower scalar of mixed precision's matrix values (the inverse of widened, matrix_base.hpp):
// float for double, Kokkos::complex<float> for Kokkos::complex<double>; T itself for float and
// Kokkos::complex<float>.
template <class T>
struct narrowed {
  using type = std::conditional_t<std::is_same<T, double>::value, float,
                                  std::conditional_t<std::is_same<T, Kokkos::complex<double>>::value, Kokkos::complex<float>, T>>;
};

// A real or complex scalar as its two parts (the imaginary one 0 for a real scalar).
template <class T>
KOKKOS_INLINE_FUNCTION void scalar_parts(const T& v, typename is_complex<T>::real_type parts[2]) {
  if constexpr (is_complex<T>::value) {
    parts[0] = v.real();
    parts[1] = v.imag();
  } else {
    parts[0] = v;
    parts[1] = T(0);
  }
}

// Whether rounding `wide` to `narrow` turned a finite part infinite or a nonzero part zero.
template <class T>
KOKKOS_INLINE_FUNCTION bool rounding_lost_value(const T& wide, const typename narrowed<T>::type& narrow) {
  using Real = typename is_complex<T>::real_type;
  using NarrowReal = typename is_complex<typename narrowed<T>::type>::real_type;
  Real parts[2];
  NarrowReal narrow_parts[2];
  scalar_parts(wide, parts);
  scalar_parts(narrow, narrow_parts);
  bool lost = false;
  for (int p = 0; p < 2; ++p) {
    const bool was_finite = parts[p] - parts[p] == Real(0);  // false for Inf and NaN
    const bool is_finite = narrow_parts[p] - narrow_parts[p] == NarrowReal(0);
    lost = lost || (was_finite && !is_finite) || (parts[p] != Real(0) && narrow_parts[p] == NarrowReal(0));
  }
  return lost;
}

// Returns the matrix of A's structure with values rounded to narrowed<S>, and how many finite
// values overflowed to infinity or nonzero parts became zero in the rounding.
template <class S, class O, class Off, class D>
std::pair<CsrMatrix<typename narrowed<S>::type, O, Off, D>, int64_t> csr_with_narrowed_values(
    const CsrMatrix<S, O, Off, D>& A) {
  using Narrow = typename narrowed<S>::type;
  using ExecSpace = typename D::execution_space;
  const auto from = A.values;
  Kokkos::View<Narrow*, D> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::values"),
                                  from.extent(0));
  int64_t lost = 0;
  Kokkos::parallel_reduce(
      "kspmv::convert[narrowed_values]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, int64_t(from.extent(0))),
      KOKKOS_LAMBDA(const int64_t k, int64_t& count) {
        const Narrow v = Narrow(from(k));
        values(k) = v;
        if (rounding_lost_value(from(k), v)) ++count;
      },
      lost);
  return {CsrMatrix<Narrow, O, Off, D>(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, values), lost};
}

}  // namespace impl
}  // namespace kspmv
