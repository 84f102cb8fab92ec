// Reads a Matrix Market file (or builds a 27-point 3D Poisson matrix), runs y = A*x with every
// CSR algorithm and prints the median time per SpMV and the effective bandwidth.
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
    std::printf("%-12s %14s %12s %10s\n", "algorithm", "time/SpMV [us]", "GB/s", "GFLOP/s");
    for (kspmv::Algorithm algorithm :
         {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar, kspmv::Algorithm::csr_vector}) {
      kspmv::SpmvOptions options;
      options.algorithm = algorithm;
      kspmv::spmv(1.0, A, x, 0.0, y, options);  // warm-up
      Kokkos::fence();
      std::vector<double> seconds;
      for (int r = 0; r < repeat; ++r) {
        const auto start = std::chrono::steady_clock::now();
        kspmv::spmv(1.0, A, x, 0.0, y, options);
        Kokkos::fence();
        seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      }
      std::nth_element(seconds.begin(), seconds.begin() + seconds.size() / 2, seconds.end());
      const double t = seconds[seconds.size() / 2];
      std::printf("%-12s %14.1f %12.2f %10.2f\n", kspmv::to_string(algorithm), t * 1e6, bytes / t * 1e-9,
                  2.0 * double(A.nnz()) / t * 1e-9);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmv_mm: %s\n", e.what());
    status = 1;
  }
  Kokkos::finalize();
  return status;
}
