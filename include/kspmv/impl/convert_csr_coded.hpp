#pragma once
// Conversions between CSR and CSR with coded values (csr_coded.hpp), on the device: the distinct
// values of a sample of 65,536 entries into a hash set (open addressing over coded_set_slots keys;
// the bits of the first value mark an empty slot, as that value is in the table anyway), so that a
// matrix of many values is refused after a short pass; their table sorted by bit pattern on the
// host, with a hashed lookup of it; then each entry's code from the lookup, in one pass that also adds any
// value the sample missed to the set, and, only where one was missed, the table made again from
// the whole set and the codes with it. The partition is that of BalancedCsrMatrix; row offsets and
// column indices are shared, not copied.

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

/// Adds bits to the set keys (coded_set_slots, `empty` marking a free slot): state(0) counts the
/// keys added, state(1) becomes 1 once more than most_added were or no slot was found in
/// coded_set_probes probes.
template <class Keys, class State>
KOKKOS_INLINE_FUNCTION void insert_value_bits(uint64_t bits, uint64_t empty, const Keys& keys, const State& state,
                                              int64_t most_added) {
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
}

/// The entry the sample takes from the i-th run of `stride` entries of nnz: one at a place within
/// the run given by a hash of i. (The first of each run, evenly spaced, aliased with matrices whose
/// values repeat with the rows: on mitre replicated 1260 times, 763 entries apart, the sample met
/// 9 of its 75 values, and the conversion then coded every entry twice, 3 ms where 0.7 was
/// predicted; perf_tests/results/h200_plan_scalar_variation.)
KOKKOS_INLINE_FUNCTION int64_t coded_sample_entry(int64_t i, int64_t stride, int64_t nnz) {
  const int64_t first = i * stride;
  const int64_t run = stride < nnz - first ? stride : nnz - first;
  return run > 1 ? first + int64_t(mixed_bits(uint64_t(i)) % uint64_t(run)) : first;
}

/// Launches (without waiting) the insertion of the values of one entry of each run of `stride`
/// (coded_sample_entry; count of them) into keys (coded_set_slots, each the bits of values(0)
/// before, which mark a free slot; insert_value_bits), in teams of 512 entries; once state(1) is
/// set (more than most_added), no entry is inserted. (Inserting on after it, into a set filling
/// up, took the plan's analysis from 113-151 us to 589-690 us on matrices of many values, H200.)
template <class ExecSpace, class ValuesView, class Keys, class State>
void launch_value_set(const ValuesView& values, int64_t count, int64_t stride, const Keys& keys, const State& state,
                      int64_t most_added) {
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  constexpr int64_t team_entries = 512;
  const int64_t teams = (count + team_entries - 1) / team_entries, nnz = int64_t(values.extent(0));
  if (teams == 0) return;
  Kokkos::parallel_for(
      "kspmv::convert[coded_values]", Team(ExecSpace(), int(teams), Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename Team::member_type& team) {
        if (*static_cast<volatile const int64_t*>(&state(1)) != 0) return;
        const uint64_t empty = value_bits(values(0));
        const int64_t i0 = int64_t(team.league_rank()) * team_entries;
        const int64_t i1 = i0 + team_entries < count ? i0 + team_entries : count;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, i0, i1), [&](const int64_t i) {
          if (*static_cast<volatile const int64_t*>(&state(1)) != 0) return;
          insert_value_bits(value_bits(values(coded_sample_entry(i, stride, nnz))), empty, keys, state, most_added);
        });
      });
}

/// Launches (without waiting) keys(s) = the bits of values(0), every slot: an empty set.
template <class ExecSpace, class ValuesView, class Keys>
void launch_empty_value_set(const ValuesView& values, const Keys& keys) {
  Kokkos::parallel_for(
      "kspmv::convert[coded_set]", Kokkos::RangePolicy<ExecSpace>(0, int(coded_set_slots)),
      KOKKOS_LAMBDA(const int s) { keys(s) = value_bits(values(0)); });
}

/// Launches (without waiting) the set of the values of a sample of coded_sample entries, one in
/// each run of nnz / coded_sample (coded_sample_entry; all of them in a smaller matrix), into keys
/// (coded_set_slots) and state (2, zero before): state(1) = 1 if they hold more than
/// CodedCsrMatrix::max_values distinct values, otherwise state(0) + 1 is how many they hold.
/// Neither waits nor allocates (the plan's analysis).
template <class ExecSpace, class ValuesView, class Keys, class State>
void launch_value_sample(const ValuesView& values, const Keys& keys, const State& state) {
  const int64_t nnz = int64_t(values.extent(0));
  if (nnz == 0) return;
  const int64_t stride = std::max<int64_t>(1, nnz / coded_sample);
  launch_empty_value_set<ExecSpace>(values, keys);
  launch_value_set<ExecSpace>(values, (nnz + stride - 1) / stride, stride, keys, state,
                              CodedCsrMatrix<double>::max_values - 1);
}

