// kspmv::cg on both paths (separate kernels around a Plan, and the fused one-kernel solve), with
// and without Jacobi, against a host CG written from the textbook: iteration counts within one,
// the same solution, the residual history; non-SPD matrices and NaN reported, not returned as
// NaN; b = 0, n = 0, max_iterations; and the argument checks.
#include <kspmv/cg.hpp>
#include <kspmv/generate.hpp>

#include "cases.hpp"

#include <cmath>

namespace kspmv_test {
namespace {

template <class ExecSpace>
class CgTest : public ::testing::Test {};
TYPED_TEST_SUITE(CgTest, Backends, BackendName);

struct HostCgResult {
  kspmv::CgStatus status = kspmv::CgStatus::max_iterations;
  int64_t iterations = 0;
  std::vector<double> x, history;
};

// Preconditioned CG in double on the host, the oracle.
HostCgResult host_cg(const kspmv::HostCsr& A, const std::vector<double>& b, std::vector<double> x, double tolerance,
                     int64_t max_iterations, bool jacobi) {
  const int64_t n = A.num_rows;
  const auto times = [&](const std::vector<double>& v) {
    std::vector<double> w(n, 0.0);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k) w[i] += A.values[k] * v[A.col_indices[k]];
    return w;
  };
  const auto dot = [&](const std::vector<double>& u, const std::vector<double>& v) {
    double s = 0;
    for (int64_t i = 0; i < n; ++i) s += u[i] * v[i];
    return s;
  };
  std::vector<double> inverse(n, 1.0);
  if (jacobi) {
    for (int64_t i = 0; i < n; ++i) {
      double d = 0;
      for (int64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k)
        if (A.col_indices[k] == i) d += A.values[k];
      inverse[i] = 1.0 / d;
    }
  }
  HostCgResult out;
  const double bb = dot(b, b);
  std::vector<double> r = times(x), z(n), p(n);
  for (int64_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
  for (int64_t i = 0; i < n; ++i) p[i] = z[i] = inverse[i] * r[i];
  double rz = dot(r, z);
  out.history.push_back(std::sqrt(dot(r, r) / bb));
  if (out.history.back() <= tolerance) out.status = kspmv::CgStatus::converged;
  while (out.status != kspmv::CgStatus::converged && out.iterations < max_iterations) {
    const auto q = times(p);
    const double pq = dot(p, q);
    if (!(pq > 0)) {
      out.status = kspmv::CgStatus::indefinite;
      break;
    }
    const double alpha = rz / pq;
    for (int64_t i = 0; i < n; ++i) {
      x[i] += alpha * p[i];
      r[i] -= alpha * q[i];
      z[i] = inverse[i] * r[i];
    }
    ++out.iterations;
    out.history.push_back(std::sqrt(dot(r, r) / bb));
    if (out.history.back() <= tolerance) {
      out.status = kspmv::CgStatus::converged;
      break;
    }
    const double rz_next = dot(r, z), beta = rz_next / rz;
    rz = rz_next;
    for (int64_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
  }
  out.x = x;
  return out;
}

// A random sparse SPD matrix: B + B^T plus a diagonal that dominates each row, with rows of 0 to
// max_row_length off-diagonal entries and, optionally, row `long_row` coupled to every column.
kspmv::HostCsr random_spd(int64_t n, int64_t max_row_length, bool long_row, std::mt19937_64& rng) {
  std::vector<std::vector<std::pair<int64_t, double>>> rows(n);
  std::uniform_int_distribution<int64_t> column(0, std::max<int64_t>(0, n - 1)), length(0, max_row_length);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  const auto couple = [&](int64_t i, int64_t j, double v) {
    if (i == j) return;
    rows[i].push_back({j, v});
    rows[j].push_back({i, v});
  };
  for (int64_t i = 0; i < n; ++i)
    for (int64_t k = length(rng); k > 0; --k) couple(i, column(rng), value(rng));
  if (long_row && n > 1) {
    const int64_t i = column(rng);
    for (int64_t j = 0; j < n; ++j) couple(i, j, 0.1 * value(rng));
  }
  kspmv::HostCsr A;
  A.num_rows = A.num_cols = n;
  for (int64_t i = 0; i < n; ++i) {
    double dominance = 1.0 + value(rng) * 0.5 + 0.5;
    for (const auto& [j, v] : rows[i]) {
      A.col_indices.push_back(j);
      A.values.push_back(v);
      dominance += std::abs(v);
    }
    A.col_indices.push_back(i);
    A.values.push_back(dominance);
    A.row_offsets.push_back(int64_t(A.col_indices.size()));
  }
  return A;
}

// The paths that run on ExecSpace: the grid kernel needs the raw GPU kernels.
template <class ExecSpace>
std::vector<kspmv::CgPath> paths_on() {
  std::vector<kspmv::CgPath> paths = {kspmv::CgPath::automatic, kspmv::CgPath::separate, kspmv::CgPath::fused_team};
  if (kspmv::impl::raw_available<ExecSpace, double, int, int>()) paths.push_back(kspmv::CgPath::fused_grid);
  return paths;
}
const char* name(kspmv::CgPath p) { return kspmv::to_string(p); }

double relative_difference(const std::vector<double>& u, const std::vector<double>& v) {
  double d = 0, s = 0;
  for (size_t i = 0; i < u.size(); ++i) {
    d += (u[i] - v[i]) * (u[i] - v[i]);
    s += v[i] * v[i];
  }
  return s > 0 ? std::sqrt(d / s) : std::sqrt(d);
}

// Runs kspmv::cg on h from x0 and checks it against the host CG: status, iterations within
// iteration_slack, x, the residual history's length and ends, the true residual. Sums in another
// order round differently, and on an irregular random matrix CG's last iterations amplify that:
// 38 against the host's 40 was seen (tolerance 1e-10, 2000 rows and one row coupled to all).
template <class ExecSpace>
::testing::AssertionResult check_against_host(const kspmv::HostCsr& h, const std::vector<double>& b,
                                              const std::vector<double>& x0, const kspmv::CgOptions& options,
                                              int64_t iteration_slack = 1) {
  using Device = DeviceOf<ExecSpace>;
  const auto A = kspmv::to_device<double, int, int, Device>(h);
  const auto bd = to_device_vector<double, Device>(b, "b");
  const auto xd = to_device_vector<double, Device>(x0, "x");
  const kspmv::CgResult result = kspmv::cg(A, bd, xd, options);
  const HostCgResult expected = host_cg(h, b, x0, options.tolerance, options.max_iterations, options.jacobi);
  const auto x = to_std_vector(xd);
  auto fail = [&]() {
    return ::testing::AssertionFailure() << name(options.path) << (options.jacobi ? ", jacobi" : "") << ", n "
                                         << h.num_rows << ": " << result.message << " (host: "
                                         << kspmv::to_string(expected.status) << " in " << expected.iterations
                                         << "); ";
  };
  if (options.path != kspmv::CgPath::automatic && result.path != name(options.path)) {
    return fail() << "ran the " << result.path << " path";
  }
  if (result.status != expected.status) return fail() << "status " << kspmv::to_string(result.status);
  if (std::abs(result.iterations - expected.iterations) > iteration_slack) {
    return fail() << "iterations " << result.iterations << " (slack " << iteration_slack << ")";
  }
  if (result.residual_history.size() != size_t(result.iterations + 1)) {
    return fail() << "history of " << result.residual_history.size() << " for " << result.iterations << " iterations";
  }
  if (std::abs(result.residual_history[0] - expected.history[0]) > 1e-12 * (1 + expected.history[0])) {
    return fail() << "history[0] " << result.residual_history[0] << ", host " << expected.history[0];
  }
  if (result.status == kspmv::CgStatus::converged) {
    if (!(result.residual_history.back() <= options.tolerance)) return fail() << "last residual " << result.residual_history.back();
    // The recurrence's residual drifts from the true one by rounding only.
    if (!(result.residual <= 10 * options.tolerance + 1e-13)) return fail() << "true residual " << result.residual;
    if (!(relative_difference(x, expected.x) <= 1e-6)) return fail() << "x differs by " << relative_difference(x, expected.x);
  }
  for (const double v : x)
    if (!std::isfinite(v)) return fail() << "x holds " << v;
  return ::testing::AssertionSuccess() << result.message;
}

TYPED_TEST(CgTest, AgreesWithTheHostCgOnRandomSpdMatrices) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  struct Shape {
    int64_t n, max_row_length;
    bool long_row;
  };
  for (const Shape s : {Shape{1, 0, false}, Shape{7, 3, false}, Shape{300, 6, false}, Shape{2000, 12, true}}) {
    const kspmv::HostCsr h = random_spd(s.n, s.max_row_length, s.long_row, rng);
    const auto b = random_vector(s.n, rng);
    for (const bool zero_start : {true, false}) {
      const std::vector<double> x0 = zero_start ? std::vector<double>(s.n, 0.0) : random_vector(s.n, rng);
      for (const kspmv::CgPath path : paths_on<TypeParam>()) {
        for (const bool jacobi : {false, true}) {
          kspmv::CgOptions options;
          options.tolerance = 1e-10;
          options.path = path;
          options.jacobi = jacobi;
          // Within one on the small and regular shapes; a tenth of the iterations on the
          // irregular one (the Poisson and real matrices below, and the H200 runs, hold one).
          const int64_t slack = s.long_row ? 4 : 1;
          EXPECT_TRUE(check_against_host<TypeParam>(h, b, x0, options, slack));
        }
      }
    }
  }
}

TYPED_TEST(CgTest, AgreesWithTheHostCgOnPoissonAndRealMatrices) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(test_seed());
  const std::vector<kspmv::HostCsr> matrices = {
      kspmv::to_host(kspmv::poisson_3d<double, int, int, Device>(9, 8, 7, 7)),
      kspmv::to_host(kspmv::poisson_3d<double, int, int, Device>(6, 6, 6, 27)),
      kspmv::read_matrix_market(data_dir() + "/lap3D_7pt_n20.mtx")};
  for (const auto& h : matrices) {
    const auto b = random_vector(h.num_rows, rng);
    for (const kspmv::CgPath path : paths_on<TypeParam>()) {
      for (const bool jacobi : {false, true}) {
        kspmv::CgOptions options;
        options.path = path;
        options.jacobi = jacobi;
        EXPECT_TRUE(check_against_host<TypeParam>(h, b, std::vector<double>(h.num_rows, 0.0), options));
      }
    }
  }
}

// Iterations launched past the one that stopped CG (the host reads the halt codes every few)
// change nothing.
TYPED_TEST(CgTest, CheckIntervalChangesNothingButTime) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(10, 10, 10, 7);
  std::mt19937_64 rng(test_seed());
  const auto b = to_device_vector<double, Device>(random_vector(A.num_rows(), rng), "b");
  std::vector<std::vector<double>> solutions;
  std::vector<int64_t> iterations;
  for (const int interval : {1, 7, 64}) {
    kspmv::CgOptions options;
    options.path = kspmv::CgPath::separate;
    options.check_interval = interval;
    const Kokkos::View<double*, Device> x("x", A.num_rows());
    const auto result = kspmv::cg(A, b, x, options);
    ASSERT_TRUE(result.converged()) << result.message;
    iterations.push_back(result.iterations);
    solutions.push_back(to_std_vector(x));
  }
  for (size_t i = 1; i < solutions.size(); ++i) {
    EXPECT_EQ(iterations[i], iterations[0]);
    EXPECT_LE(relative_difference(solutions[i], solutions[0]), 1e-12);
  }
}

