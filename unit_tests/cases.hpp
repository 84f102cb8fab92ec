#pragma once
// Test cases shared by every format: the golden matrices, the random shapes, the real matrices,
// and check_spmv, which converts a host matrix to a format on the device, runs spmv and compares
// with the host reference.
#include <kspmv/convert.hpp>
#include <kspmv/io.hpp>
#include <kspmv/spmv.hpp>

#include "backends.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace kspmv_test {

const double nan = std::numeric_limits<double>::quiet_NaN();

// The message of the std::invalid_argument that call() throws, or "no exception".
inline std::string invalid_argument_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return std::string("no exception");
}

// A*x with x = (1..5) is (12, 4, 7, 14, 12).
inline kspmv::HostCsr golden_5x5() {
  kspmv::HostCsr A;
  A.num_rows = A.num_cols = 5;
  A.row_offsets = {0, 3, 6, 8, 10, 12};
  A.col_indices = {0, 1, 4, 0, 1, 2, 2, 3, 1, 3, 0, 4};
  A.values = {4, -1, 2, -1, 4, -1, 5, -2, 1, 3, 7, 1};
  return A;
}


// 4 x 3 with an empty row; A*(1, -1, 2) = (5, 0, -3, 0).
inline kspmv::HostCsr four_rows_with_empty_row() {
  kspmv::HostCsr h;
  h.num_rows = 4;
  h.num_cols = 3;
  h.row_offsets = {0, 2, 2, 3, 6};
  h.col_indices = {0, 2, 1, 0, 1, 2};
  h.values = {1, 2, 3, -1, 1, 1};
  return h;
}

struct RandomCase {
  const char* what;
  RandomShape shape;
  double alpha, beta;
  bool nan_in_y;
};

inline const RandomCase random_cases[] = {
    {"square", {500, 500, 12, 0.1, 0}, 1.0, 1.0, false},
    {"beta 0 with NaN in y", {300, 300, 20, 0.2, 0}, -2.0, 0.0, true},
    {"alpha 0 scales y", {200, 200, 8, 0.1, 0}, 0.0, 3.0, false},
    {"alpha 0 beta 0 with NaN in y", {200, 200, 8, 0.1, 0}, 0.0, 0.0, true},
    {"many empty rows", {400, 400, 6, 0.7, 0}, 1.0, -1.0, false},
    {"one row holds half the entries", {1000, 800, 4, 0.1, 3000}, 0.5, 2.0, false},
    {"single huge row", {1, 20000, 0, 0.0, 20000}, 1.0, 0.0, true},
    {"tall", {900, 60, 10, 0.1, 0}, 1.0, 0.5, false},
    {"wide", {60, 900, 80, 0.1, 0}, 1.0, 0.5, false},
    {"long rows", {120, 3000, 400, 0.05, 0}, 1.0, 1.0, false},
    {"no rows", {0, 50, 5, 0.0, 0}, 1.0, 1.0, false},
    {"no columns", {70, 0, 5, 0.0, 0}, 1.0, 2.0, false},
    {"no columns, beta 0 with NaN", {70, 0, 5, 0.0, 0}, 1.0, 0.0, true},
    {"no entries", {80, 80, 0, 0.0, 0}, 2.0, -1.0, false},
};


// Runs check(A, x, y0, c) on every random case with a fresh matrix and vectors (seeded by
// test_seed(), reported on failure): x of A's columns and y0 of its rows, or the reverse for
// mode T (transposed), y0 all NaN where the case says so.
template <class Check>
void for_each_random_case(bool transposed, const Check& check) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const RandomCase& c : random_cases) {
    SCOPED_TRACE(c.what);
    const kspmv::HostCsr A = random_csr(c.shape, rng);
    const auto x = random_vector(transposed ? A.num_rows : A.num_cols, rng);
    auto y0 = random_vector(transposed ? A.num_cols : A.num_rows, rng);
    if (c.nan_in_y) std::fill(y0.begin(), y0.end(), std::numeric_limits<double>::quiet_NaN());
    check(A, x, y0, c);
  }
}

inline const std::vector<const char*> all_real_matrices = {
    "lap3D_7pt_n20.mtx", "west0479.mtx",     "bcsstk13.mtx",           "rajat01.mtx",        "arrow.mtx",
    "wiki-Vote.mtx",     "mbeacxc.mtx",      "Groebner_id2003_aug.mtx", "poly_chain.512.mtx", "ani4.mtx"};

inline std::string describe(const kspmv::SpmvOptions& o) {
  return std::string(kspmv::to_string(o.algorithm)) + " lanes=" + std::to_string(o.lanes_per_row) +
         " team=" + std::to_string(o.team_size) + " rows/thread=" + std::to_string(o.rows_per_thread);
}

