#pragma once
/// \file csr_balanced.hpp
/// Load-balanced CSR: a CSR matrix plus a partition of its nonzeros into blocks of equal size,
/// built by a cheap analysis on the device (one binary search per block). The kernel's speed
/// does not depend on how the nonzeros are spread over rows. Data only; build one with
/// kspmv::convert<kspmv::BalancedCsrMatrix>(csr) or let kspmv::Plan choose it.

#include "csr.hpp"
#include "impl/matrix_base.hpp"

namespace kspmv {

/// A CSR matrix (shared, not copied) and its partition: block b covers entries
/// [b*entries_per_block, min(nnz, (b+1)*entries_per_block)) and owns the rows that start in it,
/// rows [block_first_row[b], block_first_row[b+1]). The last row a block owns may continue into
/// later blocks ("spill"); spill_blocks lists those blocks, whose rows are finished by adding
/// the later blocks' partial sums in block order, so results are the same bits every run.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class BalancedCsrMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::csr_balanced_tag;
  using index_view = Kokkos::View<Ordinal*, Device>;
  using block_view = Kokkos::View<int64_t*, Device>;

  CsrMatrix<Scalar, Ordinal, Offset, Device> csr;
  index_view block_first_row;  ///< num_blocks + 1
  block_view spill_blocks;     ///< blocks whose last row continues past them
  /// Workspace of the kernel, 2 x num_blocks partial sums, so spmv allocates nothing. Two spmv
  /// calls on the same matrix must not run concurrently (on different streams).
  Kokkos::View<Scalar*, Device> partial_sums;

  BalancedCsrMatrix() : base() { this->m_name = "BalancedCsrMatrix"; }
  BalancedCsrMatrix(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, int64_t entries_per_block, int lanes,
                    const index_view& first_rows, const block_view& spills)
      : base("BalancedCsrMatrix", A.num_rows(), A.num_cols(), A.nnz()), csr(A), block_first_row(first_rows),
        spill_blocks(spills),
        partial_sums(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_balanced::partial_sums"),
                     2 * size_t((int64_t(A.nnz()) + std::max<int64_t>(entries_per_block, 1) - 1) /
                                std::max<int64_t>(entries_per_block, 1))),
        m_entries_per_block(entries_per_block),
        m_lanes(lanes) {
    if (entries_per_block < 1) this->fail("entries_per_block must be positive");
    this->expect_extent(block_first_row, size_t(num_blocks()) + 1, "block_first_row");
  }

  int64_t entries_per_block() const { return m_entries_per_block; }
  /// Vector lanes that reduce one row inside a block.
  int lanes() const { return m_lanes; }
  int64_t num_blocks() const { return (int64_t(this->nnz()) + m_entries_per_block - 1) / m_entries_per_block; }
  size_t stored_entries() const { return size_t(this->nnz()); }
  double fill_ratio() const { return 1.0; }
  /// Bytes of the partition (the CSR arrays are shared).
  size_t bytes() const { return block_first_row.extent(0) * sizeof(Ordinal) + spill_blocks.extent(0) * sizeof(int64_t); }

  void validate() const {
    csr.validate();
    auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block_first_row);
    for (size_t b = 1; b < first.extent(0); ++b) {
      if (first(b) < first(b - 1)) this->fail("block_first_row decreases at block " + std::to_string(b));
    }
  }

 private:
  int64_t m_entries_per_block = 1;
  int m_lanes = 1;
};

}  // namespace kspmv