// The separate path on a system of many blocks of its vector steps (64,000 rows: 63 blocks of
// the GPU's raw steps, whose sums the last block to finish adds in block order): with and without
// Jacobi it agrees with the host CG, and two solves give the same bits. Strided b and x (solved
// in contiguous copies; they once stopped the program in a View assignment) agree with them.
TYPED_TEST(CgTest, SeparateStepsOnManyBlocksAreExactAndRepeatable) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(40, 40, 40, 7);
  const kspmv::HostCsr h = kspmv::to_host(A);
  std::mt19937_64 rng(test_seed());
  const auto b_host = random_vector(A.num_rows(), rng);
  const auto b = to_device_vector<double, Device>(b_host, "b");
  for (const bool jacobi : {false, true}) {
    kspmv::CgOptions options;
    options.path = kspmv::CgPath::separate;
    options.jacobi = jacobi;
    EXPECT_TRUE(check_against_host<TypeParam>(h, b_host, std::vector<double>(h.num_rows, 0.0), options));
    std::vector<std::vector<double>> solutions, histories;
    for (int run = 0; run < 2; ++run) {
      const Kokkos::View<double*, Device> x("x", A.num_rows());
      const auto result = kspmv::cg(A, b, x, options);
      ASSERT_TRUE(result.converged()) << result.message;
      solutions.push_back(to_std_vector(x));
      histories.push_back(result.residual_history);
    }
    EXPECT_EQ(solutions[0], solutions[1]) << (jacobi ? "jacobi" : "no preconditioner");
    EXPECT_EQ(histories[0], histories[1]) << (jacobi ? "jacobi" : "no preconditioner");
    // Columns of n x 2 LayoutRight arrays: b and x with a stride of 2.
    const Kokkos::View<double**, Kokkos::LayoutRight, Device> wide_b("wide_b", A.num_rows(), 2),
        wide_x("wide_x", A.num_rows(), 2);
    const auto b_strided = Kokkos::subview(wide_b, Kokkos::ALL, 1);
    const auto strided = Kokkos::subview(wide_x, Kokkos::ALL, 0);
    ASSERT_NE(strided.stride(0), size_t(1));
    Kokkos::deep_copy(b_strided, b);
    const auto result = kspmv::cg(A, b_strided, strided, options);
    ASSERT_TRUE(result.converged()) << result.message;
    const auto wide_x_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), wide_x);
    std::vector<double> x(A.num_rows());
    for (size_t i = 0; i < x.size(); ++i) x[i] = wide_x_host(i, 0);
    EXPECT_LE(relative_difference(x, solutions[0]), 1e-12) << (jacobi ? "jacobi" : "no preconditioner");
  }
}

