#pragma once
// CSR <-> DIA on the device.

#include <Kokkos_Core.hpp>

#include "../csr.hpp"
#include "../dia.hpp"
#include "convert_common.hpp"
#include "device_storage.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace kspmv {
namespace impl {

// A set of diagonals on the device: open addressing with linear probing in one allocation,
// whose last two slots hold the number of keys and whether the set failed (a key beyond the
// limit, or a full table). Kokkos::UnorderedMap, used before, cost 120-190 us to construct on
// the H200 (several initialised allocations); a flag per possible diagonal (rows + columns - 1)
// cost an allocation and a scan of that size: 2.8 ms of DIA's conversion of 7-point Poisson
// 300^3, against 0.5 ms with this set.
template <class D>
class DiagonalSet {
 public:
  /// What the device threads use: the slots and the set's shape (a kernel captures a copy).
  struct Table {
    Kokkos::View<int64_t*, D, Kokkos::MemoryTraits<Kokkos::Unmanaged>> slots;  // capacity + 2
    int64_t limit = 0;
    int64_t capacity = 0;  // a power of two
    int shift = 0;         // 64 - log2(capacity)
    /// Adds d (any value but INT64_MIN, the empty slot); false once the set has failed.
    KOKKOS_INLINE_FUNCTION bool insert(int64_t d) const {
      const int64_t empty = kEmpty;
      // Once the set has failed, the threads still running stop at their next insert instead of
      // probing a full table.
      if (*static_cast<volatile const int64_t*>(&slots(capacity + 1)) != 0) return false;
      // Fibonacci hashing: the top log2(capacity) bits of d x 2^64/phi pick the first slot.
      int64_t slot = int64_t((uint64_t(d) * 0x9e3779b97f4a7c15ull) >> shift);
      for (int64_t probe = 0; probe < capacity; ++probe, slot = (slot + 1) & (capacity - 1)) {
        int64_t key = slots(slot);
        if (key == empty) key = Kokkos::atomic_compare_exchange(&slots(slot), empty, d);
        if (key == empty) {
          if (Kokkos::atomic_fetch_add(&slots(capacity), int64_t(1)) < limit) return true;
          break;  // one key more than the limit
        }
        if (key == d) return true;
      }
      fail();
      return false;
    }
    /// Marks the set failed (as a key beyond the limit would).
    KOKKOS_INLINE_FUNCTION void fail() const { slots(capacity + 1) = 1; }
  };

  /// Holds up to limit keys; more make the set fail.
  explicit DiagonalSet(int64_t limit) {
    table_.limit = limit;
    table_.capacity = 64;
    table_.shift = 58;
    while (table_.capacity < 2 * limit + 64) {
      table_.capacity *= 2;
      --table_.shift;
    }
    // Storage without a View's header, whose copy to the device waits (device_storage.hpp): the
    // plan's analysis waits once for all its passes, this set's included.
    const size_t slots = size_t(table_.capacity) + 2;
    storage_ = device_storage<D>("kspmv::diagonals", slots * sizeof(int64_t));
    table_.slots = decltype(table_.slots)(static_cast<int64_t*>(storage_.get()), slots);
    // Filled on the execution space without a wait: the inserts run behind the fills, and
    // size_and_failed's copy waits for all of them.
    const typename D::execution_space space;
    Kokkos::deep_copy(space, table_.slots, kEmpty);
    Kokkos::deep_copy(space, Kokkos::subview(table_.slots, std::make_pair(table_.capacity, table_.capacity + 2)),
                      int64_t(0));
  }
  const Table& table() const { return table_; }
  /// Keys held and whether the set failed, in one copy to the host (it waits for the device).
  std::pair<int64_t, bool> size_and_failed() const {
    int64_t tail[2];
    Kokkos::deep_copy(Kokkos::View<int64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(tail, 2),
                      Kokkos::subview(table_.slots, std::make_pair(table_.capacity, table_.capacity + 2)));
    return {tail[0], tail[1] != 0};
  }
  /// The keys, ascending, on the host.
  std::vector<int64_t> sorted_keys() const {
    const auto slots = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), table_.slots);
    std::vector<int64_t> keys;
    for (int64_t s = 0; s < table_.capacity; ++s)
      if (slots(s) != kEmpty) keys.push_back(slots(s));
    std::sort(keys.begin(), keys.end());
    return keys;
  }

 private:
  static constexpr int64_t kEmpty = std::numeric_limits<int64_t>::min();
  Table table_;
  std::shared_ptr<void> storage_;  // owns the slots' memory
};

