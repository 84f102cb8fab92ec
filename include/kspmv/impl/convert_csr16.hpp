#pragma once
// Conversions between CSR and CSR with 16-bit column offsets (csr16.hpp), on the device: a team
// per block finds its smallest and largest column and writes its entries' low halves; where
// blocks span more than 16 bits, a scan places their high halves; the blocks' load-balanced
// partition is that of BalancedCsrMatrix. Row offsets and values are shared, not copied.

#include "../csr.hpp"
#include "../csr16.hpp"
#include "convert_common.hpp"
#include "csr_balanced.hpp"
#include "device_storage.hpp"

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
  const ExecSpace space;
  const int64_t block = Matrix::block_entries;  // a copy the device lambdas capture
  const int64_t nnz = int64_t(A.nnz()), blocks = (nnz + block - 1) / block;
  Matrix result(A.num_rows(), A.num_cols(), A.nnz(), A.row_offsets, A.values);  // its arrays in one allocation
  const auto bases = result.block_base;
  const auto wide = result.wide_offset;
  const auto low = result.col_low;
  // [0]: entries of the wide blocks, [1]: blocks too wide to store. Zeroed without a wait.
  const auto count_storage = device_storage<D>("kspmv::csr16::counts", 2 * sizeof(int64_t));
  const Kokkos::View<int64_t*, D, Kokkos::MemoryTraits<Kokkos::Unmanaged>> counts(
      static_cast<int64_t*>(count_storage.get()), 2);
  Kokkos::deep_copy(space, counts, int64_t(0));
  const auto cols = A.col_indices;
  // A team per block finds the block's column range and writes every entry's low half in the
  // same launch (the second read of the columns hits the cache); wide(b) holds the block's
  // entries if it is wide, -1 if not; then one wait. Before, the range, a wait for the refusal,
  // a scan and the halves were four launches and three waits, and the arrays six Views, each
  // allocation a copy of its header to the device and a wait: on the H200 the conversion went
  // from 677-1282 us to 241-644 us (811 to 290 us, geometric mean over the 53 replicated real
  // matrices; the first call included: perf_tests/results/h200_plan_analysis_one_pass).
  if (blocks > 0) {
    Kokkos::parallel_for(
        "kspmv::convert[csr16_blocks]", Team(space, int(blocks), Kokkos::AUTO),
        KOKKOS_LAMBDA(const typename Team::member_type& team) {
          const int64_t b = team.league_rank(), k0 = b * block, k1 = k0 + block < nnz ? k0 + block : nnz;
          const auto range = team_column_range(team, cols, k0, k1);
          const int64_t base = range.min_val;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, k0, k1),
                               [&](const int64_t k) { low(k) = uint16_t(uint64_t(int64_t(cols(k)) - base) & 0xFFFFu); });
          Kokkos::single(Kokkos::PerTeam(team), [&] {
            bases(b) = O(base);
            const uint64_t span = uint64_t(range.max_val - range.min_val);
            wide(b) = span > 0xFFFFu ? k1 - k0 : int64_t(-1);
            if (span > 0xFFFFu) Kokkos::atomic_add(&counts(0), k1 - k0);
            if (span > 0xFFFFFFFFull) Kokkos::atomic_add(&counts(1), int64_t(1));
          });
        });
  }
  int64_t found[2];
  Kokkos::deep_copy(Kokkos::View<int64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(found, 2),
                    counts);  // the one wait
  if (found[1] > 0) {
    refuse("Csr16Matrix", std::to_string(found[1]) + " block(s) of " + std::to_string(block) +
                              " entries span 2^32 columns or more, beyond 16 + 16 bits of column offset");
  }
  const int64_t high_entries = found[0];
  if (high_entries > 0) {
    typename Matrix::half_view high(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr16::col_high"),
                                    high_entries);
    result.col_high = high;
    // The wide blocks' high halves, block after block: each wide block's first place in col_high,
    // from a scan of their entries (its total is high_entries: no reduction, no wait).
    const auto scan_storage = device_storage<D>("kspmv::csr16::wide_starts", size_t(2 * blocks + 1) * sizeof(int64_t));
    using Unmanaged = Kokkos::View<int64_t*, D, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const Unmanaged wide_entries(static_cast<int64_t*>(scan_storage.get()), blocks);
    const Unmanaged starts(static_cast<int64_t*>(scan_storage.get()) + blocks, blocks + 1);
    Kokkos::parallel_for(
        "kspmv::convert[csr16_wide]", Policy(space, 0, blocks),
        KOKKOS_LAMBDA(const int64_t b) { wide_entries(b) = wide(b) > 0 ? wide(b) : 0; });
    Kokkos::parallel_scan("kspmv::convert[csr16_wide_scan]", Policy(space, 0, blocks + 1),
                          ExclusiveScanFunctor<Unmanaged, Unmanaged>{starts, wide_entries, blocks});
    Kokkos::parallel_for(
        "kspmv::convert[csr16_high]", Policy(space, 0, nnz), KOKKOS_LAMBDA(const int64_t k) {
          const int64_t b = k / block;
          if (wide_entries(b) == 0) return;
          const uint64_t d = uint64_t(int64_t(cols(k)) - int64_t(bases(b)));
          high(starts(b) + k - b * block) = uint16_t(d >> 16);
          if (k == b * block) wide(b) = starts(b);
        });
  }
  write_balanced_partition(space, A, block, blocks, result.block_first_row, result.arrivals);
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