/// The distinct values' bits, sorted: those of keys (the set of launch_value_set, read back) and
/// `empty`, the value it holds implicitly. A value's code is its position here.
template <class HostKeys>
std::vector<uint64_t> sorted_value_bits(const HostKeys& host_keys, uint64_t empty) {
  std::vector<uint64_t> sorted{empty};
  for (size_t s = 0; s < host_keys.extent(0); ++s)
    if (host_keys(s) != empty) sorted.push_back(host_keys(s));
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

/// The table of the values whose bits are `sorted`, on A's device.
template <class Table>
Table coded_table(const std::vector<uint64_t>& sorted) {
  using S = typename Table::value_type;
  Table table(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_coded::table"), sorted.size());
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
  return table;
}

/// Slots of the codes pass's lookup of a table of `size` values: a power of two, at least twice
/// the values (half full at most: a hit takes 1.5 probes on average).
inline int64_t coded_lookup_slots(int64_t size) {
  int64_t slots = 2;
  while (slots < 2 * size) slots *= 2;
  return slots;
}

/// The codes pass's lookup of the values whose bits are `sorted` (their codes their positions):
/// open addressing over coded_lookup_slots slots (the probe sequence of insert_value_bits), the
/// slots' keys (`empty`, which is sorted[code_of_empty], marks a free one) then their codes, a
/// byte each, packed 8 to a word; on A's device.
template <class Lookup>
Lookup coded_lookup(const std::vector<uint64_t>& sorted, uint64_t empty) {
  const int64_t slots = coded_lookup_slots(int64_t(sorted.size()));
  Lookup lookup(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_coded::lookup"), size_t(slots + slots / 8 + 1));
  const auto host = Kokkos::create_mirror_view(lookup);
  std::vector<uint8_t> codes(size_t(slots + 8), 0);
  for (int64_t s = 0; s < slots; ++s) host(size_t(s)) = empty;
  for (size_t code = 0; code < sorted.size(); ++code) {
    if (sorted[code] == empty) continue;
    int64_t slot = int64_t(mixed_bits(sorted[code]) & uint64_t(slots - 1));
    while (host(size_t(slot)) != empty) slot = (slot + 1) & (slots - 1);
    host(size_t(slot)) = sorted[code];
    codes[size_t(slot)] = uint8_t(code);
  }
  for (int64_t w = 0; w <= slots / 8; ++w) std::memcpy(&host(size_t(slots + w)), &codes[size_t(8 * w)], 8);
  Kokkos::deep_copy(lookup, host);
  return lookup;
}

/// The codes pass: a team codes coded_codes_lanes x coded_codes_per_lane consecutive entries (the
/// loads of a warp coalesced for each of a lane's), with the lookup (coded_lookup) in team
/// scratch. On the H200, 56 million entries of 3 values (perf_tests/results/h200_coded_conversion):
/// a thread an entry and a binary search of the table in global memory took 420 us (1.2 TB/s of
/// the pass's bytes); 8 entries a thread 384; 8 a thread with no search at all 140 (the stream); 8
/// a thread searching the table in team scratch 250: the table's loads, not the stream, set the
/// time, and a binary search of tables of 108-237 values made the conversion of 50-90 million
/// entries take 1.2-2.1 ms (h200_coded_sample); the hashed lookup takes one or two loads an entry
/// whatever the table's size.
constexpr int coded_codes_per_lane = 8;
constexpr int coded_codes_lanes = 256;

/// Launches (without waiting) each entry's code: its value's position in the table, found in
/// lookup (coded_lookup of it, over `slots` slots; `empty`, the bits marking a free slot, is code
/// code_of_empty). A value not in it is added to the set (insert_value_bits) and state(2) set to
/// 1: its code is then wrong, and the caller makes the table again from the set.
template <class ExecSpace, class ValuesView, class Lookup, class Codes, class Keys, class State>
void launch_codes(const ValuesView& values, const Lookup& lookup, int64_t slots, uint64_t empty, uint8_t code_of_empty,
                  const Codes& codes, const Keys& keys, const State& state, int64_t most_added) {
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  using Scratch = Kokkos::View<uint64_t*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const int64_t words = int64_t(lookup.extent(0)), nnz = int64_t(values.extent(0));
  constexpr int64_t chunk = int64_t(coded_codes_per_lane) * coded_codes_lanes;
  const int64_t teams = (nnz + chunk - 1) / chunk;
  if (teams == 0) return;
  Team policy = is_gpu_space<ExecSpace>() ? Team(ExecSpace(), int(teams), coded_codes_lanes)
                                          : Team(ExecSpace(), int(teams), Kokkos::AUTO);
  policy.set_scratch_size(0, Kokkos::PerTeam(Scratch::shmem_size(size_t(words))));
  Kokkos::parallel_for(
      "kspmv::convert[coded_codes]", policy, KOKKOS_LAMBDA(const typename Team::member_type& team) {
        const Scratch local(team.team_scratch(0), size_t(words));
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, words), [&](const int64_t w) { local(w) = lookup(w); });
        team.team_barrier();
        const uint8_t* slot_codes = reinterpret_cast<const uint8_t*>(&local(slots));
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, coded_codes_lanes), [&](const int lane) {
          const int64_t first = int64_t(team.league_rank()) * chunk + lane;
          // Every load first, then the lookups: the loads are in flight together.
          uint64_t bits[coded_codes_per_lane];
          for (int j = 0; j < coded_codes_per_lane; ++j) {
            const int64_t k = first + int64_t(j) * coded_codes_lanes;
            bits[j] = k < nnz ? value_bits(values(k)) : empty;
          }
          for (int j = 0; j < coded_codes_per_lane; ++j) {
            const int64_t k = first + int64_t(j) * coded_codes_lanes;
            if (k >= nnz) continue;
            if (bits[j] == empty) {
              codes(k) = code_of_empty;
              continue;
            }
            // The table holds every value the set held when it was made: a free slot before the
            // value means the value was missed (no probe sequence runs past a free slot there).
            int64_t slot = int64_t(mixed_bits(bits[j]) & uint64_t(slots - 1));
            while (local(slot) != bits[j] && local(slot) != empty) slot = (slot + 1) & (slots - 1);
            if (local(slot) == bits[j]) {
              codes(k) = slot_codes[slot];
              continue;
            }
            codes(k) = 0;
            // Once more than max_values are found the conversion refuses: no more insertions.
            if (*static_cast<volatile const int64_t*>(&state(1)) == 0) insert_value_bits(bits[j], empty, keys, state, most_added);
            state(2) = 1;
          }
        });
      });
}

