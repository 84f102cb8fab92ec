#pragma once
/// \file coo.hpp
/// Coordinate storage: one (row, column, value) triple per entry, sorted by row. Data only;
/// build one with kspmv::convert<kspmv::CooMatrix>(csr).

#include "impl/matrix_base.hpp"

namespace kspmv {

/// A sparse matrix as triples (row_indices[k], col_indices[k], values[k]), k < nnz, with
/// row_indices non-decreasing (the deterministic kernel relies on it; validate() checks it).
/// Converting from CSR shares the CSR's col_indices and values Views and adds row_indices.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class CooMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::coo_tag;
  using index_view = Kokkos::View<Ordinal*, Device>;
  using values_view = Kokkos::View<Scalar*, Device>;

  index_view row_indices;
  index_view col_indices;
  values_view values;
  /// Workspace of the deterministic kernel (two partial sums per chunk of entries), allocated by
  /// kspmv::convert; when empty (a matrix built from Views) the kernel allocates it per call.
  /// Two spmv calls on the same matrix must not run concurrently (on different streams).
  values_view partial_sums;

  CooMatrix() : base() { this->m_name = "CooMatrix"; }
  /// Wraps existing Views (no copy); throws std::invalid_argument if their lengths differ.
  CooMatrix(Ordinal num_rows, Ordinal num_cols, const index_view& rows, const index_view& cols, const values_view& vals)
      : base("CooMatrix", num_rows, num_cols, Offset(rows.extent(0))), row_indices(rows), col_indices(cols),
        values(vals) {
    this->expect_extent(col_indices, row_indices.extent(0), "col_indices");
    this->expect_extent(values, row_indices.extent(0), "values");
  }

  size_t stored_entries() const { return row_indices.extent(0); }
  double fill_ratio() const { return 1.0; }
  size_t bytes() const { return stored_entries() * (2 * sizeof(Ordinal) + sizeof(Scalar)); }

  /// Checks (on a host copy) that row indices are sorted and in range and column indices in
  /// range. Throws std::invalid_argument naming the first violation.
  void validate() const {
    this->expect_indices_below(row_indices, this->num_rows(), "row_indices");
    this->expect_indices_below(col_indices, this->num_cols(), "col_indices");
    auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_indices);
    for (size_t k = 1; k < rows.extent(0); ++k) {
      if (rows(k) < rows(k - 1)) this->fail("row_indices are not sorted at entry " + std::to_string(k));
    }
  }
};

}  // namespace kspmv
