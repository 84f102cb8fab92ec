#pragma once
// Conversions between CSR and CSR holding one value (csr_uniform.hpp), on the device: a pass over
// the values that finds an entry whose bits differ from the first's (teams stop once one is
// found), then the load-balanced partition of BalancedCsrMatrix. The row offsets and column
// indices are shared, not copied.

#include "../csr.hpp"
#include "../csr_uniform.hpp"
#include "convert_common.hpp"
#include "csr_balanced.hpp"
#include "device_storage.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <sstream>
#include <type_traits>

namespace kspmv {
namespace impl {

/// a and b hold the same bits (so -0.0 and 0.0 differ, and a NaN equals its own bits): the
/// products value * x then equal those of the stored values exactly.
template <class T>
KOKKOS_INLINE_FUNCTION bool same_bits(const T& a, const T& b) {
  static_assert(sizeof(T) % 4 == 0, "scalars of whole 32-bit words");
  using Word = std::conditional_t<sizeof(T) % 8 == 0, uint64_t, uint32_t>;
  constexpr int words = int(sizeof(T) / sizeof(Word));
  Word wa[words], wb[words];
  memcpy(wa, &a, sizeof(T));
  memcpy(wb, &b, sizeof(T));
  bool same = true;
  for (int i = 0; i < words; ++i) same = same && wa[i] == wb[i];
  return same;
}

/// Entries the value check samples first (evenly spaced), and entries a team of its full pass reads.
constexpr int64_t value_check_sample = 65536;
constexpr int64_t value_check_team_entries = 16384;

/// Launches (without waiting) the check that every value equals values(0) bit for bit: found()
/// (0 before) stays 0 if they all do, else becomes 1 + the index of an entry that differs. Two
/// launches: value_check_sample entries evenly spaced, then every entry, a team taking
/// value_check_team_entries of them after one read of found(): where values differ the sample
/// nearly always finds one, and the full pass's teams then return at once (on the H200 the
/// check in one pass, its teams stopping once one found a difference, still read the values of
/// the teams resident at its start: 40-80 us of the Plan's analysis on 50M-entry matrices); it
/// reads every value only where all are equal.
template <class ExecSpace, class ValuesView, class Found>
void launch_value_check(const ValuesView& values, const Found& found) {
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  using Member = typename Team::member_type;
  const int64_t nnz = int64_t(values.extent(0));
  if (nnz == 0) return;
  // A team's lowest differing entry of [k0, k1) (stride apart from k0), then one exchange a team:
  // an atomic an entry would serialise on found() where most values differ.
  const auto check = [=] KOKKOS_FUNCTION(const Member& team, int64_t k0, int64_t k1, int64_t stride) {
    const auto first = values(0);
    int64_t differing = nnz;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, k0, k1),
        [&](const int64_t i, int64_t& lowest) {
          const int64_t k = i * stride;
          if (!same_bits(values(k), first) && k < lowest) lowest = k;
        },
        Kokkos::Min<int64_t>(differing));
    Kokkos::single(Kokkos::PerTeam(team), [&] {
      if (differing < nnz) Kokkos::atomic_compare_exchange(&found(), int64_t(0), differing + 1);
    });
  };
  const int64_t stride = std::max<int64_t>(1, nnz / value_check_sample), sampled = (nnz + stride - 1) / stride;
  const int64_t sample_teams = (sampled + 1023) / 1024;
  Kokkos::parallel_for(
      "kspmv::convert[uniform_values_sample]", Team(ExecSpace(), int(sample_teams), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Member& team) {
        const int64_t s0 = int64_t(team.league_rank()) * 1024, s1 = s0 + 1024 < sampled ? s0 + 1024 : sampled;
        check(team, s0, s1, stride);
      });
  const int64_t teams = (nnz + value_check_team_entries - 1) / value_check_team_entries;
  Kokkos::parallel_for(
      "kspmv::convert[uniform_values]", Team(ExecSpace(), int(teams), Kokkos::AUTO),
      KOKKOS_LAMBDA(const Member& team) {
        // A volatile read: another team's find must be seen, not a cached copy (an atomic read
        // would serialise the teams on one address).
        if (*static_cast<volatile const int64_t*>(&found()) != 0) return;
        const int64_t k0 = int64_t(team.league_rank()) * value_check_team_entries;
        check(team, k0, k0 + value_check_team_entries < nnz ? k0 + value_check_team_entries : nnz, 1);
      });
}

/// UniformCsrMatrix of A: refuses (std::invalid_argument, naming an entry that differs and its
/// value) a matrix whose values are not all equal; a matrix without entries holds 0.
template <class S, class O, class Off, class D>
UniformCsrMatrix<S, O, Off, D> uniform_csr_from_csr(const CsrMatrix<S, O, Off, D>& A) {
  using ExecSpace = typename D::execution_space;
  const ExecSpace space;
  const int64_t nnz = int64_t(A.nnz());
  S value = S(0);
  if (nnz > 0) {
    const auto storage = device_storage<D>("kspmv::csr_uniform::found", sizeof(int64_t));
    const Kokkos::View<int64_t, D, Kokkos::MemoryTraits<Kokkos::Unmanaged>> found(static_cast<int64_t*>(storage.get()));
    Kokkos::deep_copy(space, found, int64_t(0));
    launch_value_check<ExecSpace>(A.values, found);
    int64_t differs = 0;
    Kokkos::deep_copy(value, Kokkos::subview(A.values, 0));
    Kokkos::deep_copy(differs, found);
    if (differs != 0) {
      const int64_t differing = differs - 1;
      S other = S(0);
      Kokkos::deep_copy(other, Kokkos::subview(A.values, differing));
      std::ostringstream why;
      why.precision(17);
      why << "not every stored value is the same: entry " << differing << " holds " << other << ", entry 0 holds "
          << value;
      refuse("UniformCsrMatrix", why.str());
    }
  }
  return UniformCsrMatrix<S, O, Off, D>(balanced_from_csr(A), value);
}

/// UniformCsrMatrix of A whose values are known to be all the same (the Plan's analysis ran
/// launch_value_check): the partition and a read of the first value, no check.
template <class S, class O, class Off, class D>
UniformCsrMatrix<S, O, Off, D> uniform_csr_of_checked(const CsrMatrix<S, O, Off, D>& A) {
  S value = S(0);
  if (A.nnz() > 0) Kokkos::deep_copy(value, Kokkos::subview(A.values, 0));
  return UniformCsrMatrix<S, O, Off, D>(balanced_from_csr(A), value);
}

/// CSR of a UniformCsrMatrix: its structure (shared) and a new values array holding its value.
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> uniform_csr_to_csr(const UniformCsrMatrix<S, O, Off, D>& A) {
  const auto& csr = A.balanced.csr;
  typename CsrMatrix<S, O, Off, D>::values_type values(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr_uniform::values"), csr.values.extent(0));
  Kokkos::deep_copy(values, A.value);
  return CsrMatrix<S, O, Off, D>(csr.num_rows(), csr.num_cols(), csr.row_offsets, csr.col_indices, values);
}

}  // namespace impl
}  // namespace kspmv
