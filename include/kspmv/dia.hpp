#pragma once
/// \file dia.hpp
/// Diagonal storage for banded and stencil matrices: values stored per occupied diagonal, no
/// column indices at all. Data only; build one with kspmv::convert<kspmv::DiaMatrix>(csr, options),
/// which refuses matrices with too many diagonals or too much fill.

#include "impl/matrix_base.hpp"

namespace kspmv {

/// A(i, i + diagonal_offsets[d]) = values[d*num_rows + i] for each stored diagonal d (offsets
/// increasing). Slots whose column falls outside [0, num_cols) hold 0 and are never used; slots
/// of structural zeros inside a stored diagonal hold 0. Like ELLPACK padding, those zeros
/// multiply x: Inf or NaN in x can reach rows that CSR would not touch.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class DiaMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::dia_tag;
  using index_view = Kokkos::View<Ordinal*, Device>;
  using values_view = Kokkos::View<Scalar*, Device>;

  index_view diagonal_offsets;  ///< column - row of each stored diagonal, increasing
  values_view values;           ///< num_diagonals * num_rows

  DiaMatrix() : base() { this->m_name = "DiaMatrix"; }
  /// Wraps existing Views (no copy); throws std::invalid_argument if extents do not fit.
  DiaMatrix(Ordinal num_rows, Ordinal num_cols, Offset nnz, const index_view& offsets, const values_view& vals)
      : base("DiaMatrix", num_rows, num_cols, nnz), diagonal_offsets(offsets), values(vals) {
    this->expect_extent(values, stored_entries(), "values");
  }

  Ordinal num_diagonals() const { return Ordinal(diagonal_offsets.extent(0)); }
  size_t stored_entries() const { return size_t(num_diagonals()) * size_t(this->num_rows()); }
  double fill_ratio() const { return this->nnz() > 0 ? double(stored_entries()) / double(this->nnz()) : 1.0; }
  size_t bytes() const { return stored_entries() * sizeof(Scalar) + diagonal_offsets.extent(0) * sizeof(Ordinal); }

  /// Checks (on a host copy) that diagonal offsets are increasing and inside the matrix.
  void validate() const {
    auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), diagonal_offsets);
    for (size_t d = 0; d < offsets.extent(0); ++d) {
      if (offsets(d) <= -Ordinal(this->num_rows()) || offsets(d) >= this->num_cols()) {
        this->fail("diagonal offset " + std::to_string(offsets(d)) + " lies outside the matrix");
      }
      if (d > 0 && offsets(d) <= offsets(d - 1)) this->fail("diagonal offsets are not increasing");
    }
  }
};

}  // namespace kspmv
