// Reads a Matrix Market file (or builds a 27-point 3D Poisson matrix), runs y = A*x with the
// plain automatic call (its setup: the first call, which analyses A), every CSR algorithm, every
// format and a kspmv::Plan, and prints the median time per SpMV, the effective bandwidth (CSR
// minimum-bytes model) and the setup (first call, conversion or plan) time.
//
//   spmv_mm [file.mtx] [--grid N] [--points 7|27] [--repeat R]
#include <kspmv/kspmv.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

int main(int argc, char* argv[]) {
  Kokkos::initialize(argc, argv);
  int status = 0;
  try {
    std::string file;
    int grid = 64, points = 27, repeat = 20;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--grid" && i + 1 < argc) {
        grid = std::atoi(argv[++i]);
      } else if (arg == "--points" && i + 1 < argc) {
        points = std::atoi(argv[++i]);
      } else if (arg == "--repeat" && i + 1 < argc) {
        repeat = std::max(1, std::atoi(argv[++i]));
      } else if (!arg.empty() && arg[0] != '-') {
        file = arg;
      } else {
        throw std::invalid_argument("unknown argument '" + arg + "'; usage: spmv_mm [file.mtx] [--grid N] [--points 7|27] [--repeat R]");
      }
    }
    using Matrix = kspmv::CsrMatrix<double, int, int>;
    const Matrix A = file.empty() ? kspmv::poisson_3d<double, int, int>(grid, grid, grid, points)
                                  : kspmv::read_csr<double, int, int>(file);
    const std::string name = file.empty() ? std::to_string(points) + "-point Poisson " + std::to_string(grid) + "^3" : file;
    std::printf("matrix %s: %d x %d, %lld nonzeros, backend %s\n", name.c_str(), A.num_rows(), A.num_cols(),
                static_cast<long long>(A.nnz()), Kokkos::DefaultExecutionSpace::name());

    Kokkos::View<double*> x("x", A.num_cols()), y("y", A.num_rows());
    Kokkos::deep_copy(x, 1.0);
    // Minimum bytes of y = A*x in CSR: values and indices once, offsets, x and y once each.
    const double bytes = double(A.nnz()) * (sizeof(double) + sizeof(int)) + (A.num_rows() + 1.0) * sizeof(int) +
                         double(A.num_cols()) * sizeof(double) + double(A.num_rows()) * sizeof(double);
    std::printf("%-16s %14s %12s %10s %12s\n", "algorithm", "time/SpMV [us]", "GB/s", "GFLOP/s", "setup [us]");
    using Clock = std::chrono::steady_clock;
    auto seconds = [](Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); };
    // Median time of `repeat` fenced calls of f, after one warm-up call.
    auto report = [&](const char* name, double setup, const auto& f) {
      f();
      Kokkos::fence();
      std::vector<double> samples;
      for (int r = 0; r < repeat; ++r) {
        const auto t0 = Clock::now();
        f();
        Kokkos::fence();
        samples.push_back(seconds(t0));
      }
      std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
      const double t = samples[samples.size() / 2];
      std::printf("%-16s %14.1f %12.2f %10.2f %12.1f\n", name, t * 1e6, bytes / t * 1e-9,
                  2.0 * double(A.nnz()) / t * 1e-9, setup * 1e6);
    };
    // The plain call: its first call analyses A's structure (kept with A) and chooses a CSR kernel.
    Kokkos::fence();
    const auto first = Clock::now();
    kspmv::spmv(1.0, A, x, 0.0, y);
    Kokkos::fence();
    report("automatic", seconds(first), [&] { kspmv::spmv(1.0, A, x, 0.0, y); });
    std::printf("  automatic chose %s\n", kspmv::automatic_choice(A).c_str());
    for (kspmv::Algorithm algorithm : {kspmv::Algorithm::csr_scalar, kspmv::Algorithm::csr_vector}) {
      kspmv::SpmvOptions options;
      options.algorithm = algorithm;
      report(kspmv::to_string(algorithm), 0.0, [&] { kspmv::spmv(1.0, A, x, 0.0, y, options); });
    }
    // Each format: the conversion is the setup. A format that refuses the matrix says why.
    auto format = [&](const char* name, auto convert) {
      try {
        Kokkos::fence();
        const auto t0 = Clock::now();
        const auto M = convert();
        Kokkos::fence();
        const double setup = seconds(t0);
        report(name, setup, [&] { kspmv::spmv(1.0, M, x, 0.0, y); });
      } catch (const std::invalid_argument& e) {
        std::printf("%-16s refused: %s\n", name, e.what());
      }
    };
    format("csr_balanced", [&] { return kspmv::convert<kspmv::BalancedCsrMatrix>(A); });
    format("ell", [&] { return kspmv::convert<kspmv::EllMatrix>(A); });
    format("blocked_ell", [&] { return kspmv::convert<kspmv::BlockedEllMatrix>(A); });
    format("hyb", [&] { return kspmv::convert<kspmv::HybMatrix>(A); });
    format("dia", [&] { return kspmv::convert<kspmv::DiaMatrix>(A); });
    kspmv::PlanOptions hint;
    hint.expected_uses = 100;
    const auto t0 = Clock::now();
    const kspmv::Plan<double, int, int> plan(A, hint);
    Kokkos::fence();
    const double plan_setup = seconds(t0);
    report("plan", plan_setup, [&] { plan.apply(1.0, x, 0.0, y); });
    std::printf("%s", plan.report().to_string().c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmv_mm: %s\n", e.what());
    status = 1;
  }
  Kokkos::finalize();
  return status;
}