TYPED_TEST(CgTest, PlanGivenByTheCaller) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(12, 11, 10, 27);
  std::mt19937_64 rng(test_seed());
  const auto b_host = random_vector(A.num_rows(), rng);
  const auto b = to_device_vector<double, Device>(b_host, "b");
  kspmv::PlanOptions plan_options;
  plan_options.expected_uses = 1000;
  const kspmv::Plan<double, int, int, Device> plan(A, plan_options);
  kspmv::CgOptions options;
  options.path = kspmv::CgPath::separate;
  const Kokkos::View<double*, Device> x("x", A.num_rows());
  const auto result = kspmv::cg(plan, b, x, options);
  const auto expected = host_cg(kspmv::to_host(A), b_host, std::vector<double>(A.num_rows(), 0.0), options.tolerance,
                                options.max_iterations, false);
  EXPECT_TRUE(result.converged()) << result.message;
  EXPECT_LE(std::abs(result.iterations - expected.iterations), 1);
  EXPECT_LE(relative_difference(to_std_vector(x), expected.x), 1e-6);
}

// cg(A, ...)'s plan: told max_iterations + 2 uses, in mode N, chosen by the model alone (no
// candidate converted and timed), even for a user's options asking for another mode.
TYPED_TEST(CgTest, ItsPlanIsTheModelsChoiceUntimed) {
  using Device = DeviceOf<TypeParam>;
  // Beyond the plan's small-matrix size, so that its candidates are analysed.
  const auto A = kspmv::poisson_3d<double, int, int, Device>(64, 64, 64, 27);
  kspmv::CgOptions options;
  options.max_iterations = 5000;
  options.plan.mode = "T";
  const kspmv::PlanOptions plan_options = kspmv::cg_plan_options(options);
  EXPECT_EQ(plan_options.expected_uses, 5002);
  EXPECT_EQ(plan_options.mode, "N");
  const kspmv::Plan<double, int, int, Device> plan(A, plan_options);
  EXPECT_EQ(plan.report().timing_time, 0.0) << plan.report().to_string();
  for (const kspmv::PlanCandidate& c : plan.report().candidates) EXPECT_FALSE(c.timed()) << c.name;
  // Asked to time, the same plan does (so the default, not the plan, is what differs).
  options.plan.timing_threshold = 1;
  const kspmv::Plan<double, int, int, Device> timed(A, kspmv::cg_plan_options(options));
  EXPECT_GT(timed.report().timing_time, 0.0) << timed.report().to_string();
}

