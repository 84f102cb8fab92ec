#pragma once
/// \file csr16.hpp
/// CSR with 16-bit column offsets (index compression): the row offsets and values of CSR, and
/// each column stored as a 16-bit offset from a base column per block of entries, so that a
/// nonzero costs 2 bytes of index instead of 4 (10 bytes instead of 12 in fp64) wherever the
/// columns of a block of consecutive entries span fewer than 65,536 columns. Data only; build one
/// with kspmv::convert<kspmv::Csr16Matrix>(csr).

#include "impl/device_storage.hpp"
#include "impl/matrix_base.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

namespace kspmv {

/// A sparse matrix in CSR form whose column indices are compressed. Entries keep CSR's order;
/// entry k lies in block b = k / block_entries (block_entries = 2048, the load-balanced CSR
/// kernel's block). Its column is
///
///     col(k) = block_base[b] + d(k),  d(k) = col_low[k]                                (narrow block)
///                                     d(k) = col_high[wide_offset[b] + k - b * block_entries] * 65536
///                                            + col_low[k]                                (wide block)
///
/// where block_base[b] is the smallest column of block b, a block is narrow when its columns span
/// at most 65,535 (wide_offset[b] = -1) and wide otherwise (col_high holds the high 16 bits of
/// d for the entries of wide blocks, block after block). A block spanning 2^32 columns or more
/// (only possible with 64-bit ordinals) cannot be stored: the conversion refuses the matrix.
/// Bytes per nonzero: sizeof(Scalar) + 2 in narrow blocks, sizeof(Scalar) + 4 in wide ones.
/// Results are exact: the columns decode to CSR's.
///
/// The blocks are also a load-balanced partition (as BalancedCsrMatrix's with blocks of
/// block_entries): block b owns rows [block_first_row[b], block_first_row[b+1]), those that
/// start in it. On GPUs with the raw kernels, spmv runs the load-balanced CSR kernel on them
/// (a row spanning blocks is finished by adding its partial sums in block order: the same bits
/// every run); elsewhere a thread per row.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class Csr16Matrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::csr16_tag;
  using row_offsets_type = Kokkos::View<const Offset*, Device>;
  using values_type = Kokkos::View<Scalar*, Device>;
  using half_view = Kokkos::View<uint16_t*, Device>;
  using base_view = Kokkos::View<Ordinal*, Device>;
  using wide_view = Kokkos::View<int64_t*, Device>;

  /// Entries per block of the column compression.
  static constexpr int64_t block_entries = 2048;

  row_offsets_type row_offsets;  ///< num_rows + 1, as in CSR (shared with the source CSR)
  values_type values;            ///< nnz, as in CSR (shared with the source CSR)
  half_view col_low;             ///< nnz: low 16 bits of col - block_base
  base_view block_base;          ///< blocks: smallest column of the block
  wide_view wide_offset;         ///< blocks: -1 for a narrow block, else its first entry in col_high
  half_view col_high;            ///< entries of the wide blocks: high 16 bits of col - block_base
  base_view block_first_row;     ///< blocks + 1: the first row starting in each block, then num_rows
  /// Workspace of the load-balanced kernel: 2 x blocks partial sums and blocks arrival counters,
  /// zero between calls. Two spmv calls on the same matrix must not run concurrently.
  Kokkos::View<Scalar*, Device> partial_sums;
  Kokkos::View<int*, Device> arrivals;

  Csr16Matrix() : base() { this->m_name = "Csr16Matrix"; }
  /// Wraps existing Views (no copy) and allocates the workspace; throws std::invalid_argument if
  /// extents do not fit.
  Csr16Matrix(Ordinal num_rows, Ordinal num_cols, Offset nnz, const row_offsets_type& offsets, const values_type& vals,
              const half_view& low, const base_view& bases, const wide_view& wide, const half_view& high,
              const base_view& first_rows)
      : base("Csr16Matrix", num_rows, num_cols, nnz), row_offsets(offsets), values(vals), col_low(low),
        block_base(bases), wide_offset(wide), col_high(high), block_first_row(first_rows) {
    this->expect_extent(row_offsets, size_t(num_rows) + 1, "row_offsets");
    this->expect_extent(values, size_t(nnz), "values");
    this->expect_extent(col_low, size_t(nnz), "col_low");
    this->expect_extent(block_base, num_blocks(), "block_base");
    this->expect_extent(wide_offset, num_blocks(), "wide_offset");
    this->expect_extent(block_first_row, num_blocks() + 1, "block_first_row");
    partial_sums = Kokkos::View<Scalar*, Device>("kspmv::csr16::partial_sums", 2 * num_blocks());
    arrivals = Kokkos::View<int*, Device>("kspmv::csr16::arrivals", num_blocks());
  }
  /// Storage for a conversion that fills it next (kspmv::convert<Csr16Matrix>): col_low,
  /// block_base, wide_offset, block_first_row and the workspace in one allocation, left
  /// uninitialised, col_high empty. Every array but col_high must be written, col_high set if a
  /// block is wide, and arrivals zeroed before any spmv.
  Csr16Matrix(Ordinal num_rows, Ordinal num_cols, Offset nnz, const row_offsets_type& offsets, const values_type& vals)
      : base("Csr16Matrix", num_rows, num_cols, nnz), row_offsets(offsets), values(vals) {
    this->expect_extent(row_offsets, size_t(num_rows) + 1, "row_offsets");
    this->expect_extent(values, size_t(nnz), "values");
    const size_t blocks = num_blocks(), entries = size_t(nnz);
    auto aligned = [](size_t bytes) { return (bytes + 15) / 16 * 16; };
    const size_t sums = aligned(2 * blocks * sizeof(Scalar)), wide = aligned(blocks * sizeof(int64_t)),
                 bases = aligned(blocks * sizeof(Ordinal)), first = aligned((blocks + 1) * sizeof(Ordinal)),
                 counters = aligned(blocks * sizeof(int)), low = aligned(entries * sizeof(uint16_t));
    // Not Views: a View's allocation copies its header to the device and waits (impl/device_storage.hpp).
    m_storage = impl::device_storage<Device>("kspmv::csr16::storage", sums + wide + bases + first + counters + low);
    char* p = static_cast<char*>(m_storage.get());
    partial_sums = Kokkos::View<Scalar*, Device>(reinterpret_cast<Scalar*>(p), 2 * blocks);
    wide_offset = wide_view(reinterpret_cast<int64_t*>(p + sums), blocks);
    block_base = base_view(reinterpret_cast<Ordinal*>(p + sums + wide), blocks);
    block_first_row = base_view(reinterpret_cast<Ordinal*>(p + sums + wide + bases), blocks + 1);
    arrivals = Kokkos::View<int*, Device>(reinterpret_cast<int*>(p + sums + wide + bases + first), blocks);
    col_low = half_view(reinterpret_cast<uint16_t*>(p + sums + wide + bases + first + counters), entries);
  }