// Adds the diagonals (col - row) of rows 0, stride, 2 x stride, ... to a device hash set. With
// stride 1, an entry whose diagonal the previous row also occupies skips the hash set (that row
// added it, or its own predecessor did): a stencil's rows then cost a merge with the row above
// instead of a hash probe per entry. Measured on the H200, the plan's analysis (which counted
// every row then) went from 3.8 to 2.5 ms on banded and 2.5 to 1.8-2.2 ms on 27-point Poisson.
// Faster ways to read the rows measured slower (experiments outside the repository): lanes
// reading a row together (Kokkos teams of 8 or 4 lanes a row) 1.5-3.4x on the stencils, a thread
// per slot of an ELLPACK layout 1.1 against 0.4 ms on 7-point Poisson 300^3, and a team staging
// its rows' columns in scratch, as fill_dia does, 0.9 against 0.5 ms there and 1.5 against 0.7 ms
// on an 11-diagonal band of 32 million rows (two runs; 1.1 ms either way on 27-point Poisson).
// With longest_walked >= 0 (the plan's count, which uses it only where no row holds more entries,
// each entry a diagonal of its own), a row of more entries fails the set at once instead of
// being walked: on the H200 a thread walking fast0507's rows of up to 7,753 entries beside their
// predecessors took the plan's analysis from about 300 us to 978 us (perf_tests/results/h200_plan_fourth).
template <class S, class O, class Off, class D>
void insert_diagonals(const CsrMatrix<S, O, Off, D>& A, const DiagonalSet<D>& diagonals, int64_t stride,
                      const char* label = "kspmv::convert[diagonals]", int64_t longest_walked = -1) {
  using execution_space = typename D::execution_space;
  const auto offsets = A.row_offsets;
  const auto cols = A.col_indices;
  const auto table = diagonals.table();
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>(0, (A.num_rows() + stride - 1) / stride),
      KOKKOS_LAMBDA(const int64_t s) {
        const int64_t i = s * stride;
        if (longest_walked >= 0 && int64_t(offsets(i + 1)) - int64_t(offsets(i)) > longest_walked) {
          table.fail();
          return;
        }
        // The previous row's entries, walked in step: columns ascend within a row, so do their
        // diagonals; unsorted columns only make the walk miss, which costs a probe, not a key.
        auto above = stride == 1 && i > 0 ? offsets(i - 1) : offsets(i);
        const auto above_end = offsets(i);
        for (auto k = offsets(i); k < offsets(i + 1); ++k) {
          const int64_t d = int64_t(cols(k)) - i;
          while (above < above_end && int64_t(cols(above)) - (i - 1) < d) ++above;
          if (above < above_end && int64_t(cols(above)) - (i - 1) == d) continue;
          if (!table.insert(d)) return;
        }
      });
}

/// The occupied diagonals (col - row) of A, ascending, or refuses more than max_diagonals.
template <class S, class O, class Off, class D>
Kokkos::View<O*, D> occupied_diagonals(const CsrMatrix<S, O, Off, D>& A, int64_t max_diagonals) {
  const int64_t span = A.num_rows() + A.num_cols() > 0 ? A.num_rows() + A.num_cols() - 1 : 0;
  const DiagonalSet<D> set(std::min(max_diagonals, span));  // no more keys than possible diagonals
  insert_diagonals(A, set, 1);
  if (set.size_and_failed().second) {
    refuse("DiaMatrix", "more occupied diagonals than max_diagonals " + std::to_string(max_diagonals));
  }
  const std::vector<int64_t> keys = set.sorted_keys();
  Kokkos::View<O*, D> offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::dia::diagonal_offsets"),
                              keys.size());
  const auto host = Kokkos::create_mirror_view(offsets);
  for (size_t d = 0; d < keys.size(); ++d) host(d) = O(keys[d]);
  Kokkos::deep_copy(offsets, host);
  return offsets;
}

