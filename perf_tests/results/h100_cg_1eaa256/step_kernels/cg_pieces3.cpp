#include <kspmv/cg.hpp>
#include <kspmv/generate.hpp>
#include <kspmv/io.hpp>
#include "/work/main/perf_tests/matrices.hpp"
#include <chrono>
#include <cstdio>
using ExecSpace = Kokkos::DefaultExecutionSpace;
using Device = ExecSpace::device_type;
using Clock = std::chrono::steady_clock;
using V = Kokkos::View<double*, Device>;
static double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count() * 1e6; }

template <class Mat>
void run(const char* label, const Mat& A) {
  const int n = A.num_rows();
  kspmv::CgOptions opt;
  opt.tolerance = 1e-8; opt.max_iterations = 2000;
  kspmv::Plan<double, int, int, Device> plan(A, kspmv::cg_plan_options(opt));
  std::printf("%s: n %d nnz %lld plan %s\n", label, n, (long long)A.nnz(), plan.report().chosen.c_str());
  V b("b", n), x("x", n);
  Kokkos::deep_copy(b, 1.0);
  for (auto path : {kspmv::CgPath::separate, kspmv::CgPath::fused_grid}) {
    opt.path = path;
    for (int rep = 0; rep < 4; ++rep) {
      Kokkos::deep_copy(x, 0.0);
      Kokkos::fence();
      auto t0 = Clock::now();
      auto r = kspmv::cg(plan, b, x, opt);
      Kokkos::fence();
      double wall = since(t0);
      std::printf("  %-10s it %4lld wall %9.1f us setup %8.1f us solve %9.1f us -> per it (solve) %7.2f\n", r.path.c_str(), (long long)r.iterations, wall,
                  r.setup_seconds * 1e6, r.solve_seconds * 1e6, r.solve_seconds * 1e6 / std::max<int64_t>(1, r.iterations));
    }
  }
  for (int rep = 0; rep < 3; ++rep) {
    Kokkos::fence();
    auto t0 = Clock::now();
    {
      V r("r", n), p("p", n), q("q", n);
      Kokkos::fence();
      std::printf("  alloc 3 vectors %8.1f us", since(t0));
    }
    std::printf(", with free %8.1f us\n", since(t0));
  }
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  run("poisson27_48^3", kspmv::poisson_3d<double, int, int, Device>(48, 48, 48, 27));
  auto h = kspmv::read_matrix_market("lap3D_7pt_n20.mtx");
  run("lap3D x300", kspmv::to_device<double, int, int, Device>(kspmv_bench::replicate(h, 300)));
  run("poisson27_100^3", kspmv::poisson_3d<double, int, int, Device>(100, 100, 100, 27));
}