/// The codes of the values whose bits are `sorted` (sorted_value_bits): their table, its lookup
/// and launch_codes (without waiting).
template <class ExecSpace, class Table, class ValuesView, class Codes, class Keys, class State>
Table launch_table_and_codes(const std::vector<uint64_t>& sorted, uint64_t empty, const ValuesView& values,
                             const Codes& codes, const Keys& keys, const State& state, int64_t most_added) {
  using Lookup = Kokkos::View<uint64_t*, typename Table::device_type>;
  const uint8_t code_of_empty = uint8_t(std::lower_bound(sorted.begin(), sorted.end(), empty) - sorted.begin());
  Table table = coded_table<Table>(sorted);
  launch_codes<ExecSpace>(values, coded_lookup<Lookup>(sorted, empty), coded_lookup_slots(int64_t(sorted.size())), empty,
                          code_of_empty, codes, keys, state, most_added);
  return table;
}

/// CodedCsrMatrix of A: refuses (std::invalid_argument) a matrix of more than
/// CodedCsrMatrix::max_values distinct values, or of 16-byte values (Kokkos::complex<double>).
/// Where the sample holds every value (the usual case), the conversion reads the values twice at
/// most (the sample, then the codes) and waits twice.
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
    Kokkos::View<uint64_t*, D> keys(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_coded::set"),
                                    coded_set_slots);
    Kokkos::View<int64_t*, D> state("kspmv::csr_coded::state", 3);  // added, overflow, missed by the table
    const int64_t most_added = Matrix::max_values - 1;               // besides the first value
    const auto refuse_many = [&](int64_t found) {
      refuse("CodedCsrMatrix", "more than " + std::to_string(Matrix::max_values) + " distinct values (" +
                                   std::to_string(found + 1) + " found before the count stopped)");
    };
    launch_value_sample<ExecSpace>(A.values, keys, state);
    S first;
    Kokkos::deep_copy(first, Kokkos::subview(A.values, 0));  // waits for the sample
    const uint64_t empty = value_bits(first);
    auto host_state = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state);
    if (host_state(1) != 0) refuse_many(host_state(0));
    using table_view = typename Matrix::table_view;
    typename Matrix::code_view codes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_coded::codes"),
                                     size_t(nnz));
    const auto values_found = [&] { return sorted_value_bits(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), keys), empty); };
    table_view table = launch_table_and_codes<ExecSpace, table_view>(values_found(), empty, A.values, codes, keys, state, most_added);
    Kokkos::deep_copy(host_state, state);
    if (host_state(1) != 0) refuse_many(host_state(0));
    if (host_state(2) != 0) {
      // Values the sample missed: the set now holds them all (at most max_values), so the second
      // table misses none.
      table = launch_table_and_codes<ExecSpace, table_view>(values_found(), empty, A.values, codes, keys, state, most_added);
    }
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