template <template <class, class, class, class> class Format>
struct FormatName;

// Runs y = alpha*A*x + beta*y0 with A converted to Format on the device and compares with the
// host reference.
template <class ExecSpace, class Scalar, class Ordinal, class Offset,
          template <class, class, class, class> class Format = kspmv::CsrMatrix>
::testing::AssertionResult check_spmv(const kspmv::HostCsr& host, double alpha, const std::vector<double>& x,
                                      double beta, const std::vector<double>& y0, const kspmv::SpmvOptions& options,
                                      const kspmv::ConvertOptions& convert_options = kspmv::ConvertOptions()) {
  using Device = DeviceOf<ExecSpace>;
  const auto csr = kspmv::to_device<Scalar, Ordinal, Offset, Device>(host);
  const auto A = kspmv::convert<Format>(csr, convert_options);
  auto xd = to_device_vector<Scalar, Device>(x, "x");
  auto yd = to_device_vector<Scalar, Device>(y0, "y");
  kspmv::spmv(ExecSpace(), alpha, A, xd, beta, yd, options);
  ExecSpace().fence();
  const Reference ref = reference_spmv(alpha, host, x, beta, y0);
  return matches_reference(to_std_vector(yd), ref) << "\n  with " << describe(options) << ", alpha " << alpha
                                                   << ", beta " << beta << ", A " << host.num_rows << " x "
                                                   << host.num_cols << " nnz " << host.col_indices.size();
}

// A format that runs only its own kernel: a CSR algorithm, or an x of the wrong size, throws
// std::invalid_argument before any kernel runs (golden_5x5 converted to Format).
template <class ExecSpace, template <class, class, class, class> class Format>
void expect_csr_algorithm_and_wrong_x_refused() {
  using Device = DeviceOf<ExecSpace>;
  const auto A = kspmv::convert<Format>(kspmv::to_device<double, int, int, Device>(golden_5x5()));
  Kokkos::View<double*, Device> x("x", 5), y("y", 5);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x, 0.0, y, {kspmv::Algorithm::csr_vector}); },
                                                 "algorithm csr_vector does not apply to a "));
  Kokkos::View<double*, Device> x4("x", 4);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x4, 0.0, y); }, "x has 4 entries (needs 5)"));
}

// y = 2*A*x - y with each algorithm, four times: the host reference's result, and the same
// bits every run (the deterministic finish of rows spanning blocks).
template <class ExecSpace, class Matrix>
void expect_same_bits_every_run(const Matrix& A, const kspmv::HostCsr& h, std::mt19937_64& rng,
                                const std::vector<kspmv::Algorithm>& algorithms) {
  using Device = DeviceOf<ExecSpace>;
  const auto x_host = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  const auto x = to_device_vector<double, Device>(x_host, "x");
  for (const kspmv::Algorithm algorithm : algorithms) {
    SCOPED_TRACE(kspmv::to_string(algorithm));
    std::vector<double> first;
    for (int run = 0; run < 4; ++run) {
      auto y = to_device_vector<double, Device>(y0, "y");
      kspmv::spmv(2.0, A, x, -1.0, y, {algorithm});
      const auto result = to_std_vector(y);
      if (run == 0) {
        first = result;
        EXPECT_TRUE(matches_reference(result, reference_spmv(2.0, h, x_host, -1.0, y0)));
      } else {
        EXPECT_EQ(std::memcmp(first.data(), result.data(), first.size() * sizeof(double)), 0) << "run " << run;
      }
    }
  }
}

// check_spmv with a mode: "T" and "H" against the reference of A^T. Vector, the type of x and y:
// Scalar, or double with float values (mixed precision), checked against the reference of A's
// values as float holds them with double's bound, so a sum kept in float anywhere fails.
template <class ExecSpace, class Scalar, class Ordinal, class Offset, template <class, class, class, class> class Format,
          class Vector = Scalar>
::testing::AssertionResult check_spmv_mode(const kspmv::HostCsr& host, const char* mode, double alpha,
                                           const std::vector<double>& x, double beta, const std::vector<double>& y0,
                                           const kspmv::SpmvOptions& options = {}) {
  using Device = DeviceOf<ExecSpace>;
  const auto A = kspmv::convert<Format>(kspmv::to_device<Scalar, Ordinal, Offset, Device>(host));
  auto xd = to_device_vector<Vector, Device>(x, "x");
  auto yd = to_device_vector<Vector, Device>(y0, "y");
  kspmv::spmv(ExecSpace(), mode, alpha, A, xd, beta, yd, options);
  ExecSpace().fence();
  const bool t = mode[0] == 'T' || mode[0] == 't' || mode[0] == 'H' || mode[0] == 'h';
  kspmv::HostCsr held = host;
  for (double& v : held.values) v = double(Scalar(v));
  const Reference ref = reference_spmv(alpha, t ? transpose_host(held) : held, x, beta, y0);
  return matches_reference(to_std_vector(yd), ref) << "\n  mode " << mode << ", alpha " << alpha << ", beta " << beta
                                                   << ", A " << host.num_rows << " x " << host.num_cols;
}

