#pragma once
// Conversions between CSR and CSR with coded values (csr_coded.hpp), on the device: the distinct
// values into a hash set (open addressing over coded_set_slots keys; the bits of the first value
// mark an empty slot, as that value is in the table anyway), a sample of 65,536 values first so
// that a matrix of many values is refused after a short pass; the table sorted by bit pattern on
// the host; each entry's code by a binary search of the table. The partition is that of
// BalancedCsrMatrix; row offsets and column indices are shared, not copied.

#include "../csr.hpp"
#include "../csr_coded.hpp"
#include "convert_common.hpp"
#include "csr_balanced.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kspmv {
namespace impl {

/// Keys of the conversion's set of distinct values (a quarter full at most: probe sequences stay
/// short), the probes an insertion tries, and the values it samples first.
constexpr int64_t coded_set_slots = 1024;
constexpr int coded_set_probes = 64;
constexpr int64_t coded_sample = 65536;

/// The bits of a 4- or 8-byte value as a 64-bit key.
template <class T>
KOKKOS_INLINE_FUNCTION uint64_t value_bits(const T& v) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "values of 4 or 8 bytes");
  if constexpr (sizeof(T) == 8) {
    uint64_t b;
    memcpy(&b, &v, 8);
    return b;
  } else {
    uint32_t b;
    memcpy(&b, &v, 4);
    return b;
  }
}

// A 64-bit finaliser (MurmurHash3's): neighbouring bit patterns land far apart.
KOKKOS_INLINE_FUNCTION uint64_t mixed_bits(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

/// Launches (without waiting) the insertion of the values of entries 0, stride, 2 x stride, ...
/// (count of them) into keys (coded_set_slots, each `empty` before: the bits of values(0)):
/// state(0) counts the keys added, state(1) becomes 1 once more than most_added were or an
/// insertion found no slot in coded_set_probes probes; teams of 4096 entries return at once
/// when it is set.
template <class ExecSpace, class ValuesView, class Keys, class State>
void launch_value_set(const ValuesView& values, int64_t count, int64_t stride, uint64_t empty, const Keys& keys,
                      const State& state, int64_t most_added) {
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  constexpr int64_t team_entries = 4096;
  const int64_t teams = (count + team_entries - 1) / team_entries;
  if (teams == 0) return;
  Kokkos::parallel_for(
      "kspmv::convert[coded_values]", Team(ExecSpace(), int(teams), Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename Team::member_type& team) {
        if (*static_cast<volatile const int64_t*>(&state(1)) != 0) return;
        const int64_t i0 = int64_t(team.league_rank()) * team_entries;
        const int64_t i1 = i0 + team_entries < count ? i0 + team_entries : count;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, i0, i1), [&](const int64_t i) {
          const uint64_t bits = value_bits(values(i * stride));
          if (bits == empty) return;
          int64_t slot = int64_t(mixed_bits(bits) & uint64_t(coded_set_slots - 1));
          for (int probe = 0; probe < coded_set_probes; ++probe) {
            const uint64_t seen = *static_cast<volatile const uint64_t*>(&keys(slot));
            if (seen == bits) return;
            if (seen == empty) {
              const uint64_t before = Kokkos::atomic_compare_exchange(&keys(slot), empty, bits);
              if (before == empty) {
                if (Kokkos::atomic_fetch_add(&state(0), int64_t(1)) + 1 > most_added) Kokkos::atomic_fetch_max(&state(1), int64_t(1));
                return;
              }
              if (before == bits) return;
            }
            slot = (slot + 1) & (coded_set_slots - 1);
          }
          Kokkos::atomic_fetch_max(&state(1), int64_t(1));
        });
      });
}