TYPED_TEST(CgTest, FloatValuesConverge) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<float, int, int, Device>(8, 8, 8, 7);
  const Kokkos::View<float*, Device> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0f);
  for (const kspmv::CgPath path : paths_on<TypeParam>()) {
    kspmv::CgOptions options;
    options.tolerance = 1e-5;
    options.path = path;
    Kokkos::deep_copy(x, 0.0f);
    const auto result = kspmv::cg(A, b, x, options);
    EXPECT_TRUE(result.converged()) << name(path) << ": " << result.message;
    EXPECT_LE(result.residual, 1e-4) << name(path);
  }
}

// Mixed precision (float_spmv): the iterations' SpMV on A's values in float; it stops on the
// true residual only (A in double), restarting where the recurrence alone would stop short, so
// the tolerance is met for the double A: at 1e-12 the float values' rounding alone leaves a
// true residual near 1e-8.
TYPED_TEST(CgTest, FloatSpmvReachesTheDoubleTolerance) {
  using Device = DeviceOf<TypeParam>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::vector<kspmv::HostCsr> matrices = {random_spd(2000, 12, true, rng),
                                                kspmv::to_host(kspmv::poisson_3d<double, int, int, Device>(12, 12, 12, 7))};
  for (const auto& h : matrices) {
    const auto A = kspmv::to_device<double, int, int, Device>(h);
    const auto b_host = random_vector(h.num_rows, rng);
    const auto b = to_device_vector<double, Device>(b_host, "b");
    for (const bool jacobi : {false, true}) {
      for (const double tolerance : {1e-6, 1e-10, 1e-12}) {
        kspmv::CgOptions options;
        options.float_spmv = true;
        options.jacobi = jacobi;
        options.tolerance = tolerance;
        const Kokkos::View<double*, Device> x("x", h.num_rows);
        const auto result = kspmv::cg(A, b, x, options);
        const auto expected = host_cg(h, b_host, std::vector<double>(h.num_rows, 0.0), tolerance, 1000, jacobi);
        SCOPED_TRACE(result.message);
        EXPECT_EQ(result.path, "separate");
        EXPECT_TRUE(result.converged());
        EXPECT_NE(result.message.find("in float"), std::string::npos);
        // The random values lose bits in float (Poisson's -1 and 6 do not): the recurrence of
        // the float A stops short of these tolerances, and CG must restart to meet them.
        if (&h == &matrices.front() && tolerance < 1e-9) EXPECT_GE(result.restarts, 1);
        if (&h != &matrices.front()) EXPECT_EQ(result.restarts, 0) << "A is exact in float";
        EXPECT_LE(result.residual, 1.01 * tolerance) << "the true residual";
        EXPECT_LE(result.residual_history.back(), tolerance);
        EXPECT_GE(result.iterations, expected.iterations - 4);
        EXPECT_LE(result.iterations, 2 * expected.iterations + 10);
        // Both solutions leave ||b - A x|| <= tolerance ||b||, so they may differ by 2 cond(A)
        // tolerance relative to x (cond(A) near 70 for the Poisson matrix): at 1e-6 the bound is
        // 200 x the tolerance (one seed gave 1.03e-6 there), at the tighter ones 1e-6 as before.
        EXPECT_LE(relative_difference(to_std_vector(x), expected.x), std::max(1e-6, 200 * tolerance));
      }
    }
  }
}

