#pragma once
// Device-side building blocks of the format conversions: row lengths, a maximum, and offsets
// from counts. Only sizes (a maximum, a total) come back to the host, to allocate the result.

#include <Kokkos_Core.hpp>

#include "launch.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace kspmv {
namespace impl {

/// The smallest and largest column of entries [k0, k1), reduced by a team (Csr16Matrix's blocks).
template <class Member, class ColumnView>
KOKKOS_INLINE_FUNCTION typename Kokkos::MinMax<int64_t>::value_type team_column_range(const Member& team,
                                                                                   const ColumnView& cols, int64_t k0,
                                                                                   int64_t k1) {
  typename Kokkos::MinMax<int64_t>::value_type range;
  Kokkos::parallel_reduce(
      Kokkos::TeamThreadRange(team, k0, k1),
      [&](const int64_t k, typename Kokkos::MinMax<int64_t>::value_type& r) {
        const int64_t c = int64_t(cols(k));
        r.min_val = c < r.min_val ? c : r.min_val;
        r.max_val = c > r.max_val ? c : r.max_val;
      },
      Kokkos::MinMax<int64_t>(range));
  return range;
}

template <class Csr>
Kokkos::View<typename Csr::ordinal_type*, typename Csr::device_type> row_lengths(const Csr& A) {
  using execution_space = typename Csr::execution_space;
  Kokkos::View<typename Csr::ordinal_type*, typename Csr::device_type> lengths(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::convert::row_lengths"), A.num_rows());
  auto offsets = A.row_offsets;
  Kokkos::parallel_for(
      "kspmv::convert[row_lengths]", Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>(0, A.num_rows()),
      KOKKOS_LAMBDA(const int64_t i) { lengths(i) = offsets(i + 1) - offsets(i); });
  return lengths;
}

// Row lengths read from the offsets when asked, for passes that read each length once or twice:
// storing them first cost more than those passes (27 million rows: 0.26 ms on the H200).
template <class OffsetView>
struct RowLengthsOf {
  using device_type = typename OffsetView::device_type;
  OffsetView offsets;
  KOKKOS_INLINE_FUNCTION int64_t operator()(const int64_t i) const { return int64_t(offsets(i + 1)) - int64_t(offsets(i)); }
  size_t extent(int) const { return offsets.extent(0) > 0 ? offsets.extent(0) - 1 : 0; }
};

// The longest row of a CSR matrix, without storing the row lengths, on `space`.
template <class Csr, class ExecSpace = typename Csr::execution_space>
int64_t longest_row(const Csr& A, const ExecSpace& space = ExecSpace(), const char* label = "kspmv::convert[longest_row]") {
  int64_t result = 0;
  const auto offsets = A.row_offsets;
  Kokkos::parallel_reduce(
      label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, A.num_rows()),
      KOKKOS_LAMBDA(const int64_t i, int64_t& m) {
        const int64_t len = int64_t(offsets(i + 1)) - int64_t(offsets(i));
        m = len > m ? len : m;
      },
      Kokkos::Max<int64_t>(result));
  return result;
}

template <class ExecSpace, class View>
int64_t max_entry(const View& v) {
  int64_t result = 0;
  Kokkos::parallel_reduce(
      "kspmv::convert[max]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, v.extent(0)),
      KOKKOS_LAMBDA(const int64_t i, int64_t& m) { m = int64_t(v(i)) > m ? int64_t(v(i)) : m; },
      Kokkos::Max<int64_t>(result));
  return result;
}

// histogram[L] = rows of length L, for L < longest; histogram[longest] counts the rows of length
// `longest` or more (callers may pass a cap below the true longest row). Rows are counted per
// team in scratch first (lengths below 1024), so the hot bins of regular matrices (every row of a
// stencil has the same length) take one global atomic per team instead of one per row; and each
// thread counts a run of its rows of one length before it adds the run, so those bins take an
// atomic per run instead of per row: on the H200 the histogram then took 0.64-0.67x the time on
// replicated rows of 2-6 entries (Franz6_id1959_aug, commanche_dual, luxembourg_osm; 55-83 us
// instead of 85-124), 1.00x on bcsstk13 (perf_tests/results/h200_plan_analysis_parts/).
template <class ExecSpace, class LengthView>
Kokkos::View<int64_t*, typename LengthView::device_type> length_histogram(const LengthView& lengths, int64_t longest) {
  using device_type = typename LengthView::device_type;
  using Team = Kokkos::TeamPolicy<ExecSpace>;
  using Bins = Kokkos::View<int*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<int64_t*, device_type> histogram("kspmv::convert::histogram", longest + 1);
  const int64_t m = lengths.extent(0);
  const int local = int(longest + 1 < 1024 ? longest + 1 : 1024);
  const bool gpu = is_gpu_space<ExecSpace>();
  const int64_t rows_per_team = gpu ? 4096 : 65536;
  Team policy(int((m + rows_per_team - 1) / rows_per_team), gpu ? 256 : 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(Bins::shmem_size(local)));
  Kokkos::parallel_for(
      "kspmv::convert[histogram]", policy, KOKKOS_LAMBDA(const typename Team::member_type& team) {
        const Bins bins(team.team_scratch(0), local);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, local), [&](const int b) { bins(b) = 0; });
        team.team_barrier();
        const int64_t first = int64_t(team.league_rank()) * rows_per_team;
        const int64_t last = first + rows_per_team < m ? first + rows_per_team : m;
        const auto add = [&](int64_t len, int count) {
          if (count == 0) return;
          if (len < local) {
            Kokkos::atomic_add(&bins(len), count);
          } else {
            Kokkos::atomic_add(&histogram(len), int64_t(count));
          }
        };
        // The thread's rows (every team_size-th of the team's), a run of one length at a time.
        const int64_t threads = team.team_size();
        int64_t run_length = 0;
        int run = 0;
        for (int64_t i = first + team.team_rank(); i < last; i += threads) {
          const int64_t len = int64_t(lengths(i)) < longest ? int64_t(lengths(i)) : longest;
          if (len != run_length) {
            add(run_length, run);
            run_length = len;
            run = 0;
          }
          ++run;
        }
        add(run_length, run);
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, local), [&](const int b) {
          if (bins(b)) Kokkos::atomic_add(&histogram(b), int64_t(bins(b)));
        });
      });
  return histogram;
}

