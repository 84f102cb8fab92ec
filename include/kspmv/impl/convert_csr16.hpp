#pragma once
// Conversions between CSR and CSR with 16-bit column offsets (csr16.hpp), on the device: a team
// per block finds its smallest and largest column, a scan places the wide blocks' high halves,
// and a thread per entry writes its offset; the blocks' load-balanced partition is that of
// BalancedCsrMatrix. Row offsets and values are shared, not copied.

#include "../csr.hpp"
#include "../csr16.hpp"
#include "convert_common.hpp"
#include "csr_balanced.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>

namespace kspmv {
namespace impl {

template <class S, class O, class Off, class D>
Csr16Matrix<S, O, Off, D> csr16_from_csr(const CsrMatrix<S, O, Off, D>& A) {
  using ExecSpace = typename D::execution_space;
  using Matrix = Csr16Matrix<S, O, Off, D>;
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>;
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  const int64_t block = Matrix::block_entries;  // a copy the device lambdas capture
  const int64_t nnz = int64_t(A.nnz()), blocks = (nnz + block - 1) / block;
  typename Matrix::base_view bases(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr16::block_base"),
                                   blocks);
  typename Matrix::wide_view wide(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr16::wide_offset"),
                                  blocks);
  Kokkos::View<int64_t*, D> wide_entries("kspmv::csr16::wide_entries", blocks);  // a wide block's entries, else 0
  Kokkos::View<int64_t, D> too_wide("kspmv::csr16::too_wide");
  const auto cols = A.col_indices;
  if (blocks > 0) {
    Kokkos::parallel_for(
        "kspmv::convert[csr16_blocks]", Team(int(blocks), Kokkos::AUTO),
        KOKKOS_LAMBDA(const typename Team::member_type& team) {
          const int64_t b = team.league_rank(), k0 = b * block, k1 = k0 + block < nnz ? k0 + block : nnz;
          const auto range = team_column_range(team, cols, k0, k1);
          Kokkos::single(Kokkos::PerTeam(team), [&] {
            bases(b) = O(range.min_val);
            const uint64_t span = uint64_t(range.max_val - range.min_val);
            wide_entries(b) = span > 0xFFFFu ? k1 - k0 : 0;
            if (span > 0xFFFFFFFFull) Kokkos::atomic_add(&too_wide(), int64_t(1));
          });
        });
  }
  int64_t refused = 0;
  Kokkos::deep_copy(refused, too_wide);
  if (refused > 0) {
    refuse("Csr16Matrix", std::to_string(refused) + " block(s) of " + std::to_string(block) +
                              " entries span 2^32 columns or more, beyond 16 + 16 bits of column offset");
  }
  Kokkos::View<int64_t*, D> starts(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr16::wide_starts"),
                                   blocks + 1);
  const int64_t high_entries = exclusive_scan<ExecSpace>(starts, wide_entries, "Csr16Matrix");
  Kokkos::parallel_for(
      "kspmv::convert[csr16_wide]", Policy(0, blocks),
      KOKKOS_LAMBDA(const int64_t b) { wide(b) = wide_entries(b) > 0 ? starts(b) : int64_t(-1); });
  typename Matrix::half_view low(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr16::col_low"), nnz);
  typename Matrix::half_view high(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr16::col_high"),
                                  high_entries);
  Kokkos::parallel_for(
      "kspmv::convert[csr16_columns]", Policy(0, nnz), KOKKOS_LAMBDA(const int64_t k) {
        const int64_t b = k / block;
        const uint64_t d = uint64_t(int64_t(cols(k)) - int64_t(bases(b)));
        low(k) = uint16_t(d & 0xFFFFu);
        if (wide(b) >= 0) high(wide(b) + k - b * block) = uint16_t(d >> 16);
      });
  typename Matrix::base_view first_rows(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr16::block_first_row"), blocks + 1);
  Matrix result(A.num_rows(), A.num_cols(), A.nnz(), A.row_offsets, A.values, low, bases, wide, high, first_rows);
  write_balanced_partition(ExecSpace(), A, block, blocks, first_rows, result.arrivals);
  return result;
}

template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> csr16_to_csr(const Csr16Matrix<S, O, Off, D>& A) {
  using ExecSpace = typename D::execution_space;
  const int64_t block = Csr16Matrix<S, O, Off, D>::block_entries;
  typename CsrMatrix<S, O, Off, D>::col_indices_type cols(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::col_indices"), size_t(A.nnz()));
  const auto low = A.col_low;
  const auto high = A.col_high;
  const auto bases = A.block_base;
  const auto wide = A.wide_offset;
  Kokkos::parallel_for(
      "kspmv::convert[csr16_to_csr]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, int64_t(A.nnz())),
      KOKKOS_LAMBDA(const int64_t k) {
        const int64_t b = k / block;
        const int64_t h = wide(b) >= 0 ? int64_t(high(wide(b) + k - b * block)) : 0;
        cols(k) = O(int64_t(bases(b)) + (h << 16) + int64_t(low(k)));
      });
  return CsrMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), A.row_offsets, cols, A.values);
}

}  // namespace impl
}  // namespace kspmv