  /// Checks the contents (on a host copy): row offsets from 0 to nnz, never decreasing; each wide
  /// block's high halves inside col_high; every decoded column in [0, num_cols). Throws
  /// std::invalid_argument naming the first violation.
  void validate() const {
    const auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_offsets);
    if (offsets(0) != Offset(0) || offsets(offsets.extent(0) - 1) != this->nnz()) this->fail("row_offsets do not run from 0 to nnz");
    for (size_t i = 1; i < offsets.extent(0); ++i) {
      if (offsets(i) < offsets(i - 1)) this->fail("row_offsets decrease at row " + std::to_string(i - 1));
    }
    const auto low = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), col_low);
    const auto high = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), col_high);
    const auto bases = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block_base);
    const auto wide = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), wide_offset);
    const int64_t nnz = int64_t(this->nnz());
    const auto first = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), block_first_row);
    for (int64_t b = 0; b <= int64_t(num_blocks()); ++b) {
      // The first row whose entries start at or after the block's first entry.
      int64_t expected = int64_t(std::lower_bound(offsets.data(), offsets.data() + offsets.extent(0) - 1,
                                                  Offset(std::min(b * block_entries, nnz))) - offsets.data());
      if (b == int64_t(num_blocks())) expected = int64_t(this->num_rows());
      if (int64_t(first(b)) != expected) {
        this->fail("block_first_row[" + std::to_string(b) + "] = " + std::to_string(int64_t(first(b))) + ", not " +
                   std::to_string(expected));
      }
    }
    for (int64_t b = 0; b < int64_t(num_blocks()); ++b) {
      const int64_t length = std::min(block_entries, nnz - b * block_entries);
      if (wide(b) < -1 || (wide(b) >= 0 && wide(b) + length > int64_t(high.extent(0)))) {
        this->fail("wide_offset[" + std::to_string(b) + "] = " + std::to_string(wide(b)) + " is outside col_high");
      }
      for (int64_t k = b * block_entries; k < b * block_entries + length; ++k) {
        const int64_t h = wide(b) >= 0 ? int64_t(high(wide(b) + k - b * block_entries)) : 0;
        const int64_t col = int64_t(bases(b)) + (h << 16) + int64_t(low(k));
        if (col < 0 || col >= int64_t(this->num_cols())) {
          this->fail("the column of entry " + std::to_string(k) + " decodes to " + std::to_string(col) +
                     ", out of range [0, " + std::to_string(this->num_cols()) + ")");
        }
      }
    }
  }

  /// Blocks of block_entries entries (the last may be shorter).
  size_t num_blocks() const { return size_t((int64_t(this->nnz()) + block_entries - 1) / block_entries); }
  /// Entries stored with 4 bytes of index (those of wide blocks).
  size_t wide_entries() const { return col_high.extent(0); }
  /// Bytes of the arrays: row offsets, values, 2 bytes of index a nonzero, 2 more in wide
  /// blocks, and a base, a wide offset, a first row and the workspace a block.
  size_t bytes() const {
    return row_offsets.extent(0) * sizeof(Offset) + values.extent(0) * sizeof(Scalar) +
           (col_low.extent(0) + col_high.extent(0)) * sizeof(uint16_t) +
           num_blocks() * (2 * sizeof(Ordinal) + sizeof(int64_t) + 2 * sizeof(Scalar) + sizeof(int));
  }

 private:
  std::shared_ptr<void> m_storage;  // owns the memory of the Views above, if the conversion made them
};

}  // namespace kspmv
