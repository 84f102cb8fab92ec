// session 28 lab: where the Plan's analysis spends its time (kspmv::impl::analyse_structure's parts and
// the raw analysis), on replicated real matrices; and the row-length histogram with a thread-local run of
// equal lengths flushed on change (the candidate) against the library's.
#include "matrices.hpp"
#include <kspmv/kspmv.hpp>
#include <chrono>
#include <cstdio>
#include <algorithm>
#include <vector>
using Clock = std::chrono::steady_clock;
template <class F> double med(F&& f, int reps = 7) {
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    Kokkos::fence();
    auto t0 = Clock::now();
    f();
    Kokkos::fence();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count() * 1e6);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}
template <class LengthView>
Kokkos::View<int64_t*> runs_histogram(const LengthView& lengths, int64_t longest) {
  using Team = Kokkos::TeamPolicy<>;
  using Bins = Kokkos::View<int*, Kokkos::DefaultExecutionSpace::scratch_memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  Kokkos::View<int64_t*> histogram("h", longest + 1);
  const int64_t m = lengths.extent(0);
  const int local = int(longest + 1 < 1024 ? longest + 1 : 1024);
  const int64_t rows_per_team = 4096;
  Team policy(int((m + rows_per_team - 1) / rows_per_team), 256);
  policy.set_scratch_size(0, Kokkos::PerTeam(Bins::shmem_size(local)));
  Kokkos::parallel_for("lab[runs_histogram]", policy, KOKKOS_LAMBDA(const typename Team::member_type& team) {
    const Bins bins(team.team_scratch(0), local);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, local), [&](const int b) { bins(b) = 0; });
    team.team_barrier();
    const int64_t first = int64_t(team.league_rank()) * rows_per_team;
    const int64_t last = first + rows_per_team < m ? first + rows_per_team : m;
    const int t = team.team_rank(), n = team.team_size();
    int64_t run_len = -1; int run = 0;
    auto flush = [&] {
      if (run == 0) return;
      if (run_len < local) Kokkos::atomic_add(&bins(run_len), run); else Kokkos::atomic_add(&histogram(run_len), int64_t(run));
    };
    for (int64_t i = first + t; i < last; i += n) {
      const int64_t len = int64_t(lengths(i)) < longest ? int64_t(lengths(i)) : longest;
      if (len != run_len) { flush(); run_len = len; run = 0; }
      ++run;
    }
    flush();
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, local), [&](const int b) {
      if (bins(b)) Kokkos::atomic_add(&histogram(b), int64_t(bins(b)));
    });
  });
  return histogram;
}
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    using Ex = Kokkos::DefaultExecutionSpace;
    for (int a = 1; a + 1 < argc; a += 2) {
      const kspmv::HostCsr h = kspmv::read_matrix_market(argv[a]);
      const int k = std::atoi(argv[a + 1]);
      const auto A = kspmv::to_device<double, int, int, Kokkos::DefaultExecutionSpace::device_type>(kspmv_bench::replicate(h, k));
      const kspmv::ConvertOptions convert;
      const kspmv::impl::RowLengthsOf<decltype(A.row_offsets)> lengths{A.row_offsets};
      int64_t longest = 0;
      const double t_max = med([&] { longest = kspmv::impl::max_entry<Ex>(lengths); });
      const double t_hist = med([&] { auto x = kspmv::impl::length_histogram<Ex>(lengths, std::min<int64_t>(longest, 4096)); });
      const double t_runs = med([&] { auto x = runs_histogram(lengths, std::min<int64_t>(longest, 4096)); });
      const double t_beyond = med([&] { (void)kspmv::impl::entries_beyond<Ex>(lengths, 4); });
      const double t_c16 = med([&] { (void)kspmv::impl::csr16_wide_blocks(A, 2048); });
      const double t_struct = med([&] { (void)kspmv::impl::analyse_structure(A, convert); });
      // the raw analysis, once (cached with the matrix), on fresh copies
      const double t_raw = med([&] {
        const kspmv::CsrMatrix<double, int, int> B(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
        (void)kspmv::impl::csr_analysis(Ex(), B)->structure;
      }, 5);
      const double t_plan = med([&] {
        const kspmv::CsrMatrix<double, int, int> B(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
        kspmv::Plan<double, int, int> p(B);
        (void)p;
      }, 5);
      const auto hh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), kspmv::impl::length_histogram<Ex>(lengths, std::min<int64_t>(longest, 4096)));
      const auto hr = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), runs_histogram(lengths, std::min<int64_t>(longest, 4096)));
      bool same = hh.extent(0) == hr.extent(0);
      for (size_t i = 0; same && i < hh.extent(0); ++i) same = hh(i) == hr(i);
      std::printf("%s x%d rows %d: max_entry %.1f histogram %.1f runs_histogram %.1f (%s) entries_beyond %.1f csr16_wide %.1f analyse_structure %.1f raw_analysis %.1f plan %.1f us\n",
                  argv[a], k, int(A.num_rows()), t_max, t_hist, t_runs, same ? "same" : "DIFFERENT", t_beyond, t_c16, t_struct, t_raw, t_plan);
      std::fflush(stdout);
    }
  }
  Kokkos::finalize();
  return 0;
}