/// CodedCsrMatrix of A: refuses (std::invalid_argument) a matrix of more than
/// CodedCsrMatrix::max_values distinct values, or of 16-byte values (Kokkos::complex<double>).
template <class S, class O, class Off, class D>
CodedCsrMatrix<S, O, Off, D> coded_csr_from_csr(const CsrMatrix<S, O, Off, D>& A) {
  using ExecSpace = typename D::execution_space;
  using Matrix = CodedCsrMatrix<S, O, Off, D>;
  if constexpr (!(sizeof(S) == 4 || sizeof(S) == 8)) {
    refuse("CodedCsrMatrix", "values of " + std::to_string(sizeof(S)) +
                                 " bytes are not coded (float, double and Kokkos::complex<float> are)");
  } else {
    const int64_t nnz = int64_t(A.nnz());
    if (nnz == 0) {
      return Matrix(balanced_from_csr(A), typename Matrix::code_view("kspmv::csr_coded::codes", 0),
                    typename Matrix::table_view("kspmv::csr_coded::table", 0));
    }
    S first;
    Kokkos::deep_copy(first, Kokkos::subview(A.values, 0));
    const uint64_t empty = value_bits(first);
    Kokkos::View<uint64_t*, D> keys(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_coded::set"),
                                    coded_set_slots);
    Kokkos::View<int64_t*, D> state("kspmv::csr_coded::state", 2);
    Kokkos::deep_copy(keys, empty);
    const int64_t most_added = Matrix::max_values - 1;  // besides the first value
    const int64_t stride = std::max<int64_t>(1, nnz / coded_sample);
    launch_value_set<ExecSpace>(A.values, (nnz + stride - 1) / stride, stride, empty, keys, state, most_added);
    if (stride > 1) launch_value_set<ExecSpace>(A.values, nnz, 1, empty, keys, state, most_added);
    const auto host_state = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state);
    if (host_state(1) != 0) {
      refuse("CodedCsrMatrix", "more than " + std::to_string(Matrix::max_values) + " distinct values (" +
                                   std::to_string(host_state(0) + 1) + " found before the count stopped)");
    }
    const auto host_keys = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys);
    std::vector<uint64_t> sorted{empty};
    for (size_t s = 0; s < host_keys.extent(0); ++s)
      if (host_keys(s) != empty) sorted.push_back(host_keys(s));
    std::sort(sorted.begin(), sorted.end());
    typename Matrix::table_view table(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_coded::table"),
                                      sorted.size());
    const auto host_table = Kokkos::create_mirror_view(table);
    for (size_t t = 0; t < sorted.size(); ++t) {
      if constexpr (sizeof(S) == 8) {
        std::memcpy(&host_table(t), &sorted[t], 8);
      } else {
        const uint32_t bits = uint32_t(sorted[t]);
        std::memcpy(&host_table(t), &bits, 4);
      }
    }
    Kokkos::deep_copy(table, host_table);
    typename Matrix::code_view codes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_coded::codes"),
                                     size_t(nnz));
    const auto values = A.values;
    const int64_t size = int64_t(sorted.size());
    // Each entry's code: the first table value whose bits are not below its own (the table is
    // sorted by bits, and holds every value).
    Kokkos::parallel_for(
        "kspmv::convert[coded_codes]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, nnz),
        KOKKOS_LAMBDA(const int64_t k) {
          const uint64_t bits = value_bits(values(k));
          int64_t lo = 0, hi = size;
          while (lo < hi) {
            const int64_t mid = (lo + hi) / 2;
            if (value_bits(table(mid)) < bits) lo = mid + 1; else hi = mid;
          }
          codes(k) = uint8_t(lo);
        });
    return Matrix(balanced_from_csr(A), codes, table);
  }
}

/// CSR of a CodedCsrMatrix: its structure (shared) and a new values array, each entry's table value.
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> coded_csr_to_csr(const CodedCsrMatrix<S, O, Off, D>& A) {
  using ExecSpace = typename D::execution_space;
  const auto& csr = A.balanced.csr;
  typename CsrMatrix<S, O, Off, D>::values_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_coded::values"), csr.values.extent(0));
  const auto codes = A.codes;
  const auto table = A.table;
  Kokkos::parallel_for(
      "kspmv::convert[coded_to_csr]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, int64_t(values.extent(0))),
      KOKKOS_LAMBDA(const int64_t k) { values(k) = table(codes(k)); });
  return CsrMatrix<S, O, Off, D>(csr.num_rows(), csr.num_cols(), csr.row_offsets, csr.col_indices, values);
}

}  // namespace impl
}  // namespace kspmv
