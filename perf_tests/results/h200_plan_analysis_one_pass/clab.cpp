// session 29 lab: where the Plan's one-pass analysis and Csr16Matrix's conversion spend their time,
// on replicated real matrices (each part a launch and a wait, median of 7 fenced runs).
#include "matrices.hpp"
#include <kspmv/kspmv.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
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
template <class Cols, class Low, class Bases, class TS>
double pass_time(const Cols& cols, const Low& low, const Bases& bases, int64_t nnz, int64_t blocks, TS team_size) {
  using Team = Kokkos::TeamPolicy<>;
  return med([&] {
    Kokkos::parallel_for("lab[c16pass]", Team(int(blocks), team_size), KOKKOS_LAMBDA(const Team::member_type& team) {
      const int64_t b = team.league_rank(), k0 = b * 2048, k1 = k0 + 2048 < nnz ? k0 + 2048 : nnz;
      const auto range = kspmv::impl::team_column_range(team, cols, k0, k1);
      const int64_t base = range.min_val;
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, k0, k1), [&](const int64_t kk) { low(kk) = uint16_t(uint64_t(int64_t(cols(kk)) - base) & 0xFFFFu); });
      Kokkos::single(Kokkos::PerTeam(team), [&] { bases(b) = int(base); });
    });
  });
}
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    using Ex = Kokkos::DefaultExecutionSpace;
    using D = Ex::device_type;
    for (int a = 1; a + 1 < argc; a += 2) {
      const kspmv::HostCsr h = kspmv::read_matrix_market(argv[a]);
      const int k = std::atoi(argv[a + 1]);
      const auto A = kspmv::to_device<double, int, int, D>(kspmv_bench::replicate(h, k));
      const kspmv::ConvertOptions convert;
      const int64_t cap = kspmv::impl::hyb_width_cap, slots = cap + kspmv::impl::row_length_summary_slots + 1;
      const double t_summary = med([&] {
        Kokkos::View<int64_t*, D> found(Kokkos::view_alloc(Kokkos::WithoutInitializing, "f"), slots);
        Kokkos::deep_copy(Ex(), found, int64_t(0));
        kspmv::impl::launch_row_length_summary<Ex>(A.row_offsets, A.num_rows(), 32, cap, found);
        auto hst = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), found);
      });
      const double t_sample = med([&] {
        Kokkos::View<int64_t*, D> found(Kokkos::view_alloc(Kokkos::WithoutInitializing, "f"), slots);
        Kokkos::deep_copy(Ex(), found, int64_t(0));
        kspmv::impl::launch_csr16_wide_sample(A, 2048, Kokkos::subview(found, slots - 1));
        auto hst = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), found);
      });
      const double t_copy_only = med([&] {
        Kokkos::View<int64_t*, D> found(Kokkos::view_alloc(Kokkos::WithoutInitializing, "f"), slots);
        Kokkos::deep_copy(Ex(), found, int64_t(0));
        auto hst = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), found);
      });
      const int64_t afford = kspmv::impl::dia_affordable_diagonals<double, int>(
          kspmv::impl::model_constants<Ex>(), A.num_rows(), A.nnz(), convert);
      const double t_diag = med([&] { (void)kspmv::impl::count_diagonals(A, afford, kspmv::impl::sample_stride(A.num_rows())); });
      kspmv::impl::PlanStructure p;
      const double t_struct = med([&] { p = kspmv::impl::analyse_structure(A, convert); });
      const double t_raw = med([&] {
        const kspmv::CsrMatrix<double, int, int> B(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
        (void)kspmv::impl::csr_analysis(Ex(), B)->structure;
      }, 5);
      const double t_plan = med([&] {
        const kspmv::CsrMatrix<double, int, int> B(A.num_rows(), A.num_cols(), A.row_offsets, A.col_indices, A.values);
        kspmv::Plan<double, int, int> pl(B);
      }, 5);
      // Csr16Matrix's conversion and its parts
      const double t_c16 = med([&] { auto C = kspmv::convert<kspmv::Csr16Matrix>(A); });
      const int64_t nnz = A.nnz(), blocks = (nnz + 2047) / 2048;
      const double t_alloc_low = med([&] {
        Kokkos::View<uint16_t*, D> low(Kokkos::view_alloc(Kokkos::WithoutInitializing, "low"), nnz);
      });
      const double t_alloc_ws = med([&] {
        Kokkos::View<double*, D> s("s", 2 * blocks);
        Kokkos::View<int*, D> r("r", blocks);
      });
      Kokkos::View<uint16_t*, D> low(Kokkos::view_alloc(Kokkos::WithoutInitializing, "low"), nnz);
      Kokkos::View<int*, D> bases(Kokkos::view_alloc(Kokkos::WithoutInitializing, "b"), blocks);
      const auto cols = A.col_indices;
      const double t_pass_auto = pass_time(cols, low, bases, nnz, blocks, Kokkos::AUTO);
      const double t_pass_256 = pass_time(cols, low, bases, nnz, blocks, 256);
      const double t_pass_128 = pass_time(cols, low, bases, nnz, blocks, 128);
      Kokkos::View<int*, D> first(Kokkos::view_alloc(Kokkos::WithoutInitializing, "fr"), blocks + 1), arr("arr", blocks);
      const double t_part = med([&] { kspmv::impl::write_balanced_partition(Ex(), A, 2048, blocks, first, arr); });
      const double t_bal = med([&] { auto Bm = kspmv::convert<kspmv::BalancedCsrMatrix>(A); });
      std::printf("%s x%d rows %d nnz %lld longest %lld diag %lld: summary %.1f sample %.1f copy_only %.1f diagonals %.1f analyse_structure %.1f raw_analysis %.1f plan %.1f | csr16 %.1f alloc_low %.1f alloc_workspace %.1f pass_auto %.1f pass_256 %.1f pass_128 %.1f partition %.1f balanced %.1f us\n",
                  argv[a], k, int(A.num_rows()), (long long)nnz, (long long)p.longest_row, (long long)p.diagonals, t_summary, t_sample, t_copy_only, t_diag, t_struct, t_raw, t_plan,
                  t_c16, t_alloc_low, t_alloc_ws, t_pass_auto, t_pass_256, t_pass_128, t_part, t_bal);
      std::fflush(stdout);
    }
  }
  Kokkos::finalize();
  return 0;
}
