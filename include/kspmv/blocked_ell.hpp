#pragma once
/// \file blocked_ell.hpp
/// Blocked ELLPACK (SELL-C-sigma): rows in slices of slice_height (the warp or wavefront width on
/// GPUs), each slice padded only to its own longest row. Optionally rows are sorted by length
/// inside windows of sigma rows, which groups rows of similar length into a slice and cuts the
/// padding of irregular matrices. Data only; build one with
/// kspmv::convert<kspmv::BlockedEllMatrix>(csr, options).

#include "impl/matrix_base.hpp"

namespace kspmv {

/// A sparse matrix in blocked ELLPACK form. Position p (0 <= p < num_rows) holds original row
/// permutation[p] (or row p when permutation is empty). Position p lies in slice
/// s = p / slice_height at local row r = p % slice_height; slice s has width
/// w_s = (slice_offsets[s+1] - slice_offsets[s]) / slice_height and slot k < w_s of local row r
/// is at slice_offsets[s] + k*slice_height + r. Slots past row_lengths[p] are padding, as in
/// EllMatrix (the last column repeated with value 0; column 0 for empty rows).
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class BlockedEllMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::blocked_ell_tag;
  using index_view = Kokkos::View<Ordinal*, Device>;
  using offset_view = Kokkos::View<Offset*, Device>;
  using values_view = Kokkos::View<Scalar*, Device>;

  offset_view slice_offsets;  ///< num_slices + 1; slice s's slots start at slice_offsets[s]
  index_view col_indices;     ///< slice_offsets[num_slices] slots
  values_view values;         ///< slice_offsets[num_slices] slots
  index_view row_lengths;     ///< num_rows, by position: entries before padding
  index_view permutation;     ///< num_rows (position -> original row), or empty when unsorted

  BlockedEllMatrix() : base() { this->m_name = "BlockedEllMatrix"; }
  /// Wraps existing Views (no copy); throws std::invalid_argument if extents do not fit.
  BlockedEllMatrix(Ordinal num_rows, Ordinal num_cols, int slice_height, Offset nnz, const offset_view& offsets,
                   const index_view& indices, const values_view& vals, const index_view& lengths,
                   const index_view& perm)
      : base("BlockedEllMatrix", num_rows, num_cols, nnz), slice_offsets(offsets), col_indices(indices),
        values(vals), row_lengths(lengths), permutation(perm), m_slice_height(slice_height) {
    if (slice_height < 1) this->fail("slice_height must be positive");
    this->expect_extent(slice_offsets, size_t(num_slices()) + 1, "slice_offsets");
    if (col_indices.extent(0) != values.extent(0)) this->fail("col_indices and values differ in length");
    this->expect_extent(row_lengths, size_t(num_rows), "row_lengths");
    if (permutation.extent(0) != 0) this->expect_extent(permutation, size_t(num_rows), "permutation");
  }

  int slice_height() const { return m_slice_height; }
  Ordinal num_slices() const { return Ordinal((int64_t(this->num_rows()) + m_slice_height - 1) / m_slice_height); }
  bool is_permuted() const { return permutation.extent(0) != 0; }
  /// Slots stored, padding included.
  size_t stored_entries() const { return col_indices.extent(0); }
  double fill_ratio() const { return this->nnz() > 0 ? double(stored_entries()) / double(this->nnz()) : 1.0; }
  size_t bytes() const {
    return stored_entries() * (sizeof(Ordinal) + sizeof(Scalar)) + slice_offsets.extent(0) * sizeof(Offset) +
           (row_lengths.extent(0) + permutation.extent(0)) * sizeof(Ordinal);
  }

  /// Checks the contents (on a host copy): slice offsets non-decreasing multiples of the slice
  /// height, row lengths within their slice's width and summing to nnz, a permutation that is
  /// one, column indices in range. Throws std::invalid_argument naming the first violation.
  void validate() const {
    auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), slice_offsets);
    auto lengths = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_lengths);
    if (offsets(0) != 0) this->fail("slice_offsets[0] is not 0");
    if (size_t(offsets(num_slices())) != stored_entries()) this->fail("slice_offsets[num_slices] != stored slots");
    int64_t total = 0;
    for (Ordinal s = 0; s < num_slices(); ++s) {
      const int64_t span = int64_t(offsets(s + 1)) - int64_t(offsets(s));
      if (span < 0 || span % m_slice_height != 0) this->fail("slice " + std::to_string(s) + " has a bad span");
      for (int64_t p = int64_t(s) * m_slice_height; p < std::min<int64_t>(this->num_rows(), (s + 1) * int64_t(m_slice_height)); ++p) {
        if (lengths(p) < 0 || lengths(p) > span / m_slice_height) this->fail("row_lengths[" + std::to_string(p) + "] exceeds its slice");
        total += lengths(p);
      }
    }
    if (total != int64_t(this->nnz())) this->fail("row lengths sum to " + std::to_string(total) + ", not nnz");
    if (is_permuted()) {
      auto perm = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), permutation);
      std::vector<char> seen(size_t(this->num_rows()), 0);
      for (size_t p = 0; p < perm.extent(0); ++p) {
        if (perm(p) < 0 || perm(p) >= this->num_rows() || seen[perm(p)]) this->fail("permutation is not a permutation");
        seen[perm(p)] = 1;
      }
    }
    this->expect_indices_below(col_indices, std::max<int64_t>(this->num_cols(), 1), "col_indices");
  }

 private:
  int m_slice_height = 1;
};

}  // namespace kspmv
