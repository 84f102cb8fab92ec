#pragma once
/// \file csr_uniform.hpp
/// CSR whose stored entries all hold one value (value compression; an "iso-valued" matrix in
/// SuiteSparse:GraphBLAS's words): graphs' adjacency matrices, pattern matrices, unsmoothed
/// aggregation's prolongators. Kept as the structure of a CSR matrix and that one value, so a
/// nonzero costs sizeof(Ordinal) bytes instead of sizeof(Scalar) + sizeof(Ordinal) (4 instead of
/// 12 in fp64 with int indices). Data only; build one with kspmv::convert<kspmv::UniformCsrMatrix>(csr),
/// which checks that every value is the same, or let kspmv::Plan choose it.

#include "csr_balanced.hpp"
#include "impl/matrix_base.hpp"

#include <cstring>
#include <sstream>
#include <string>

namespace kspmv {

/// A CSR matrix A whose stored entries all equal one value v:
///
///     A(i, col_indices[k]) = v  for k in [row_offsets[i], row_offsets[i+1])
///
/// with the row offsets and column indices of the CSR matrix it was made from (shared, not
/// copied: `balanced.csr`, whose values the kernels never read) and its load-balanced partition
/// (`balanced`: blocks of equal numbers of entries, as BalancedCsrMatrix). spmv multiplies each
/// gathered x by v as it would a stored value: its products and sums are those of CSR holding v
/// in every entry. Changing the values of the CSR matrix afterwards is not seen (as with any
/// converted format).
///
/// On GPUs with the raw kernels, spmv runs the load-balanced CSR kernel over the partition
/// without loading values; elsewhere a thread per row.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class UniformCsrMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::csr_uniform_tag;
  using csr_type = CsrMatrix<Scalar, Ordinal, Offset, Device>;
  using balanced_type = BalancedCsrMatrix<Scalar, Ordinal, Offset, Device>;

  /// The CSR structure (shared with the source) and its partition and workspace. Two spmv calls
  /// on the same matrix must not run concurrently (on different streams).
  balanced_type balanced;
  /// The value of every stored entry.
  Scalar value = Scalar(0);

  UniformCsrMatrix() : base() { this->m_name = "UniformCsrMatrix"; }
  /// Wraps a partitioned CSR matrix whose values the caller knows to equal `v` (no check here:
  /// validate() checks; kspmv::convert checks on the device).
  UniformCsrMatrix(const balanced_type& partitioned, Scalar v)
      : base("UniformCsrMatrix", partitioned.num_rows(), partitioned.num_cols(), partitioned.nnz()),
        balanced(partitioned), value(v) {}

  size_t stored_entries() const { return size_t(this->nnz()); }
  double fill_ratio() const { return 1.0; }
  /// Bytes of the partition and its workspace (the CSR structure is shared; no values are held).
  size_t bytes() const { return balanced.bytes(); }

  /// Checks the structure (as BalancedCsrMatrix::validate) and, on a host copy, that every value
  /// of the shared CSR matrix still equals `value` bit for bit. Throws std::invalid_argument
  /// naming the first entry that differs.
  void validate() const {
    balanced.validate();
    const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), balanced.csr.values);
    for (size_t k = 0; k < values.extent(0); ++k) {
      if (std::memcmp(&values(k), &value, sizeof(Scalar)) != 0) {
        std::ostringstream what;
        what.precision(17);
        what << "entry " << k << " holds " << values(k) << ", not the matrix's one value " << value;
        this->fail(what.str());
      }
    }
  }
};

}  // namespace kspmv