/// values(d x m + i) = the entries of row i on diagonal diagonal_offsets(d) (summed if
/// duplicated; 0 if none), for every diagonal: each thread writes all slots of its row, so no
/// zeroing pass and no read-modify-write. Every entry's diagonal must be among diagonal_offsets
/// (ascending). Rows with ascending columns are merged with the diagonals; the others look each
/// entry's diagonal up.
template <class S, class O, class Off, class D>
void fill_dia(const CsrMatrix<S, O, Off, D>& A, const Kokkos::View<O*, D>& diagonal_offsets,
              const Kokkos::View<S*, D>& values) {
  using execution_space = typename D::execution_space;
  using Team = Kokkos::TeamPolicy<execution_space>;
  using Scratch = typename execution_space::scratch_memory_space;
  using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  using ValueScratch = Kokkos::View<S*, Scratch, Unmanaged>;
  using ColumnScratch = Kokkos::View<O*, Scratch, Unmanaged>;
  const int64_t m = A.num_rows(), diagonals = diagonal_offsets.extent(0);
  if (m == 0) return;
  const DiaFillShape shape = dia_fill_shape<execution_space>(double(A.nnz()) / double(m), int(sizeof(S) + sizeof(O)));
  const int64_t rows_per_team = shape.rows_per_team, staged = shape.staged_entries;
  const int64_t scratch = staged > 0 ? staged : 1;
  Team policy(int((m + rows_per_team - 1) / rows_per_team), shape.team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(ValueScratch::shmem_size(scratch) + ColumnScratch::shmem_size(scratch)));
  const auto row_offsets = A.row_offsets;
  const auto cols = A.col_indices;
  const auto vals = A.values;
  Kokkos::parallel_for(
      "kspmv::convert[dia]", policy, KOKKOS_LAMBDA(const typename Team::member_type& team) {
        const ValueScratch staged_values(team.team_scratch(0), scratch);
        const ColumnScratch staged_cols(team.team_scratch(0), scratch);
        const int64_t r0 = int64_t(team.league_rank()) * rows_per_team;
        const int64_t r1 = r0 + rows_per_team < m ? r0 + rows_per_team : m;
        const int64_t first = row_offsets(r0), last = row_offsets(r1);
        const bool in_scratch = last - first <= staged;
        if (in_scratch) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const int64_t k) {
            staged_cols(k - first) = cols(k);
            staged_values(k - first) = vals(k);
          });
        }
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r0, r1), [&](const int64_t i) {
          const auto diagonal = [&](int64_t k) {
            return int64_t(in_scratch ? staged_cols(k - first) : cols(k)) - i;
          };
          const auto value = [&](int64_t k) { return in_scratch ? staged_values(k - first) : vals(k); };
          const int64_t begin = row_offsets(i), end = row_offsets(i + 1);
          bool ascending = true;
          for (int64_t k = begin + 1; k < end; ++k) ascending = ascending && diagonal(k - 1) <= diagonal(k);
          if (ascending) {
            int64_t k = begin;
            for (int64_t d = 0; d < diagonals; ++d) {
              S sum = S(0);
              for (; k < end && diagonal(k) == int64_t(diagonal_offsets(d)); ++k) sum += value(k);
              values(d * m + i) = sum;
            }
            return;
          }
          for (int64_t d = 0; d < diagonals; ++d) values(d * m + i) = S(0);
          for (int64_t k = begin; k < end; ++k) {
            int64_t lo = 0, hi = diagonals;  // the slot of diagonal(k): first offset >= it
            while (lo < hi) {
              const int64_t mid = (lo + hi) / 2;
              if (int64_t(diagonal_offsets(mid)) < diagonal(k)) {
                lo = mid + 1;
              } else {
                hi = mid;
              }
            }
            values(lo * m + i) += value(k);
          }
        });
      });
}

/// Occupied diagonals come from a device hash set of at most max_diagonals keys (refused beyond,
/// before anything large is allocated); the fill ratio (diagonals x rows over nnz) is checked
/// next. Duplicate entries are summed.
template <class S, class O, class Off, class D>
DiaMatrix<S, O, Off, D> dia_from_csr(const CsrMatrix<S, O, Off, D>& A, int64_t max_diagonals, double max_fill) {
  const int64_t m = A.num_rows();
  const Kokkos::View<O*, D> offsets = occupied_diagonals(A, max_diagonals);
  const int64_t diagonals = offsets.extent(0);
  const double fill = A.nnz() > 0 ? double(diagonals) * double(m) / double(A.nnz()) : 1.0;
  if (diagonals > 0 && fill > max_fill) {
    refuse("DiaMatrix", std::to_string(diagonals) + " diagonals x " + std::to_string(m) + " rows for " +
                            std::to_string(A.nnz()) + " entries (fill ratio " + std::to_string(fill) +
                            ") exceed max_fill_ratio " + std::to_string(max_fill));
  }
  Kokkos::View<S*, D> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::dia::values"), diagonals * m);
  fill_dia(A, offsets, values);
  return DiaMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), A.nnz(), offsets, values);
}

/// The nonzero slots of each row, by increasing column. Explicit zeros and duplicates of the
/// original CSR do not survive DIA, so the round trip is exact for canonical CSR only.
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> dia_to_csr(const DiaMatrix<S, O, Off, D>& A) {
  using execution_space = typename D::execution_space;
  using Policy = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  const int64_t m = A.num_rows(), n = A.num_cols(), diagonals = A.num_diagonals();
  const auto diagonal_offsets = A.diagonal_offsets;
  const auto dia_values = A.values;
  auto in_row = KOKKOS_LAMBDA(const int64_t i, const int64_t d) {
    const int64_t col = i + diagonal_offsets(d);
    return col >= 0 && col < n && dia_values(d * m + i) != S(0);
  };
  Kokkos::View<O*, D> lengths(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::to_csr::lengths"), m);
  Kokkos::parallel_for(
      "kspmv::to_csr[dia_lengths]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        O count = 0;
        for (int64_t d = 0; d < diagonals; ++d) count += in_row(i, d);
        lengths(i) = count;
      });
  Kokkos::View<Off*, D> offsets("kspmv::csr::row_offsets", m + 1);
  const int64_t nnz = exclusive_scan<execution_space>(offsets, lengths);
  Kokkos::View<O*, D> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::col_indices"), nnz);
  Kokkos::View<S*, D> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::values"), nnz);
  Kokkos::parallel_for(
      "kspmv::to_csr[dia]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        int64_t out = offsets(i);
        for (int64_t d = 0; d < diagonals; ++d) {
          if (!in_row(i, d)) continue;
          indices(out) = O(i + diagonal_offsets(d));
          values(out++) = dia_values(d * m + i);
        }
      });
  return CsrMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), offsets, indices, values);
}

}  // namespace impl
}  // namespace kspmv