// Automatic takes the separate kernels on host backends and a fused one on GPUs for small
// systems; the grid kernel, asked for where it cannot run, is refused with the reason.
TYPED_TEST(CgTest, PathTakenAndFusedGridRefusedWhereItCannotRun) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(5, 5, 5, 7);
  const Kokkos::View<double*, Device> b("b", A.num_rows()), x("x", A.num_rows());
  Kokkos::deep_copy(b, 1.0);
  const auto result = kspmv::cg(A, b, x);
  EXPECT_TRUE(result.converged()) << result.message;
  const bool gpu = kspmv::impl::is_gpu_space<TypeParam>();
  const bool grid = kspmv::impl::raw_available<TypeParam, double, int, int>();
  EXPECT_EQ(result.path, !gpu ? "separate" : grid ? "fused_grid" : "fused_team");
  kspmv::CgOptions options;
  options.path = kspmv::CgPath::fused_grid;
  if (grid) {
    EXPECT_TRUE(kspmv::cg(A, b, x, options).converged());
  } else {
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::cg(A, b, x, options); },
                                                   "CgPath::fused_grid needs the raw GPU kernels"));
  }
}

TYPED_TEST(CgTest, IndefiniteMatricesAreReportedNotReturnedAsNan) {
  using Device = DeviceOf<TypeParam>;
  // [[1, 2], [2, 1]] has eigenvalues 3 and -1; b = (1, -1) is the eigenvector of -1, so the
  // first p.(A p) is -2: indefinite at iteration 1, x left at x0.
  kspmv::HostCsr two;
  two.num_rows = two.num_cols = 2;
  two.row_offsets = {0, 2, 4};
  two.col_indices = {0, 1, 0, 1};
  two.values = {1, 2, 2, 1};
  // diag(1, -1, 2): a negative diagonal entry, which Jacobi refuses before iterating.
  kspmv::HostCsr diagonal;
  diagonal.num_rows = diagonal.num_cols = 3;
  diagonal.row_offsets = {0, 1, 2, 3};
  diagonal.col_indices = {0, 1, 2};
  diagonal.values = {1, -1, 2};
  for (const kspmv::CgPath path : paths_on<TypeParam>()) {
    for (const bool jacobi : {false, true}) {
      kspmv::CgOptions options;
      options.path = path;
      options.jacobi = jacobi;
      {
        const auto A = kspmv::to_device<double, int, int, Device>(two);
        const auto b = to_device_vector<double, Device>({1.0, -1.0}, "b");
        const Kokkos::View<double*, Device> x("x", 2);
        const auto result = kspmv::cg(A, b, x, options);
        EXPECT_EQ(result.status, kspmv::CgStatus::indefinite) << name(path) << ": " << result.message;
        EXPECT_EQ(result.iterations, 0) << name(path);
        EXPECT_NE(result.message.find("not symmetric positive definite"), std::string::npos) << result.message;
        EXPECT_EQ(to_std_vector(x), std::vector<double>({0.0, 0.0})) << name(path);
      }
      {
        const auto A = kspmv::to_device<double, int, int, Device>(diagonal);
        const auto b = to_device_vector<double, Device>({1.0, 1.0, 1.0}, "b");
        const Kokkos::View<double*, Device> x("x", 3);
        const auto result = kspmv::cg(A, b, x, options);
        EXPECT_EQ(result.status, kspmv::CgStatus::indefinite) << name(path) << ": " << result.message;
        if (jacobi) EXPECT_NE(result.message.find("row 1"), std::string::npos) << result.message;
        for (const double v : to_std_vector(x)) EXPECT_TRUE(std::isfinite(v)) << name(path);
      }
    }
  }
}

