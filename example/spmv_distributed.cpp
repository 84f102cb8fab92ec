// The distributed SpMV from an application's side: every rank builds its rows of a 27-point 3D
// Poisson matrix (or rank 0 reads a Matrix Market file and distributes it), then y = A*x with
// x = 1; prints the ranks, the halo, the median time per SpMV (slowest rank) and the sum of y
// over all ranks, which for x = 1 is the sum of A's entries (checked against a sum of the
// values; the program fails if they disagree).
//
//   mpirun -np P spmv_distributed [file.mtx] [--grid N] [--repeat R]
#include <kspmv/distributed.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

namespace {
using Matrix = kspmv::DistributedCsrMatrix<double>;
using ExecSpace = Matrix::execution_space;

double sum_over_ranks(double v) {
  MPI_Allreduce(MPI_IN_PLACE, &v, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return v;
}

template <class View>
double sum(const View& v) {
  double s = 0;
  Kokkos::parallel_reduce(
      "spmv_distributed[sum]", Kokkos::RangePolicy<ExecSpace>(0, v.extent(0)),
      KOKKOS_LAMBDA(const int i, double& t) { t += v(i); }, s);
  return s;
}
}  // namespace

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  Kokkos::initialize(argc, argv);
  int status = 0;
  try {
    std::string file;
    int grid = 32, repeat = 20;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--grid" && i + 1 < argc) {
        grid = std::atoi(argv[++i]);
      } else if (arg == "--repeat" && i + 1 < argc) {
        repeat = std::max(1, std::atoi(argv[++i]));
      } else if (!arg.empty() && arg[0] != '-') {
        file = arg;
      } else {
        throw std::invalid_argument("unknown argument '" + arg + "'; usage: spmv_distributed [file.mtx] [--grid N] [--repeat R]");
      }
    }
    const Matrix A = file.empty() ? kspmv::poisson_3d_distributed<double>(MPI_COMM_WORLD, grid, grid, grid, 27)
                                  : kspmv::read_matrix_market_distributed<double>(MPI_COMM_WORLD, file);
    Kokkos::View<double*> x("x", A.num_local_cols()), y("y", A.num_local_rows());
    Kokkos::deep_copy(x, 1.0);
    std::vector<double> times;
    for (int r = 0; r < repeat + 1; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      const auto start = std::chrono::steady_clock::now();
      kspmv::spmv(1.0, A, x, 0.0, y);
      ExecSpace().fence();
      MPI_Barrier(MPI_COMM_WORLD);
      if (r > 0) times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    const double y_sum = sum_over_ranks(sum(y));
    const double a_sum = sum_over_ranks(sum(A.local_block.values) + sum(A.ghost_block.values));
    const double ghosts = sum_over_ranks(double(A.num_ghost_cols()));
    const bool agree = std::abs(y_sum - a_sum) <= 1e-12 * std::max(1.0, std::abs(a_sum));
    if (A.rank() == 0) {
      std::printf("%s on %d MPI ranks: %lld rows, %.0f ghost entries of x in all, %.1f us per SpMV (median of %d), "
                  "sum of A*1 %.17g, sum of A's entries %.17g: %s\n",
                  file.empty() ? ("27-point Poisson " + std::to_string(grid) + "^3").c_str() : file.c_str(),
                  A.num_ranks(), (long long)A.global_rows(), ghosts, times[times.size() / 2] * 1e6, repeat, y_sum,
                  a_sum, agree ? "agree" : "DISAGREE");
    }
    status = agree ? 0 : 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "spmv_distributed: %s\n", e.what());
    status = 1;
  }
  Kokkos::finalize();
  MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return status;
}
