#pragma once
/// \file ell.hpp
/// ELLPACK storage: every row padded to the same width, stored column-major so that the threads
/// of consecutive rows read consecutive addresses. Data only; build one with
/// kspmv::convert<kspmv::EllMatrix>(csr).

#include "impl/matrix_base.hpp"

namespace kspmv {

/// A sparse matrix in ELLPACK form. Slot k of row i (0 <= k < width) is at k*num_rows + i in
/// col_indices and values. Row i's entries occupy slots [0, row_lengths[i]); the remaining
/// slots are padding that repeats the row's last column with value 0 (an empty row pads with
/// column 0), so the kernel runs width slots for every row without a branch.
///
/// Padding multiplies x at an existing column by 0: if x holds Inf or NaN there, a padded row's
/// result is NaN where CSR would give a finite value. Only empty rows can differ from CSR, since
/// other rows pad with a column they already use.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class EllMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::ell_tag;
  using index_view = Kokkos::View<Ordinal*, Device>;
  using values_view = Kokkos::View<Scalar*, Device>;

  index_view col_indices;  ///< width * num_rows, column-major
  values_view values;      ///< width * num_rows, column-major
  index_view row_lengths;  ///< num_rows: entries before padding

  EllMatrix() : base() { this->m_name = "EllMatrix"; }
  /// Wraps existing Views (no copy); throws std::invalid_argument if extents do not fit.
  EllMatrix(Ordinal num_rows, Ordinal num_cols, Ordinal width, Offset nnz, const index_view& indices,
            const values_view& vals, const index_view& lengths)
      : base("EllMatrix", num_rows, num_cols, nnz), col_indices(indices), values(vals), row_lengths(lengths),
        m_width(width) {
    if (width < 0) this->fail("negative width");
    this->expect_extent(col_indices, stored_entries(), "col_indices");
    this->expect_extent(values, stored_entries(), "values");
    this->expect_extent(row_lengths, size_t(num_rows), "row_lengths");
  }

  Ordinal width() const { return m_width; }
  /// Slots stored, padding included: width * num_rows.
  size_t stored_entries() const { return size_t(m_width) * size_t(this->num_rows()); }
  /// Stored slots per entry of the original matrix (1 = no padding).
  double fill_ratio() const { return this->nnz() > 0 ? double(stored_entries()) / double(this->nnz()) : 1.0; }
  /// Bytes of the arrays.
  size_t bytes() const {
    return stored_entries() * (sizeof(Ordinal) + sizeof(Scalar)) + row_lengths.extent(0) * sizeof(Ordinal);
  }

  /// Checks the contents (on a host copy): row lengths within [0, width] summing to nnz, every
  /// column index in [0, num_cols). Throws std::invalid_argument naming the first violation.
  void validate() const {
    auto lengths = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_lengths);
    int64_t total = 0;
    for (size_t i = 0; i < lengths.extent(0); ++i) {
      if (lengths(i) < 0 || lengths(i) > m_width) this->fail("row_lengths[" + std::to_string(i) + "] out of range");
      total += lengths(i);
    }
    if (total != int64_t(this->nnz())) this->fail("row lengths sum to " + std::to_string(total) + ", not nnz");
    this->expect_indices_below(col_indices, this->num_cols(), "col_indices");
  }

 private:
  Ordinal m_width = 0;
};

}  // namespace kspmv