// Converting to Format and back must give the original CSR arrays exactly.
template <class ExecSpace, template <class, class, class, class> class Format>
::testing::AssertionResult check_round_trip(const kspmv::HostCsr& host,
                                            const kspmv::ConvertOptions& options = kspmv::ConvertOptions()) {
  const auto csr = kspmv::to_device<double, int, int, DeviceOf<ExecSpace>>(host);
  const auto converted = kspmv::convert<Format>(csr, options);
  converted.validate();
  const kspmv::HostCsr back = kspmv::to_host(kspmv::to_csr(converted));
  if (back.num_rows != host.num_rows || back.num_cols != host.num_cols) return ::testing::AssertionFailure() << "shape";
  if (back.row_offsets != host.row_offsets) return ::testing::AssertionFailure() << "row offsets differ";
  if (back.col_indices != host.col_indices) return ::testing::AssertionFailure() << "column indices differ";
  if (back.values != host.values) return ::testing::AssertionFailure() << "values differ";
  return ::testing::AssertionSuccess();
}

// The suite every format passes: the golden matrices, every random case, and the real matrices
// named, for each of the given spmv options, in double (int indices) and float (int64_t indices,
// Offset64 offsets), and the round trip to CSR.
template <class ExecSpace, template <class, class, class, class> class Format, class Offset64 = size_t>
void run_format_suite(const std::vector<kspmv::SpmvOptions>& algorithms, const kspmv::ConvertOptions& convert_options,
                      const std::vector<const char*>& real_matrices, bool exact_round_trip = true) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (rerun with KSPMV_TEST_SEED=" + std::to_string(seed) + ")");
  std::mt19937_64 rng(seed);
  for (const auto& options : algorithms) {
    SCOPED_TRACE(describe(options));
    // Hand-computed: 2*A*x - (1,...,1) = (23, 7, 13, 27, 23); A*(1,-1,2) = (5, 0, -3, 0).
    EXPECT_TRUE((check_spmv<ExecSpace, double, int, int, Format>(golden_5x5(), 2.0, {1, 2, 3, 4, 5}, -1.0,
                                                                 {1, 1, 1, 1, 1}, options, convert_options)));
    EXPECT_TRUE((check_spmv<ExecSpace, float, int, int, Format>(four_rows_with_empty_row(), 1.0, {1, -1, 2}, 0.0,
                                                                {nan, nan, nan, nan}, options, convert_options)));
    for (const RandomCase& c : random_cases) {
      SCOPED_TRACE(c.what);
      const kspmv::HostCsr A = random_csr(c.shape, rng);
      const auto x = random_vector(A.num_cols, rng);
      auto y0 = random_vector(A.num_rows, rng);
      if (c.nan_in_y) std::fill(y0.begin(), y0.end(), nan);
      EXPECT_TRUE((check_spmv<ExecSpace, double, int, int, Format>(A, c.alpha, x, c.beta, y0, options, convert_options)));
      EXPECT_TRUE((check_spmv<ExecSpace, float, int64_t, Offset64, Format>(A, c.alpha, x, c.beta, y0, options,
                                                                            convert_options)));
      if (exact_round_trip) EXPECT_TRUE((check_round_trip<ExecSpace, Format>(A, convert_options)));
    }
  }
  for (const char* name : real_matrices) {
    SCOPED_TRACE(name);
    const kspmv::HostCsr A = kspmv::read_matrix_market(data_dir() + "/" + name);
    const auto x = random_vector(A.num_cols, rng);
    const auto y0 = random_vector(A.num_rows, rng);
    for (const auto& options : algorithms) {
      EXPECT_TRUE((check_spmv<ExecSpace, double, int, int, Format>(A, 1.5, x, -0.5, y0, options, convert_options)));
    }
    if (exact_round_trip) EXPECT_TRUE((check_round_trip<ExecSpace, Format>(A, convert_options)));
  }
}

// ---- Formats holding CSR's structure with their values compressed (UniformCsrMatrix,
// CodedCsrMatrix): each accepts only some values, so their suites take the values from `values`,
// a map of a random case's HostCsr to one the format holds.