TYPED_TEST(CgTest, NanInBIsABreakdown) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(4, 4, 4, 7);
  std::vector<double> b_host(A.num_rows(), 1.0);
  b_host[5] = nan;
  const auto b = to_device_vector<double, Device>(b_host, "b");
  for (const kspmv::CgPath path : paths_on<TypeParam>()) {
    kspmv::CgOptions options;
    options.path = path;
    const Kokkos::View<double*, Device> x("x", A.num_rows());
    const auto result = kspmv::cg(A, b, x, options);
    EXPECT_EQ(result.status, kspmv::CgStatus::breakdown) << name(path) << ": " << result.message;
    EXPECT_EQ(result.iterations, 0) << name(path);
  }
}

TYPED_TEST(CgTest, ZeroRightHandSideEmptySystemAndIterationLimit) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(5, 6, 7, 7);
  const int n = A.num_rows();
  std::mt19937_64 rng(test_seed());
  for (const kspmv::CgPath path : paths_on<TypeParam>()) {
    kspmv::CgOptions options;
    options.path = path;
    {  // b = 0: x = 0 whatever x0
      const Kokkos::View<double*, Device> b("b", n);
      const auto x = to_device_vector<double, Device>(random_vector(n, rng), "x");
      const auto result = kspmv::cg(A, b, x, options);
      EXPECT_TRUE(result.converged()) << name(path) << ": " << result.message;
      EXPECT_EQ(result.iterations, 0);
      EXPECT_EQ(to_std_vector(x), std::vector<double>(n, 0.0)) << name(path);
    }
    {  // n = 0
      const auto E = kspmv::to_device<double, int, int, Device>(kspmv::HostCsr());
      const Kokkos::View<double*, Device> b("b", 0), x("x", 0);
      const auto result = kspmv::cg(E, b, x, options);
      EXPECT_TRUE(result.converged()) << name(path) << ": " << result.message;
      EXPECT_EQ(result.iterations, 0);
    }
    {  // three iterations, then the host CG's third iterate
      const auto b_host = random_vector(n, rng);
      const auto b = to_device_vector<double, Device>(b_host, "b");
      const Kokkos::View<double*, Device> x("x", n);
      options.max_iterations = 3;
      const auto result = kspmv::cg(A, b, x, options);
      const auto expected = host_cg(kspmv::to_host(A), b_host, std::vector<double>(n, 0.0), options.tolerance, 3, false);
      EXPECT_EQ(result.status, kspmv::CgStatus::max_iterations) << name(path) << ": " << result.message;
      EXPECT_EQ(result.iterations, 3);
      EXPECT_EQ(result.residual_history.size(), 4u);
      EXPECT_LE(relative_difference(to_std_vector(x), expected.x), 1e-12) << name(path);
      EXPECT_NEAR(result.residual, expected.history.back(), 1e-10) << name(path);
    }
  }
}

