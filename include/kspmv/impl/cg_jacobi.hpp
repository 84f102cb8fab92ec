#pragma once
// kspmv::cg's Jacobi preconditioner: the inverse of A's diagonal, and the first row whose
// diagonal is not positive (then A is not symmetric positive definite, and CG reports it).

#include <Kokkos_Core.hpp>

#include <limits>

namespace kspmv {
namespace impl {

template <class Scalar, class Ordinal, class Offset, class Device>
struct CgInverseDiagonal {
  Kokkos::View<const Offset*, Device> row_offsets;
  Kokkos::View<const Ordinal*, Device> col_indices;
  Kokkos::View<const Scalar*, Device> values;
  Kokkos::View<Scalar*, Device> inverse;

  KOKKOS_INLINE_FUNCTION void operator()(const Ordinal i, Ordinal& first_bad_row) const {
    Scalar d = 0;  // duplicates of the diagonal are summed, as spmv sums them
    for (Offset k = row_offsets(i); k < row_offsets(i + 1); ++k)
      if (col_indices(k) == i) d += values(k);
    // !(d > 0) also catches a NaN diagonal.
    if (!(d > Scalar(0))) {
      inverse(i) = Scalar(0);
      if (i < first_bad_row) first_bad_row = i;
    } else {
      inverse(i) = Scalar(1) / d;
    }
  }
};

/// Fills `inverse` with 1 / A(i, i); returns the first row whose diagonal is not positive, or -1.
template <class ExecSpace, class Matrix, class InverseView>
typename Matrix::ordinal_type cg_inverse_diagonal(const ExecSpace& space, const Matrix& A, const InverseView& inverse) {
  using Ordinal = typename Matrix::ordinal_type;
  using Functor = CgInverseDiagonal<typename Matrix::value_type, Ordinal, typename Matrix::offset_type,
                                    typename Matrix::device_type>;
  Ordinal first_bad_row = std::numeric_limits<Ordinal>::max();
  Kokkos::parallel_reduce("kspmv::cg[jacobi]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<Ordinal>>(space, 0, A.num_rows()),
                          Functor{A.row_offsets, A.col_indices, A.values, inverse}, Kokkos::Min<Ordinal>(first_bad_row));
  return first_bad_row == std::numeric_limits<Ordinal>::max() ? Ordinal(-1) : first_bad_row;
}

}  // namespace impl
}  // namespace kspmv
