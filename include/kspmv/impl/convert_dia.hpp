#pragma once
// CSR <-> DIA on the device.

#include <Kokkos_Core.hpp>

#include "../csr.hpp"
#include "../dia.hpp"
#include "convert_common.hpp"

#include <cstdint>
#include <string>

namespace kspmv {
namespace impl {

/// Occupied diagonals are found by marking column - row + (m - 1) for every entry; the count and
/// the fill (diagonals x rows over nnz) are checked against the limits before anything large is
/// allocated. Duplicate entries are summed.
template <class S, class O, class Off, class D>
DiaMatrix<S, O, Off, D> dia_from_csr(const CsrMatrix<S, O, Off, D>& A, int64_t max_diagonals, double max_fill) {
  using execution_space = typename D::execution_space;
  using Policy = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  const int64_t m = A.num_rows(), n = A.num_cols();
  const int64_t span = m + n > 0 ? m + n - 1 : 0;
  Kokkos::View<int*, D> occupied("kspmv::dia::occupied", span);
  mark_diagonals<execution_space>(A, occupied);
  Kokkos::View<int64_t*, D> slot_of("kspmv::dia::slot_of", span + 1);
  const int64_t diagonals = exclusive_scan<execution_space>(slot_of, occupied);
  if (diagonals > max_diagonals) {
    refuse("DiaMatrix", std::to_string(diagonals) + " occupied diagonals exceed max_diagonals " + std::to_string(max_diagonals));
  }
  const double fill = A.nnz() > 0 ? double(diagonals) * double(m) / double(A.nnz()) : 1.0;
  if (diagonals > 0 && fill > max_fill) {
    refuse("DiaMatrix", std::to_string(diagonals) + " diagonals x " + std::to_string(m) + " rows for " +
                            std::to_string(A.nnz()) + " entries (fill ratio " + std::to_string(fill) +
                            ") exceed max_fill_ratio " + std::to_string(max_fill));
  }
  Kokkos::View<O*, D> offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::dia::diagonal_offsets"), diagonals);
  Kokkos::parallel_for(
      "kspmv::convert[dia_offsets]", Policy(0, span), KOKKOS_LAMBDA(const int64_t d) {
        if (occupied(d)) offsets(slot_of(d)) = O(d - (m - 1));
      });
  Kokkos::View<S*, D> values("kspmv::dia::values", diagonals * m);
  Kokkos::parallel_for(
      "kspmv::convert[dia]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        for (auto k = A.row_offsets(i); k < A.row_offsets(i + 1); ++k) {
          values(slot_of(A.col_indices(k) - i + m - 1) * m + i) += A.values(k);
        }
      });
  return DiaMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), A.nnz(), offsets, values);
}

/// The nonzero slots of each row, by increasing column. Explicit zeros and duplicates of the
/// original CSR do not survive DIA, so the round trip is exact for canonical CSR only.
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> dia_to_csr(const DiaMatrix<S, O, Off, D>& A) {
  using execution_space = typename D::execution_space;
  using Policy = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  const int64_t m = A.num_rows(), n = A.num_cols(), diagonals = A.num_diagonals();
  const auto diagonal_offsets = A.diagonal_offsets;
  const auto dia_values = A.values;
  auto in_row = KOKKOS_LAMBDA(const int64_t i, const int64_t d) {
    const int64_t col = i + diagonal_offsets(d);
    return col >= 0 && col < n && dia_values(d * m + i) != S(0);
  };
  Kokkos::View<O*, D> lengths(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::to_csr::lengths"), m);
  Kokkos::parallel_for(
      "kspmv::to_csr[dia_lengths]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        O count = 0;
        for (int64_t d = 0; d < diagonals; ++d) count += in_row(i, d);
        lengths(i) = count;
      });
  Kokkos::View<Off*, D> offsets("kspmv::csr::row_offsets", m + 1);
  const int64_t nnz = exclusive_scan<execution_space>(offsets, lengths);
  Kokkos::View<O*, D> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::col_indices"), nnz);
  Kokkos::View<S*, D> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::values"), nnz);
  Kokkos::parallel_for(
      "kspmv::to_csr[dia]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        int64_t out = offsets(i);
        for (int64_t d = 0; d < diagonals; ++d) {
          if (!in_row(i, d)) continue;
          indices(out) = O(i + diagonal_offsets(d));
          values(out++) = dia_values(d * m + i);
        }
      });
  return CsrMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), offsets, indices, values);
}

}  // namespace impl
}  // namespace kspmv
