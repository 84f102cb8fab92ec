#pragma once
/// \file csr_balanced.hpp
/// Load-balanced CSR: a CSR matrix plus a partition of its nonzeros into blocks of equal size,
/// built by a cheap analysis on the device (one binary search per block). The kernel's speed
/// does not depend on how the nonzeros are spread over rows. Data only; build one with
/// kspmv::convert<kspmv::BalancedCsrMatrix>(csr) or let kspmv::Plan choose it.

#include "csr.hpp"
#include "impl/device_storage.hpp"
#include "impl/matrix_base.hpp"

#include <memory>
#include <string>

namespace kspmv {

/// A CSR matrix (shared, not copied) and its partition: block b covers entries
/// [b*entries_per_block, min(nnz, (b+1)*entries_per_block)) and owns the rows that start in it,
/// rows [block_first_row[b], block_first_row[b+1]). The last row a block owns may continue into
/// later blocks ("spill"); such a row is finished by adding the later blocks' partial sums in
/// block order, so results are the same bits every run: by a second kernel (Kokkos kernel), or
/// by the last block to reach the row, counted in `arrivals` (raw kernel).
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class BalancedCsrMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::csr_balanced_tag;
  using index_view = Kokkos::View<Ordinal*, Device>;

  CsrMatrix<Scalar, Ordinal, Offset, Device> csr;
  index_view block_first_row;  ///< num_blocks + 1
  /// Workspace of the kernels, 2 x num_blocks partial sums and (raw kernel) num_blocks arrival
  /// counters, zero between calls, so spmv allocates nothing. Two spmv calls on the same matrix
  /// must not run concurrently (on different streams).
  Kokkos::View<Scalar*, Device> partial_sums;
  /// The same memory as 2 x num_blocks partial sums of mixed precision (float values with double
  /// x and y: sums in double; impl::widened), for the calls that take them.
  Kokkos::View<typename impl::widened<Scalar>::type*, Device> wide_partial_sums;
  Kokkos::View<int*, Device> arrivals;

  BalancedCsrMatrix() : base() { this->m_name = "BalancedCsrMatrix"; }
  /// A partition given by the caller (block_first_row: num_blocks + 1 rows); the workspace is
  /// allocated and zeroed here. Throws std::invalid_argument if entries_per_block is not
  /// positive, lanes not a power of two, or block_first_row of another length.
  BalancedCsrMatrix(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, int64_t entries_per_block, int lanes,
                    const index_view& first_rows)
      : BalancedCsrMatrix(A, entries_per_block, lanes, false) {
    block_first_row = first_rows;
    this->expect_extent(block_first_row, size_t(num_blocks()) + 1, "block_first_row");
    Kokkos::deep_copy(arrivals, 0);
  }
  /// Storage for a partition that the caller fills next: block_first_row and the workspace in
  /// one allocation (a few allocations cost more than the SpMV of a cache-resident matrix), left
  /// uninitialised: block_first_row must be written and arrivals zeroed before any spmv.
  BalancedCsrMatrix(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, int64_t entries_per_block, int lanes)
      : BalancedCsrMatrix(A, entries_per_block, lanes, true) {}

  int64_t entries_per_block() const { return m_entries_per_block; }
  /// Vector lanes that reduce one row inside a block.
  int lanes() const { return m_lanes; }
  int64_t num_blocks() const { return int64_t(block_count(this->nnz(), m_entries_per_block)); }
  size_t stored_entries() const { return size_t(this->nnz()); }
  double fill_ratio() const { return 1.0; }
  /// Bytes of the partition and its workspace (the CSR arrays are shared).
  size_t bytes() const {
    return block_first_row.extent(0) * sizeof(Ordinal) +
           wide_partial_sums.extent(0) * sizeof(typename impl::widened<Scalar>::type) + arrivals.extent(0) * sizeof(int);
  }

  void validate() const {
    csr.validate();
    auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block_first_row);
    for (size_t b = 1; b < first.extent(0); ++b) {
      if (first(b) < first(b - 1)) this->fail("block_first_row decreases at block " + std::to_string(b));
    }
  }

 private:
  static size_t block_count(int64_t nnz, int64_t entries_per_block) {
    const int64_t e = std::max<int64_t>(entries_per_block, 1);
    return size_t((nnz + e - 1) / e);
  }
  // One allocation holds the partial sums, the arrivals and (with_first_rows) block_first_row; the
  // three Views above point into it.
  BalancedCsrMatrix(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, int64_t entries_per_block, int lanes,
                    bool with_first_rows)
      : base("BalancedCsrMatrix", A.num_rows(), A.num_cols(), A.nnz()), csr(A),
        m_entries_per_block(entries_per_block),
        m_lanes(lanes) {
    if (entries_per_block < 1) this->fail("entries_per_block = " + std::to_string(entries_per_block) + " must be positive");
    // The Kokkos kernel launches lanes as its vector length and divides its team by them.
    if (lanes < 1 || (lanes & (lanes - 1)) != 0) this->fail("lanes = " + std::to_string(lanes) + " must be a power of two");
    const size_t blocks = block_count(A.nnz(), entries_per_block);
    auto aligned = [](size_t bytes) { return (bytes + 15) / 16 * 16; };
    using Wide = typename impl::widened<Scalar>::type;  // as wide as Scalar or wider
    const size_t sums_bytes = aligned(2 * blocks * sizeof(Wide)), arrivals_bytes = aligned(blocks * sizeof(int));
    const size_t rows_bytes = with_first_rows ? (blocks + 1) * sizeof(Ordinal) : 0;
    char* p = allocate_storage(sums_bytes + arrivals_bytes + rows_bytes);
    partial_sums = Kokkos::View<Scalar*, Device>(reinterpret_cast<Scalar*>(p), 2 * blocks);
    wide_partial_sums = Kokkos::View<Wide*, Device>(reinterpret_cast<Wide*>(p), 2 * blocks);
    arrivals = Kokkos::View<int*, Device>(reinterpret_cast<int*>(p + sums_bytes), blocks);
    if (with_first_rows) block_first_row = index_view(reinterpret_cast<Ordinal*>(p + sums_bytes + arrivals_bytes), blocks + 1);
  }

  // Not a View: see impl/device_storage.hpp (a View's allocation costs as much as a
  // cache-resident SpMV, on the first automatic spmv of a matrix).
  char* allocate_storage(size_t bytes) {
    m_storage = impl::device_storage<Device>("kspmv::csr_balanced::storage", bytes);
    return static_cast<char*>(m_storage.get());
  }

  std::shared_ptr<void> m_storage;  // owns the memory the Views above point into
  int64_t m_entries_per_block = 1;
  int m_lanes = 1;
};

}  // namespace kspmv