TEST(CgBadArgument, EachProblemIsNamed) {
  using Device = DefaultDevice;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(3, 3, 3, 7);
  const auto b = zeros<double>(27), x = zeros<double>(27), short_x = zeros<double>(26);
  kspmv::HostCsr wide;
  wide.num_rows = 2;
  wide.num_cols = 3;
  wide.row_offsets = {0, 0, 0};
  const auto W = kspmv::to_device<double, int, int, Device>(wide);
  const auto with = [](auto change) {
    kspmv::CgOptions o;
    change(o);
    return o;
  };
  using E = std::invalid_argument;
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(W, zeros<double>(2), zeros<double>(3)); }, "A is 2 x 3"));
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(A, zeros<double>(28), x); }, "b has 28 entries, A has 27 rows"));
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(A, b, short_x); }, "x has 26 entries, A has 27 columns"));
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(A, b, b); }, "x and b share memory"));
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(A, b, x, with([](auto& o) { o.tolerance = -1; })); }, "tolerance = -1"));
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(A, b, x, with([](auto& o) { o.tolerance = nan; })); }, "tolerance = nan"));
  EXPECT_TRUE(throws_with<E>(
      [&] { kspmv::cg(A, b, x, with([](auto& o) { o.tolerance = std::numeric_limits<double>::infinity(); })); },
      "tolerance = inf"));
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(A, b, x, with([](auto& o) { o.max_iterations = -2; })); },
                             "max_iterations = -2 is negative"));
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(A, b, x, with([](auto& o) { o.check_interval = -1; })); },
                             "check_interval = -1 is negative"));
  EXPECT_TRUE(throws_with<E>(
      [&] {
        kspmv::cg(A, b, x, with([](auto& o) {
                    o.path = kspmv::CgPath::fused_team;
                    o.max_iterations = int64_t(1) << 40;
                  }));
      },
      "the fused_team path keeps its residual history on the device"));
  for (const kspmv::CgPath fused : {kspmv::CgPath::fused_team, kspmv::CgPath::fused_grid}) {
    EXPECT_TRUE(throws_with<E>(
        [&] {
          kspmv::cg(A, b, x, with([&](auto& o) {
                      o.float_spmv = true;
                      o.path = fused;
                    }));
        },
        "float_spmv runs on the separate path"));
  }
  const auto F = kspmv::poisson_3d<float, int, int, Device>(3, 3, 3, 7);
  EXPECT_TRUE(throws_with<E>(
      [&] { kspmv::cg(F, zeros<float>(27), zeros<float>(27), with([](auto& o) { o.float_spmv = true; })); },
      "float_spmv rounds A's values to float: it needs double values"));
  kspmv::PlanOptions transposed;
  transposed.mode = "T";
  transposed.expected_uses = 1;
  const kspmv::Plan<double, int, int, Device> plan_t(A, transposed);
  EXPECT_TRUE(throws_with<E>([&] { kspmv::cg(plan_t, b, x); }, "CG needs a plan in mode \"N\""));
}

}  // namespace
}  // namespace kspmv_test
