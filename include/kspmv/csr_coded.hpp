#pragma once
/// \file csr_coded.hpp
/// CSR whose values are coded (value compression): each entry holds an 8-bit code into a table of
/// the matrix's distinct values, at most 256 (linear programs' +-1 and small integers, constant
/// coefficients, graph Laplacians of few degrees), so a nonzero costs sizeof(Ordinal) + 1 bytes
/// instead of sizeof(Scalar) + sizeof(Ordinal) (5 instead of 12 in fp64 with int indices). Data
/// only; build one with kspmv::convert<kspmv::CodedCsrMatrix>(csr), which finds the distinct
/// values on the device and refuses a matrix of more.

#include "csr_balanced.hpp"
#include "impl/matrix_base.hpp"

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>

namespace kspmv {

/// A CSR matrix A whose values are coded:
///
///     A(i, col_indices[k]) = table[codes[k]]  for k in [row_offsets[i], row_offsets[i+1])
///
/// with the row offsets and column indices of the CSR matrix it was made from (shared, not
/// copied: `balanced.csr`, whose values the kernels never read), its load-balanced partition
/// (`balanced`, as BalancedCsrMatrix), one code an entry and a table of at most max_values
/// values (by increasing bit pattern, as kspmv::convert makes it). spmv multiplies each gathered x
/// by its entry's table value: its products and sums are those of CSR holding those values.
/// Changing the values of the CSR matrix afterwards is not seen (as with any converted format).
///
/// On GPUs with the raw kernels, spmv runs the load-balanced CSR kernel over the partition,
/// reading a byte of code an entry instead of its value; elsewhere a thread per row.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class CodedCsrMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::csr_coded_tag;
  using csr_type = CsrMatrix<Scalar, Ordinal, Offset, Device>;
  using balanced_type = BalancedCsrMatrix<Scalar, Ordinal, Offset, Device>;
  using code_view = Kokkos::View<uint8_t*, Device>;
  using table_view = Kokkos::View<Scalar*, Device>;

  /// Most distinct values a table holds (the codes are 8 bits).
  static constexpr int64_t max_values = 256;

  /// The CSR structure (shared with the source) and its partition and workspace. Two spmv calls
  /// on the same matrix must not run concurrently (on different streams).
  balanced_type balanced;
  code_view codes;   ///< nnz: each entry's index into table
  table_view table;  ///< the distinct values, at most max_values

  CodedCsrMatrix() : base() { this->m_name = "CodedCsrMatrix"; }
  /// Wraps a partitioned CSR matrix, its codes and table (no copy); throws std::invalid_argument
  /// if codes does not have nnz entries or table more than max_values (validate() checks the
  /// codes against the table and the shared values).
  CodedCsrMatrix(const balanced_type& partitioned, const code_view& entry_codes, const table_view& values)
      : base("CodedCsrMatrix", partitioned.num_rows(), partitioned.num_cols(), partitioned.nnz()),
        balanced(partitioned), codes(entry_codes), table(values) {
    this->expect_extent(codes, size_t(this->nnz()), "codes");
    if (int64_t(table.extent(0)) > max_values) {
      this->fail("table has " + std::to_string(table.extent(0)) + " values, more than " + std::to_string(max_values));
    }
  }

  size_t stored_entries() const { return size_t(this->nnz()); }
  double fill_ratio() const { return 1.0; }
  /// Bytes of the codes, the table, the partition and its workspace (the CSR structure is shared).
  size_t bytes() const { return balanced.bytes() + codes.extent(0) + table.extent(0) * sizeof(Scalar); }

  /// Checks the structure (as BalancedCsrMatrix::validate) and, on host copies, that every code
  /// is inside the table and decodes to the shared CSR matrix's value bit for bit. Throws
  /// std::invalid_argument naming the first entry that does not.
  void validate() const {
    balanced.validate();
    const auto c = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), codes);
    const auto t = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), table);
    const auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), balanced.csr.values);
    for (size_t k = 0; k < c.extent(0); ++k) {
      if (size_t(c(k)) >= t.extent(0)) {
        this->fail("codes[" + std::to_string(k) + "] = " + std::to_string(int(c(k))) + " is outside the table of " +
                   std::to_string(t.extent(0)) + " values");
      }
      if (std::memcmp(&values(k), &t(c(k)), sizeof(Scalar)) != 0) {
        std::ostringstream what;
        what.precision(17);
        what << "entry " << k << " holds " << values(k) << " but its code " << int(c(k)) << " gives " << t(c(k));
        this->fail(what.str());
      }
    }
  }
};

}  // namespace kspmv