// Every random case (empty rows, a single huge row, no rows, no columns, alpha 0, beta 0 with NaN in
// y, rectangular) with its values remapped, in double (int indices) and float (int64_t indices,
// size_t offsets), automatic (the raw kernel where compiled) and csr_scalar, and the round trip.
template <class ExecSpace, template <class, class, class, class> class Format, class Values>
void run_compressed_values_suite(const Values& values) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (rerun with KSPMV_TEST_SEED=" + std::to_string(seed) + ")");
  std::mt19937_64 rng(seed);
  for (const kspmv::SpmvOptions& options : {kspmv::SpmvOptions(), kspmv::SpmvOptions{kspmv::Algorithm::csr_scalar}}) {
    SCOPED_TRACE(describe(options));
    for (const RandomCase& c : random_cases) {
      SCOPED_TRACE(c.what);
      for (const kspmv::HostCsr& A : values(random_csr(c.shape, rng))) {
        const auto x = random_vector(A.num_cols, rng);
        auto y0 = random_vector(A.num_rows, rng);
        if (c.nan_in_y) std::fill(y0.begin(), y0.end(), nan);
        EXPECT_TRUE((check_spmv<ExecSpace, double, int, int, Format>(A, c.alpha, x, c.beta, y0, options)));
        EXPECT_TRUE((check_spmv<ExecSpace, float, int64_t, size_t, Format>(A, c.alpha, x, c.beta, y0, options)));
        EXPECT_TRUE((check_round_trip<ExecSpace, Format>(A)));
      }
    }
  }
}

// Each product is the entry's value times x as CSR's with that value stored, summed in the same
// order: on GPUs the format's automatic call (the raw balanced kernel) gives raw balanced CSR's
// bits on the same CSR; on hosts the thread-per-row kernels are compared (the balanced partition's
// Kokkos kernel sums in another order).
template <class ExecSpace, template <class, class, class, class> class Format>
void expect_same_bits_as_csr(const kspmv::HostCsr& h, std::mt19937_64& rng) {
  using Device = DeviceOf<ExecSpace>;
  const auto csr = kspmv::to_device<double, int, int, Device>(h);
  const auto converted = kspmv::convert<Format>(csr);
  const auto balanced = kspmv::convert<kspmv::BalancedCsrMatrix>(csr);
  const auto x = to_device_vector<double, Device>(random_vector(h.num_cols, rng), "x");
  const auto y0 = random_vector(h.num_rows, rng);
  auto y_format = to_device_vector<double, Device>(y0, "y_format");
  auto y_csr = to_device_vector<double, Device>(y0, "y_csr");
  if (kspmv::impl::raw_available<ExecSpace, double, int, int>()) {
    kspmv::spmv(1.25, converted, x, -0.5, y_format);
    kspmv::spmv(1.25, balanced, x, -0.5, y_csr, {kspmv::Algorithm::raw});
  } else {
    kspmv::spmv(1.25, converted, x, -0.5, y_format, {kspmv::Algorithm::csr_scalar});
    kspmv::spmv(1.25, csr, x, -0.5, y_csr, {kspmv::Algorithm::csr_scalar});
  }
  const auto a = to_std_vector(y_format), b = to_std_vector(y_csr);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
  EXPECT_TRUE(matches_reference(a, reference_spmv(1.25, h, to_std_vector(x), -0.5, y0)));
}

// Other algorithms, a wrong x, several vectors and mode T are clear errors naming the format
// (golden_5x5's structure with h's values); the raw kernel is one where none is compiled.
template <class ExecSpace, template <class, class, class, class> class Format>
void expect_compressed_values_refusals(const kspmv::HostCsr& h, const std::string& format_name) {
  using Device = DeviceOf<ExecSpace>;
  const auto A = kspmv::convert<Format>(kspmv::to_device<double, int, int, Device>(h));
  Kokkos::View<double*, Device> x("x", 5), y("y", 5), x4("x", 4);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x, 0.0, y, {kspmv::Algorithm::csr_vector}); },
                                                 "algorithm csr_vector does not apply to a "));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x4, 0.0, y); }, "x has 4 entries (needs 5)"));
  Kokkos::View<double**, Device> X("X", 5, 2), Y("Y", 5, 2);
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::spmv(1.0, A, X, 0.0, Y); }, "rank-2 x and y (several vectors) are not supported for " + format_name));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv("T", 1.0, A, x, 0.0, y); },
                                                 "mode T is not supported for " + format_name));
  if (kspmv::impl::raw_available<ExecSpace, double, int, int>()) {
    EXPECT_TRUE((check_spmv<ExecSpace, double, int, int, Format>(h, 2.0, {1, 2, 3, 4, 5}, -1.0, {1, 1, 1, 1, 1},
                                                                 {kspmv::Algorithm::raw})));
  } else {
    EXPECT_THROW(kspmv::spmv(1.0, A, x, 0.0, y, {kspmv::Algorithm::raw}), std::invalid_argument);
  }
}

}  // namespace kspmv_test