[[noreturn]] inline void refuse(const char* format, const std::string& why) {
  throw std::invalid_argument(std::string("kspmv::convert<") + format + ">: " + why);
}

template <class ExecSpace, class CountView>
int64_t total_count(const CountView& counts) {
  int64_t total = 0;
  Kokkos::parallel_reduce(
      "kspmv::convert[total]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, counts.extent(0)),
      KOKKOS_LAMBDA(const int64_t i, int64_t& sum) { sum += int64_t(counts(i)); }, total);
  return total;
}

// The scan of exclusive_scan. A named functor, not a lambda: under compute-sanitizer, nvcc's host
// wrapper of this function's extended __host__ __device__ lambda called a null pointer (CUDA 13,
// the HybMatrix<float, int64_t, uint64_t> conversion of the unit tests), a compiler fault that
// others have met in Kokkos code too (ArborX pull request 1297) and that functors avoid.
template <class OffsetView, class CountView>
struct ExclusiveScanFunctor {
  OffsetView offsets;
  CountView counts;
  int64_t n;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i, int64_t& running, const bool final) const {
    if (final) offsets(i) = typename OffsetView::non_const_value_type(running);
    if (i < n) running += int64_t(counts(i));
  }
};

// offsets[i] = sum of counts[0..i), offsets has counts.extent(0) + 1 entries; returns the total.
// The total is checked against the offset type first: a wrapped offset would be a wrong matrix.
template <class ExecSpace, class OffsetView, class CountView>
int64_t exclusive_scan(const OffsetView& offsets, const CountView& counts, const char* format = "matrix") {
  using offset_type = typename OffsetView::non_const_value_type;
  const int64_t n = counts.extent(0);
  const int64_t total = total_count<ExecSpace>(counts);
  if (static_cast<unsigned long long>(total) > static_cast<unsigned long long>(std::numeric_limits<offset_type>::max())) {
    refuse(format, std::to_string(total) + " stored entries do not fit in the offset type");
  }
  Kokkos::parallel_scan("kspmv::convert[scan]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(0, n + 1),
                        ExclusiveScanFunctor<OffsetView, CountView>{offsets, counts, n});
  return total;
}


}  // namespace impl
}  // namespace kspmv
