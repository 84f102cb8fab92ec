// kspmv::spmv on CSR: golden matrices with hand-computed results, real matrices and fresh
// random ones against the host reference, the BLAS corner cases, and argument errors.
#include <kspmv/io.hpp>
#include <kspmv/spmv.hpp>

#include "backends.hpp"
#include "cases.hpp"
#include "reference.hpp"

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#ifdef KSPMV_HAVE_KOKKOSKERNELS
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#endif

namespace kspmv_test {
namespace {

// The message of the std::invalid_argument that call() throws, or "no exception".
std::string invalid_argument_message(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return std::string("no exception");
}

template <class ExecSpace>
class Spmv : public ::testing::Test {
 public:
  using Device = DeviceOf<ExecSpace>;
};
TYPED_TEST_SUITE(Spmv, Backends, BackendName);

// Every way of running CSR spmv on this backend: the automatic choice, both kernels with the
// heuristic's shape, and the vector kernel with every legal lane count forced.
template <class ExecSpace>
std::vector<kspmv::SpmvOptions> all_csr_options() {
  std::vector<kspmv::SpmvOptions> all;
  all.push_back({kspmv::Algorithm::automatic});
  all.push_back({kspmv::Algorithm::csr_scalar});
  all.push_back({kspmv::Algorithm::csr_vector});
  const int max_lanes = Kokkos::TeamPolicy<ExecSpace>::vector_length_max();
  for (int lanes = 1; lanes <= max_lanes && lanes <= 64; lanes *= 2) {
    kspmv::SpmvOptions o{kspmv::Algorithm::csr_vector};
    o.lanes_per_row = lanes;
    all.push_back(o);
  }
  kspmv::SpmvOptions several_rows{kspmv::Algorithm::csr_vector};
  several_rows.rows_per_thread = 3;  // rows_per_team not dividing num_rows exercises the tail
  several_rows.team_size = kspmv::impl::is_gpu_space<ExecSpace>() ? 2 : 1;
  all.push_back(several_rows);
  return all;
}

TYPED_TEST(Spmv, Golden5x5HandComputed) {
  using Device = typename TestFixture::Device;
  // A*x with x = (1..5) is (12, 4, 7, 14, 12); so 2*A*x - 1*(1,...,1) = (23, 7, 13, 27, 23).
  for (const auto& options : all_csr_options<TypeParam>()) {
    auto A = kspmv::to_device<double, int, int, Device>(golden_5x5());
    auto x = to_device_vector<double, Device>({1, 2, 3, 4, 5}, "x");
    auto y = to_device_vector<double, Device>({1, 1, 1, 1, 1}, "y");
    kspmv::spmv(2.0, A, x, -1.0, y, options);
    EXPECT_EQ(to_std_vector(y), (std::vector<double>{23, 7, 13, 27, 23})) << describe(options);
  }
}

TYPED_TEST(Spmv, FourRowsWithEmptyRowBetaZeroOverwritesNaN) {
  using Device = typename TestFixture::Device;
  const kspmv::HostCsr h = four_rows_with_empty_row();
  // x = (1, -1, 2): rows give 1 + 4, nothing, -3, -1 - 1 + 2.
  for (const auto& options : all_csr_options<TypeParam>()) {
    auto A = kspmv::to_device<float, int, int, Device>(h);
    auto x = to_device_vector<float, Device>({1, -1, 2}, "x");
    auto y = to_device_vector<float, Device>({nan, nan, nan, nan}, "y");
    kspmv::spmv(1.0f, A, x, 0.0f, y, options);
    EXPECT_EQ(to_std_vector(y), (std::vector<float>{5, 0, -3, 0})) << describe(options);
  }
}

// The shared suite (golden, every random case, the real matrices) with every CSR option.
TYPED_TEST(Spmv, FormatSuiteEveryCsrAlgorithm) {
  run_format_suite<TypeParam, kspmv::CsrMatrix>(all_csr_options<TypeParam>(), kspmv::ConvertOptions(),
                                                all_real_matrices);
}

TYPED_TEST(Spmv, OtherIndexTypes) {
  for_each_random_case(false, [](const kspmv::HostCsr& A, const auto& x, const auto& y0, const RandomCase& c) {
    EXPECT_TRUE((check_spmv<TypeParam, double, int64_t, int64_t>(A, c.alpha, x, c.beta, y0, {})));
    EXPECT_TRUE((check_spmv<TypeParam, double, int, size_t>(A, c.alpha, x, c.beta, y0, {kspmv::Algorithm::csr_scalar})));
    EXPECT_TRUE((check_spmv<TypeParam, float, int, unsigned>(A, c.alpha, x, c.beta, y0, {kspmv::Algorithm::csr_vector})));
  });
}

TYPED_TEST(Spmv, AlphaZeroReadsNeitherANorX) {
  using Device = typename TestFixture::Device;
  // NaN in x and in A's values: with alpha == 0 neither may reach y.
  kspmv::HostCsr h = golden_5x5();
  std::fill(h.values.begin(), h.values.end(), nan);
  auto A = kspmv::to_device<double, int, int, Device>(h);
  auto x = to_device_vector<double, Device>({nan, nan, nan, nan, nan}, "x");
  auto y = to_device_vector<double, Device>({1, 2, 3, 4, 5}, "y");
  kspmv::spmv(0.0, A, x, 2.0, y);
  EXPECT_EQ(to_std_vector(y), (std::vector<double>{2, 4, 6, 8, 10}));
}

// Modes, hand-computed: "N" and "C" give A*x, "T" and "H" A^T*x, in either case.
TYPED_TEST(Spmv, ModesHandComputed) {
  using Device = typename TestFixture::Device;
  const auto A = kspmv::to_device<double, int, int, Device>(golden_5x5());
  // Columns of golden_5x5: 0: (4, -1, 0, 0, 7), 1: (-1, 4, 0, 1, 0), 2: (0, -1, 5, 0, 0),
  // 3: (0, 0, -2, 3, 0), 4: (2, 0, 0, 0, 1); A^T*(1..5) = (37, 11, 13, 6, 7).
  for (const char* mode : {"T", "t", "H", "h"}) {
    SCOPED_TRACE(mode);
    auto x = to_device_vector<double, Device>({1, 2, 3, 4, 5}, "x");
    auto y = to_device_vector<double, Device>({1, 1, 1, 1, 1}, "y");
    kspmv::spmv(mode, 2.0, A, x, -1.0, y);
    EXPECT_EQ(to_std_vector(y), (std::vector<double>{73, 21, 25, 11, 13}));
  }
  for (const char* mode : {"N", "n", "C", "c"}) {
    SCOPED_TRACE(mode);
    auto x = to_device_vector<double, Device>({1, 2, 3, 4, 5}, "x");
    auto y = to_device_vector<double, Device>({1, 1, 1, 1, 1}, "y");
    kspmv::spmv(TypeParam(), mode, 2.0, A, x, -1.0, y);
    EXPECT_EQ(to_std_vector(y), (std::vector<double>{23, 7, 13, 27, 23}));
  }
}

// Mode T on every random case (empty rows, a huge row, no rows or columns, alpha 0, beta 0 with
// NaN in y, tall and wide shapes) and a real matrix, for each format that takes it.
TYPED_TEST(Spmv, ModeTransposeEveryCaseAndFormat) {
  for_each_random_case(true, [](const kspmv::HostCsr& A, const auto& x, const auto& y0, const RandomCase& c) {
    // Automatic, and each of the three CSR kernels forced: rows, lanes per row, split entries.
    for (const kspmv::Algorithm a : {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar,
                                     kspmv::Algorithm::csr_vector, kspmv::Algorithm::csr_balanced,
                                     kspmv::Algorithm::csr_transposed}) {
      SCOPED_TRACE(kspmv::to_string(a));
      EXPECT_TRUE((check_spmv_mode<TypeParam, double, int, int, kspmv::CsrMatrix>(A, "T", c.alpha, x, c.beta, y0, {a})));
    }
    EXPECT_TRUE((check_spmv_mode<TypeParam, float, int64_t, size_t, kspmv::BalancedCsrMatrix>(
        A, "T", c.alpha, x, c.beta, y0, {kspmv::Algorithm::csr_transposed})));
    EXPECT_TRUE((check_spmv_mode<TypeParam, float, int64_t, size_t, kspmv::CsrMatrix>(A, "H", c.alpha, x, c.beta, y0,
                                                                                   {kspmv::Algorithm::csr_balanced})));
    EXPECT_TRUE((check_spmv_mode<TypeParam, double, int, int, kspmv::BalancedCsrMatrix>(A, "T", c.alpha, x, c.beta, y0)));
    EXPECT_TRUE((check_spmv_mode<TypeParam, double, int, int, kspmv::CooMatrix>(A, "T", c.alpha, x, c.beta, y0)));
    EXPECT_TRUE((check_spmv_mode<TypeParam, double, int64_t, int64_t, kspmv::CooMatrix>(A, "t", c.alpha, x, c.beta, y0,
                                                                                      {kspmv::Algorithm::coo_atomic})));
  });
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr arrow = kspmv::read_matrix_market(data_dir() + "/arrow.mtx");  // a full row and column
  const auto x = random_vector(arrow.num_rows, rng);
  const auto y0 = random_vector(arrow.num_cols, rng);
  EXPECT_TRUE((check_spmv_mode<TypeParam, double, int, int, kspmv::CsrMatrix>(arrow, "T", 1.5, x, -0.5, y0)));
  EXPECT_TRUE((check_spmv_mode<TypeParam, double, int, int, kspmv::CsrMatrix>(arrow, "T", 1.5, x, -0.5, y0,
                                                                              {kspmv::Algorithm::csr_balanced})));
  EXPECT_TRUE((check_spmv_mode<TypeParam, double, int, int, kspmv::BalancedCsrMatrix>(arrow, "T", 1.5, x, -0.5, y0,
                                                                                      {kspmv::Algorithm::csr_vector})));
}

// Algorithm::csr_transposed: the same bits every run (the atomic kernels' order varies on
// parallel backends), A's entries by column in order of increasing row, and new values seen
// (the transposed structure keeps positions, not values); refused in mode N.
TYPED_TEST(Spmv, ModeTransposeDeterministic) {
  using Device = typename TestFixture::Device;
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = random_csr({2000, 1500, 30, 0.1, 5000}, rng);  // one row of 5000 entries
  const auto A = kspmv::to_device<double, int, int, Device>(h);
  const auto x_host = random_vector(size_t(h.num_rows), rng), y0 = random_vector(size_t(h.num_cols), rng);
  const auto x = to_device_vector<double, Device>(x_host, "x");
  const kspmv::SpmvOptions transposed{kspmv::Algorithm::csr_transposed};
  std::vector<double> first;
  for (int run = 0; run < 4; ++run) {
    auto y = to_device_vector<double, Device>(y0, "y");
    kspmv::spmv(TypeParam(), "T", 2.0, A, x, -1.0, y, transposed);
    const auto result = to_std_vector(y);
    if (run == 0) {
      first = result;
      EXPECT_TRUE(matches_reference(result, reference_spmv(2.0, transpose_host(h), x_host, -1.0, y0)));
    } else {
      EXPECT_EQ(std::memcmp(first.data(), result.data(), first.size() * sizeof(double)), 0) << "run " << run;
    }
  }
  // The structure: column j's entries by increasing row, pointing at A's entries in column j.
  const auto S = kspmv::impl::csr_transpose_structure(TypeParam(), A);
  const kspmv::HostCsr t = transpose_host(h);
  auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), S->offsets);
  auto entries = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), S->entries);
  auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), S->rows);
  for (int64_t j = 0; j <= h.num_cols; ++j) ASSERT_EQ(int64_t(offsets(j)), t.row_offsets[size_t(j)]) << j;
  for (size_t p = 0; p < t.col_indices.size(); ++p) {
    ASSERT_EQ(int64_t(rows(p)), t.col_indices[p]) << p;
    ASSERT_EQ(h.values[size_t(entries(p))], t.values[p]) << p;
  }
  // New values in the same Views: the next call uses them.
  kspmv::HostCsr doubled = h;
  for (double& v : doubled.values) v *= 2;
  Kokkos::deep_copy(A.values, kspmv::to_device<double, int, int, Device>(doubled).values);
  auto y = to_device_vector<double, Device>(y0, "y");
  kspmv::spmv(TypeParam(), "T", 2.0, A, x, -1.0, y, transposed);
  EXPECT_TRUE(matches_reference(to_std_vector(y), reference_spmv(2.0, transpose_host(doubled), x_host, -1.0, y0)));
  Kokkos::View<double*, Device> xn("x", h.num_cols), yn("y", h.num_rows);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(TypeParam(), "N", 1.0, A, xn, 0.0, yn, transposed); })
                .find("csr_transposed does not apply"),
            std::string::npos);
}

// The choice of mode T's kernel: hosts walk rows; GPUs give rows lanes unless the longest row
// at that width takes more steps than an average resident thread's share of the entries.
// Both split-entries kernels of mode T (rows staged per block, or searched per entry), which
// the automatic call times against each other on GPUs: on every random case against A^T*x,
// with the automatic partition's blocks and with blocks too large to stage.
TYPED_TEST(Spmv, ModeTransposeSplitEntriesStagedAndSearched) {
  using Device = typename TestFixture::Device;
  for_each_random_case(true, [](const kspmv::HostCsr& h, const auto& x, const auto&, const RandomCase& c) {
    const auto A = kspmv::to_device<double, int, int, Device>(h);
    const auto B = kspmv::impl::balanced_from_csr(TypeParam(), A);
    const auto xd = to_device_vector<double, Device>(x, "x");
    const Reference ref = reference_spmv(c.alpha, transpose_host(h), x, 0.0, std::vector<double>(h.num_cols, 0.0));
    // Blocks of 2^17 entries, whose rows (1 MB) exceed a GPU's team scratch: searched there.
    const kspmv::BalancedCsrMatrix<double, int, int, Device> big(A, int64_t(1) << 17, 1);
    kspmv::impl::write_balanced_partition(TypeParam(), A, big.entries_per_block(), big.num_blocks(),
                                          big.block_first_row, big.arrivals);
    for (const bool staged : {true, false}) {
      for (const auto* partition : {&B, &big}) {
        SCOPED_TRACE(std::string(staged ? "staged" : "searched") + (partition == &big ? ", big blocks" : ""));
        const Kokkos::View<double*, Device> y("y", h.num_cols);
        kspmv::impl::spmv_csr_transpose_entries(TypeParam(), c.alpha, *partition, xd, y, staged);
        const std::vector<double> got = to_std_vector(y);
        for (int64_t j = 0; j < h.num_cols; ++j) {
          ASSERT_NEAR(got[j], ref.y[j], 1e-13 * ref.magnitude[j]) << "column " << j;
        }
      }
    }
  });
}

TYPED_TEST(Spmv, ModeTransposeKernelChoice) {
  const bool gpu = kspmv::impl::is_gpu_space<TypeParam>();
  const auto candidates = [](int64_t rows, int64_t nnz, int64_t longest, int64_t threads, double shifted) {
    const int lanes = kspmv::impl::transpose_lanes<TypeParam>(rows, nnz, shifted);
    const auto c = kspmv::impl::transpose_candidates<TypeParam>(nnz, longest, lanes, threads);
    EXPECT_EQ(c.rows, !kspmv::impl::is_gpu_space<TypeParam>());
    EXPECT_EQ(c.entries, kspmv::impl::is_gpu_space<TypeParam>());
    return c.count();
  };
  // Hosts: a thread per row, nothing timed. GPUs: 10 million rows of 27 entries on 270,000
  // threads, 1000 entries a thread, the longest row a few steps at 16 lanes or, rows shifted like
  // a stencil's, at 2: lanes and both split-entries kernels, timed.
  EXPECT_EQ(candidates(10000000, 270000000, 27, 270000, 0.5), gpu ? 3 : 1);
  EXPECT_EQ(candidates(10000000, 270000000, 27, 270000, 0.95), gpu ? 3 : 1);
  // One row of 200,000 entries among rows of 3: at most 32 lanes take 6,250 steps, 10x a
  // thread's share: the split entries alone.
  EXPECT_EQ(candidates(600000, 2000000, 200000, 270000, 0.0), gpu ? 2 : 1);
  // Rows of 35 entries on average, the longest 829: 26 steps of 32 lanes, under a thread's share.
  EXPECT_EQ(candidates(2500000, 87000000, 829, 270000, 0.0), gpu ? 3 : 1);
  // Rows shifted like a stencil's take 2 lanes where their average gives 8 or more; others, and
  // shorter rows, the average row's (16 for 27 entries, 4 for 7).
  if (gpu) {
    EXPECT_EQ(kspmv::impl::transpose_lanes<TypeParam>(1000, 27000, 0.95), 2);
    EXPECT_EQ(kspmv::impl::transpose_lanes<TypeParam>(1000, 11000, 0.95), 2);
    EXPECT_EQ(kspmv::impl::transpose_lanes<TypeParam>(1000, 27000, 0.5), 16);
    EXPECT_EQ(kspmv::impl::transpose_lanes<TypeParam>(1000, 7000, 0.95), 4);
    EXPECT_EQ(kspmv::impl::transpose_lanes<TypeParam>(1000, 1000, 0.95), 1);
  }
}

TYPED_TEST(Spmv, ModeErrors) {
  using Device = typename TestFixture::Device;
  std::mt19937_64 rng(test_seed());
  const auto A = kspmv::to_device<double, int, int, Device>(random_csr(RandomShape{4, 6, 3, 0.0, 0}, rng));
  auto x4 = to_device_vector<double, Device>(std::vector<double>(4, 1.0), "x");
  auto x6 = to_device_vector<double, Device>(std::vector<double>(6, 1.0), "x");
  auto y4 = to_device_vector<double, Device>(std::vector<double>(4, 7.0), "y");
  auto y6 = to_device_vector<double, Device>(std::vector<double>(6, 7.0), "y");
  // A is 4 x 6: mode T takes x of 4 and y of 6; the sizes of mode N are refused, and the reverse.
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv("T", 1.0, A, x6, 0.0, y4); })
                .find("dimension mismatch in mode T: A is 4 x 6, x has 6 entries (needs 4), y has 4 entries (needs 6)"),
            std::string::npos);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv("N", 1.0, A, x4, 0.0, y6); },
                                                 "dimension mismatch: A is 4 x 6, x has 4 entries (needs 6)"));
  EXPECT_NO_THROW(kspmv::spmv("T", 1.0, A, x4, 0.0, y6));
  for (const char* bad : {"X", "", "NT", "TN"}) {
    EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(bad, 1.0, A, x4, 0.0, y6); }).find("is not one of \"N\", \"T\", \"C\", \"H\""),
              std::string::npos)
        << bad;
  }
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::spmv(static_cast<const char*>(nullptr), 1.0, A, x4, 0.0, y6); }, "mode \"(null)\" is not one of"));
  // Formats without a transposed kernel say so; so do algorithms and tunables that do not apply.
  const auto dia = kspmv::convert<kspmv::DiaMatrix>(kspmv::to_device<double, int, int, Device>(golden_5x5()));
  auto x5 = to_device_vector<double, Device>(std::vector<double>(5, 1.0), "x");
  auto y5 = to_device_vector<double, Device>(std::vector<double>(5, 1.0), "y");
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv("T", 1.0, dia, x5, 0.0, y5); }).find("mode T is not supported for DiaMatrix"),
            std::string::npos);
  const auto ell = kspmv::convert<kspmv::EllMatrix>(kspmv::to_device<double, int, int, Device>(golden_5x5()));
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv("H", 1.0, ell, x5, 0.0, y5); }).find("mode T is not supported for EllMatrix"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv("T", 1.0, A, x4, 0.0, y6, {kspmv::Algorithm::coo_atomic}); })
                .find("algorithm coo_atomic does not apply to mode T on a CSR matrix"),
            std::string::npos);
  const auto coo = kspmv::convert<kspmv::CooMatrix>(A);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv("T", 1.0, coo, x4, 0.0, y6, {kspmv::Algorithm::coo_deterministic}); })
                .find("algorithm coo_deterministic does not apply to mode T on a COO matrix"),
            std::string::npos);
  kspmv::SpmvOptions tuned;
  tuned.team_size = 4;
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv("T", 1.0, A, x4, 0.0, y6, tuned); }).find("do not apply to mode T"),
            std::string::npos);
}

TYPED_TEST(Spmv, DimensionMismatchThrowsBeforeAnyKernel) {
  using Device = typename TestFixture::Device;
  auto A = kspmv::to_device<double, int, int, Device>(golden_5x5());
  auto x4 = to_device_vector<double, Device>({1, 2, 3, 4}, "x");
  auto x5 = to_device_vector<double, Device>({1, 2, 3, 4, 5}, "x");
  auto y5 = to_device_vector<double, Device>({7, 7, 7, 7, 7}, "y");
  auto y6 = to_device_vector<double, Device>({7, 7, 7, 7, 7, 7}, "y");
  try {
    kspmv::spmv(1.0, A, x4, 0.0, y5);
    FAIL() << "no exception for a short x";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("A is 5 x 5, x has 4 entries (needs 5)"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x5, 0.0, y6); }, "y has 6 entries (needs 5)"));
  // Checked even when A is not read.
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(0.0, A, x4, 0.0, y5); }, "x has 4 entries (needs 5)"));
  EXPECT_EQ(to_std_vector(y5), (std::vector<double>(5, 7.0)));
}

TYPED_TEST(Spmv, InvalidOptionsThrow) {
  using Device = typename TestFixture::Device;
  auto A = kspmv::to_device<double, int, int, Device>(golden_5x5());
  auto x = to_device_vector<double, Device>({1, 2, 3, 4, 5}, "x");
  auto y = to_device_vector<double, Device>({1, 1, 1, 1, 1}, "y");
  kspmv::SpmvOptions o{kspmv::Algorithm::csr_vector};
  o.lanes_per_row = 3;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x, 0.0, y, o); },
                                                 "lanes_per_row = 3 must be a power of two"));
  o.lanes_per_row = 2 * Kokkos::TeamPolicy<TypeParam>::vector_length_max();
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x, 0.0, y, o); },
                                                 "lanes_per_row = " + std::to_string(o.lanes_per_row) +
                                                     " must be a power of two <= "));
  o.lanes_per_row = 1;
  o.team_size = 100000;
  try {
    kspmv::spmv(1.0, A, x, 0.0, y, o);
    ADD_FAILURE() << "team_size 100000 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("team_size 100000 exceeds"), std::string::npos) << e.what();
  }
  o.team_size = -1;
  o.rows_per_thread = -2;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x, 0.0, y, o); },
                                                 "negative tunable in SpmvOptions (team_size -1, lanes_per_row 1, "
                                                 "rows_per_thread -2)"));
}

// Several vectors: Y = alpha*op(A)*X + beta*Y0 with rank-2 X and Y of k columns in Layout, A
// converted to Format, each column against the host reference of that column.
template <class ExecSpace, class Scalar, class Ordinal, class Offset, template <class, class, class, class> class Format,
          class Layout>
::testing::AssertionResult check_multivector(const kspmv::HostCsr& host, const char* mode, double alpha, int64_t k,
                                             double beta, bool nan_in_y, std::mt19937_64& rng,
                                             const kspmv::SpmvOptions& options = {}) {
  using Device = DeviceOf<ExecSpace>;
  const bool t = mode[0] == 'T' || mode[0] == 't' || mode[0] == 'H' || mode[0] == 'h';
  const int64_t nx = t ? host.num_rows : host.num_cols, ny = t ? host.num_cols : host.num_rows;
  std::vector<std::vector<double>> x(static_cast<size_t>(k)), y0(static_cast<size_t>(k));
  Kokkos::View<Scalar**, Layout, Device> xd("X", nx, k), yd("Y", ny, k);
  auto xh = Kokkos::create_mirror_view(xd);
  auto yh = Kokkos::create_mirror_view(yd);
  for (int64_t j = 0; j < k; ++j) {
    x[j] = random_vector(size_t(nx), rng);
    y0[j] = random_vector(size_t(ny), rng);
    if (nan_in_y) std::fill(y0[j].begin(), y0[j].end(), nan);
    for (int64_t i = 0; i < nx; ++i) xh(i, j) = Scalar(x[j][i]);
    for (int64_t i = 0; i < ny; ++i) yh(i, j) = Scalar(y0[j][i]);
  }
  Kokkos::deep_copy(xd, xh);
  Kokkos::deep_copy(yd, yh);
  const auto A = kspmv::convert<Format>(kspmv::to_device<Scalar, Ordinal, Offset, Device>(host));
  kspmv::spmv(ExecSpace(), mode, alpha, A, xd, beta, yd, options);
  Kokkos::deep_copy(yh, yd);
  const kspmv::HostCsr op_a = t ? transpose_host(host) : host;
  for (int64_t j = 0; j < k; ++j) {
    std::vector<Scalar> column(static_cast<size_t>(ny));
    for (int64_t i = 0; i < ny; ++i) column[i] = yh(i, j);
    auto result = matches_reference(column, reference_spmv(alpha, op_a, x[j], beta, y0[j]));
    if (!result) {
      return result << "\n  vector " << j << " of " << k << ", mode " << mode << ", " << describe(options) << ", alpha "
                    << alpha << ", beta " << beta << ", A " << host.num_rows << " x " << host.num_cols;
    }
  }
  return ::testing::AssertionSuccess();
}

// Golden 5x5 with two vectors, x and 2x, in both layouts: 2*A*X - 1 by hand.
TYPED_TEST(Spmv, MultivectorHandComputed) {
  using Device = typename TestFixture::Device;
  const auto A = kspmv::to_device<double, int, int, Device>(golden_5x5());
  const auto run = [&](auto x, auto y) {
    auto xh = Kokkos::create_mirror_view(x);
    auto yh = Kokkos::create_mirror_view(y);
    for (int i = 0; i < 5; ++i) {
      xh(i, 0) = i + 1;
      xh(i, 1) = 2 * (i + 1);
      yh(i, 0) = yh(i, 1) = 1;
    }
    Kokkos::deep_copy(x, xh);
    Kokkos::deep_copy(y, yh);
    kspmv::spmv(2.0, A, x, -1.0, y);
    Kokkos::deep_copy(yh, y);
    std::vector<double> first, second;
    for (int i = 0; i < 5; ++i) {
      first.push_back(yh(i, 0));
      second.push_back(yh(i, 1));
    }
    EXPECT_EQ(first, (std::vector<double>{23, 7, 13, 27, 23}));
    EXPECT_EQ(second, (std::vector<double>{47, 15, 27, 55, 47}));
  };
  run(Kokkos::View<double**, Kokkos::LayoutLeft, Device>("X", 5, 2), Kokkos::View<double**, Kokkos::LayoutLeft, Device>("Y", 5, 2));
  run(Kokkos::View<double**, Kokkos::LayoutRight, Device>("X", 5, 2), Kokkos::View<double**, Kokkos::LayoutRight, Device>("Y", 5, 2));
}

// Every random case (empty rows, a huge row, no rows or columns, alpha 0, beta 0 with NaN in Y,
// tall and wide shapes) with 1 to 17 vectors in both layouts, modes N and T, every algorithm
// that takes several vectors (on GPUs the raw lanes per row and the balanced kernel; the
// automatic call in LayoutRight from 5 vectors on the row lanes or chunks), on CSR and
// load-balanced CSR, in double and float.
TYPED_TEST(Spmv, MultivectorEveryCase) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<kspmv::SpmvOptions> mode_n = {{kspmv::Algorithm::automatic}, {kspmv::Algorithm::csr_scalar}};
  if (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    kspmv::SpmvOptions lanes{kspmv::Algorithm::raw};
    lanes.lanes_per_row = 4;
    mode_n.push_back(lanes);
    mode_n.push_back({kspmv::Algorithm::csr_balanced});  // the balanced partition, a vector a pass
  }
  using Left = Kokkos::LayoutLeft;
  using Right = Kokkos::LayoutRight;
  for (const RandomCase& c : random_cases) {
    SCOPED_TRACE(c.what);
    const kspmv::HostCsr A = random_csr(c.shape, rng);
    for (const int64_t k : {1, 2, 3, 5, 8, 9, 17}) {
      SCOPED_TRACE("k = " + std::to_string(k));
      for (const auto& o : mode_n) {
        EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Left>(A, "N", c.alpha, k, c.beta,
                                                                                           c.nan_in_y, rng, o)));
        EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Right>(A, "N", c.alpha, k, c.beta,
                                                                                            c.nan_in_y, rng, o)));
      }
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Left>(A, "T", c.alpha, k, c.beta,
                                                                                         c.nan_in_y, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Right>(A, "H", c.alpha, k, c.beta,
                                                                                          c.nan_in_y, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, float, int64_t, size_t, kspmv::CsrMatrix, Right>(
          A, "N", c.alpha, k, c.beta, c.nan_in_y, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::BalancedCsrMatrix, Left>(
          A, "N", c.alpha, k, c.beta, c.nan_in_y, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::BalancedCsrMatrix, Right>(
          A, "T", c.alpha, k, c.beta, c.nan_in_y, rng)));
    }
  }
}

// Strided X and Y: columns 1..3 of wider LayoutRight Views, and the first 200 rows of a
// LayoutLeft View of 400 (a leading dimension larger than the rows): any strides.
TYPED_TEST(Spmv, MultivectorStridedViews) {
  using Device = typename TestFixture::Device;
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = random_csr({300, 200, 12, 0.1, 500}, rng);
  const auto A = kspmv::to_device<double, int, int, Device>(h);
  Kokkos::View<double**, Kokkos::LayoutRight, Device> wide_x("X", 200, 5), wide_y("Y", 300, 6);
  Kokkos::View<double**, Kokkos::LayoutLeft, Device> tall_x("X", 400, 3);
  std::vector<std::vector<double>> x(3), y0(3);
  auto xh = Kokkos::create_mirror(wide_x);  // create_mirror: host copies, never the device View itself
  auto th = Kokkos::create_mirror(tall_x);
  auto yh = Kokkos::create_mirror(wide_y);
  for (int j = 0; j < 3; ++j) {
    x[j] = random_vector(200, rng);
    y0[j] = random_vector(300, rng);
    for (int i = 0; i < 200; ++i) xh(i, j + 1) = th(i, j) = x[j][i];
    for (int i = 0; i < 300; ++i) yh(i, j + 2) = y0[j][i];
  }
  Kokkos::deep_copy(wide_x, xh);
  Kokkos::deep_copy(tall_x, th);
  const auto ys = Kokkos::subview(wide_y, Kokkos::ALL(), Kokkos::make_pair(2, 5));
  const auto x_columns = Kokkos::subview(wide_x, Kokkos::ALL(), Kokkos::make_pair(1, 4));
  const auto x_rows = Kokkos::subview(tall_x, Kokkos::make_pair(0, 200), Kokkos::ALL());
  std::vector<kspmv::Algorithm> algorithms = {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar};
  if (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    algorithms.push_back(kspmv::Algorithm::csr_balanced);  // the balanced kernel on strided X and Y
  }
  for (const auto algorithm : algorithms) {
    for (const bool rows : {false, true}) {
      SCOPED_TRACE(std::string(kspmv::to_string(algorithm)) + (rows ? ", X of 200 of 400 rows" : ", X of 3 of 5 columns"));
      Kokkos::deep_copy(wide_y, yh);
      if (rows) {
        kspmv::spmv(1.5, A, x_rows, -0.5, ys, {algorithm});
      } else {
        kspmv::spmv(1.5, A, x_columns, -0.5, ys, {algorithm});
      }
      auto result = Kokkos::create_mirror(wide_y);
      Kokkos::deep_copy(result, wide_y);
      for (int j = 0; j < 3; ++j) {
        std::vector<double> column(300);
        for (int i = 0; i < 300; ++i) column[i] = result(i, j + 2);
        EXPECT_TRUE(matches_reference(column, reference_spmv(1.5, h, x[j], -0.5, y0[j])));
      }
      for (int i = 0; i < 300; ++i) {  // outside the subview: untouched
        EXPECT_EQ(result(i, 0), 0.0);
        EXPECT_EQ(result(i, 1), 0.0);
        EXPECT_EQ(result(i, 5), 0.0);
      }
    }
  }
  // alpha = 0: Y = beta*Y alone (scale_y), on the strided columns only; the contiguous Views of
  // both layouts take the flat path, covered by MultivectorEveryCase.
  Kokkos::deep_copy(wide_y, yh);
  kspmv::spmv(0.0, A, x_columns, -0.5, ys);
  auto scaled = Kokkos::create_mirror(wide_y);
  Kokkos::deep_copy(scaled, wide_y);
  for (int i = 0; i < 300; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(scaled(i, j + 2), -0.5 * y0[j][i]);
    EXPECT_EQ(scaled(i, 0), 0.0);
    EXPECT_EQ(scaled(i, 1), 0.0);
    EXPECT_EQ(scaled(i, 5), 0.0);
  }
}

// Column-major X on a matrix beyond the GPU's cache with random columns: the raw kernels read a
// row-major copy of X (launch.hpp: stage_x_row_major), both the lanes kernel (rows of even
// length, whose gathers miss the cache: 2 entries a lane; at 8 vectors the row lanes) and the
// split entries (a row of a million entries: launch.hpp, multivector_kernel). The copy goes into memory kept with A's analysis: 3 vectors,
// then 8 (grown), then 3 again (reused).
// GPUs with the raw kernels only: elsewhere nothing is copied.
TYPED_TEST(Spmv, MultivectorRowMajorCopyOfScatteredX) {
  if constexpr (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    GTEST_SKIP() << "no raw kernels on this backend: X is read as given";
  } else {
    using Device = typename TestFixture::Device;
    std::mt19937_64 rng(test_seed());
    const int64_t n = 4000000;  // 8 entries a row: 384 MB of CSR, beyond any GPU's L2
    for (const int64_t long_row : {int64_t(0), int64_t(1000000)}) {
      SCOPED_TRACE(long_row ? "a row of a million entries" : "rows of 0 to 16 entries");
      const kspmv::HostCsr h = random_csr({n, n, 16, 0.0, long_row}, rng);
      const auto A = kspmv::to_device<double, int, int, Device>(h);
      for (const int64_t k : {int64_t(3), int64_t(8), int64_t(3)}) {  // the copy's memory kept, grown, reused
      SCOPED_TRACE(std::to_string(k) + " vectors");
      Kokkos::View<double**, Kokkos::LayoutLeft, Device> X("X", n, k), Y("Y", n, k);
      std::vector<std::vector<double>> x(k), y0(k);
      auto xh = Kokkos::create_mirror(X);
      auto yh = Kokkos::create_mirror(Y);
      for (int64_t j = 0; j < k; ++j) {
        x[j] = random_vector(n, rng);
        y0[j] = random_vector(n, rng);
        for (int64_t i = 0; i < n; ++i) {
          xh(i, j) = x[j][i];
          yh(i, j) = y0[j][i];
        }
      }
      Kokkos::deep_copy(X, xh);
      Kokkos::deep_copy(Y, yh);
      kspmv::spmv(TypeParam(), 1.5, A, X, -0.5, Y);
      const auto& structure = kspmv::impl::csr_analysis(TypeParam(), A)->structure;
      EXPECT_TRUE(kspmv::impl::stage_x_row_major(int64_t(X.stride(0)), k, structure.window_lines_per_entry))
          << "lines an entry " << structure.window_lines_per_entry;
      // Random columns over all n: a window's gathers reach about 76% of x (the 4th and 29th of
      // 32 samples), for 3 vectors more than an L2 of 60 MB (H100: 50, H200: 60) holds.
      const double least_reach = 0.7 * double(n) * sizeof(double), cache = double(kspmv::impl::raw::l2_cache_bytes());
      EXPECT_GT(structure.window_reach_bytes, least_reach);
      EXPECT_LT(structure.window_reach_bytes, 0.9 * double(n) * sizeof(double));
      const bool miss = kspmv::impl::gathers_miss_cache(structure.window_lines_per_entry,
                                                        structure.window_reach_bytes, k, cache);
      if (cache > 0 && least_reach * double(k) > cache) EXPECT_TRUE(miss);
      EXPECT_GE(kspmv::impl::csr_analysis(TypeParam(), A)->bytes(), size_t(n * k) * sizeof(double));
      // A window's gathers over 70% of x: not within an eighth of the L2 (multivector_kernel).
      EXPECT_FALSE(kspmv::impl::scattered_gathers_stay_in_cache(structure.window_lines_per_entry,
                                                                structure.window_reach_bytes, k, cache));
      const auto kernel = kspmv::impl::multivector_kernel(n, int64_t(A.nnz()), structure.longest_row,
                                                          kspmv::impl::warp_width<TypeParam>(),
                                                          int64_t(TypeParam().concurrency()),
                                                          structure.window_lines_per_entry, false);
      using kspmv::impl::MultivectorKernel;
      EXPECT_EQ(kernel, long_row ? MultivectorKernel::entries : MultivectorKernel::lanes);
      EXPECT_EQ(kspmv::impl::row_major_multivector_kernel(kernel, k, structure.row_length_variation(), false),
                long_row ? MultivectorKernel::entries
                         : (k >= 5 ? MultivectorKernel::row_lanes : MultivectorKernel::lanes));
      Kokkos::deep_copy(yh, Y);
      for (int64_t j = 0; j < k; ++j) {
        std::vector<double> column(n);
        for (int64_t i = 0; i < n; ++i) column[i] = yh(i, j);
        EXPECT_TRUE(matches_reference(column, reference_spmv(1.5, h, x[j], -0.5, y0[j])));
      }
      }
    }
  }
}

// The kernels with lanes over the vectors of a row-major X (src/raw/csr_multivector_row_lanes.hpp,
// csr_multivector_chunks.hpp), called directly on every random case and on rows ending exactly
// where a chunk of 32 entries does, followed by empty rows (the chunks' scale kernel writes those)
// and ending at nnz: 5 to 17 vectors, X's rows aligned for two vectors a lane (k even) or not (k
// odd, or X the columns 1..k of a View of k + 1), A's entries aligned for the chunks' 16-byte
// loads or not, Y LayoutRight and LayoutLeft. The plain call
// takes them on the raw backends from 5 vectors on (launch.hpp: row_major_multivector_kernel).
TYPED_TEST(Spmv, MultivectorRowLanesAndChunks) {
  if constexpr (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    GTEST_SKIP() << "no raw kernels on this backend";
  } else {
    using Device = typename TestFixture::Device;
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<RandomCase> cases(std::begin(random_cases), std::end(random_cases));
    kspmv::HostCsr edges;  // rows of 32, 0, 0, 0, 5, 40, 0, 0 entries in 30 columns
    edges.num_rows = 8;
    edges.num_cols = 30;
    for (const int length : {32, 0, 0, 0, 5, 40, 0, 0}) {
      for (int e = 0; e < length; ++e) {
        edges.col_indices.push_back((e * 7) % 30);
        edges.values.push_back(1.0 + 0.25 * e);
      }
      edges.row_offsets.push_back(int64_t(edges.col_indices.size()));
    }
    for (const bool chunks : {false, true}) {
      for (size_t c = 0; c <= cases.size(); ++c) {
        const bool edge = c == cases.size();
        SCOPED_TRACE(std::string(chunks ? "chunks, " : "row lanes, ") + (edge ? "chunk edges" : cases[c].what));
        const kspmv::HostCsr h = edge ? edges : random_csr(cases[c].shape, rng);
        const double alpha = edge ? 1.5 : cases[c].alpha, beta = edge ? 0.0 : cases[c].beta;
        const bool nan_in_y = edge || cases[c].nan_in_y;
        const auto A = kspmv::to_device<double, int, int, Device>(h);
        // A's entries one place into Views of nnz + 1: cols and vals not aligned to the chunks'
        // 16-byte loads of a group's entries, which then pass them with shuffles instead.
        const int64_t nnz = int64_t(A.nnz());
        Kokkos::View<int*, Device> shifted_cols("cols", nnz + 1);
        Kokkos::View<double*, Device> shifted_vals("vals", nnz + 1);
        Kokkos::deep_copy(Kokkos::subview(shifted_cols, Kokkos::make_pair(int64_t(1), nnz + 1)), A.col_indices);
        Kokkos::deep_copy(Kokkos::subview(shifted_vals, Kokkos::make_pair(int64_t(1), nnz + 1)), A.values);
        for (const int64_t k : {5, 6, 8, 9, 16, 17}) {
          for (const bool offset_x : {false, true}) {
            for (const bool shifted : {false, true}) {
              if (shifted && !chunks) continue;
              for (const bool left_y : {false, true}) {
                SCOPED_TRACE("k = " + std::to_string(k) + (offset_x ? ", X from column 1" : "") +
                             (shifted ? ", entries one place on" : "") + (left_y ? ", Y LayoutLeft" : ""));
                Kokkos::View<double**, Kokkos::LayoutRight, Device> wide_x("X", h.num_cols, k + 1);
                const auto X = Kokkos::subview(wide_x, Kokkos::ALL(), Kokkos::make_pair(offset_x ? 1 : 0, int(k) + (offset_x ? 1 : 0)));
                Kokkos::View<double**, Kokkos::LayoutLeft, Device> y_left("Y", h.num_rows, k);
                Kokkos::View<double**, Kokkos::LayoutRight, Device> y_right("Y", h.num_rows, k);
                std::vector<std::vector<double>> x(k), y0(k);
                auto xh = Kokkos::create_mirror(wide_x);
                auto ylh = Kokkos::create_mirror(y_left);
                auto yrh = Kokkos::create_mirror(y_right);
                for (int64_t j = 0; j < k; ++j) {
                  x[j] = random_vector(size_t(h.num_cols), rng);
                  y0[j] = random_vector(size_t(h.num_rows), rng);
                  if (nan_in_y) std::fill(y0[j].begin(), y0[j].end(), nan);
                  for (int64_t i = 0; i < h.num_cols; ++i) xh(i, j + (offset_x ? 1 : 0)) = x[j][i];
                  for (int64_t i = 0; i < h.num_rows; ++i) ylh(i, j) = yrh(i, j) = y0[j][i];
                }
                Kokkos::deep_copy(wide_x, xh);
                Kokkos::deep_copy(y_left, ylh);
                Kokkos::deep_copy(y_right, yrh);
                double* y = left_y ? y_left.data() : y_right.data();
                const int64_t y_row = left_y ? 1 : k, y_vector = left_y ? h.num_rows : 1;
                const TypeParam space;
                if (chunks) {
                  const auto& partition = kspmv::impl::csr_analysis(space, A)->balanced(space, A);
                  kspmv::impl::raw::csr_multivector_chunks<double, int, int>(
                      kspmv::impl::native_stream(space), A.num_rows(), int64_t(A.nnz()), partition.entries_per_block(),
                      partition.block_first_row.data(), k, A.row_offsets.data(),
                      shifted ? shifted_cols.data() + 1 : A.col_indices.data(),
                      shifted ? shifted_vals.data() + 1 : A.values.data(), X.data(), int64_t(X.stride(0)), y, y_row,
                      y_vector, alpha, beta);
                } else {
                  kspmv::impl::raw::csr_multivector_row_lanes<double, int, int>(
                      kspmv::impl::native_stream(space), A.num_rows(), k, A.row_offsets.data(), A.col_indices.data(),
                      A.values.data(), X.data(), int64_t(X.stride(0)), y, y_row, y_vector, alpha, beta);
                }
                space.fence();
                Kokkos::deep_copy(ylh, y_left);
                Kokkos::deep_copy(yrh, y_right);
                for (int64_t j = 0; j < k; ++j) {
                  std::vector<double> column(size_t(h.num_rows));
                  for (int64_t i = 0; i < h.num_rows; ++i) column[i] = left_y ? ylh(i, j) : yrh(i, j);
                  EXPECT_TRUE(matches_reference(column, reference_spmv(alpha, h, x[j], beta, y0[j])))
                      << "vector " << j << " of " << k;
                }
              }
            }
          }
        }
      }
    }
  }
}

TYPED_TEST(Spmv, MultivectorErrors) {
  using Device = typename TestFixture::Device;
  const auto A = kspmv::to_device<double, int, int, Device>(golden_5x5());
  Kokkos::View<double**, Kokkos::LayoutLeft, Device> x2("X", 5, 2), y2("Y", 5, 2), y3("Y", 5, 3), y4rows("Y", 4, 2);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, x2, 0.0, y3); }).find("x has 2 vectors (columns), y has 3"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, x2, 0.0, y4rows); }).find("A is 5 x 5, x has 5 rows (needs 5), y has 4 rows (needs 5)"), std::string::npos);
  const auto ell = kspmv::convert<kspmv::EllMatrix>(A);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, ell, x2, 0.0, y2); })
                .find("rank-2 x and y (several vectors) are not supported for EllMatrix"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, x2, 0.0, y2, {kspmv::Algorithm::csr_vector}); })
                .find("with several vectors, mode N takes"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv("T", 1.0, A, x2, 0.0, y2, {kspmv::Algorithm::raw}); })
                .find("with several vectors, mode T takes"),
            std::string::npos);
  kspmv::SpmvOptions lanes{kspmv::Algorithm::raw};
  lanes.lanes_per_row = 3;
  // Without the raw kernels the algorithm is refused before its tunable is looked at.
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x2, 0.0, y2, lanes); },
                                                 kspmv::impl::raw_available<TypeParam, double, int, int>()
                                                     ? "lanes_per_row = 3 must be a power of two"
                                                     : "with several vectors, algorithm raw needs the raw kernels"));
  if (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    for (const auto a : {kspmv::Algorithm::raw, kspmv::Algorithm::csr_balanced}) {
      EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, x2, 0.0, y2, {a}); })
                    .find(std::string("with several vectors, algorithm ") + kspmv::to_string(a) + " needs the raw kernels"),
                std::string::npos);
    }
  }
  // No vectors: nothing to do, and no error.
  Kokkos::View<double**, Kokkos::LayoutLeft, Device> x0("X", 5, 0), y0("Y", 5, 0);
  EXPECT_NO_THROW(kspmv::spmv(1.0, A, x0, 0.0, y0));
}

// ---- complex scalars -----------------------------------------------------------------------

template <class Scalar>
Scalar to_scalar(Complex z) {
  using Real = typename Scalar::value_type;
  return Scalar(Real(z.real()), Real(z.imag()));
}

// y = alpha*op(A)*y0 + beta*y0 with the complex host matrix converted to Format in Scalar
// (Kokkos::complex<float> or <double>), against the reference in std::complex<double>.
template <class ExecSpace, class Scalar, template <class, class, class, class> class Format = kspmv::CsrMatrix>
::testing::AssertionResult check_complex_spmv(const kspmv::HostCsr& host, const char* mode, Complex alpha,
                                              const std::vector<Complex>& x, Complex beta,
                                              const std::vector<Complex>& y0, const kspmv::SpmvOptions& options = {}) {
  using Device = DeviceOf<ExecSpace>;
  const auto A = kspmv::convert<Format>(kspmv::to_device<Scalar, int, int, Device>(host));
  auto xd = to_device_complex_vector<Scalar, Device>(x, "x");
  auto yd = to_device_complex_vector<Scalar, Device>(y0, "y");
  kspmv::spmv(ExecSpace(), mode, to_scalar<Scalar>(alpha), A, xd, to_scalar<Scalar>(beta), yd, options);
  ExecSpace().fence();
  return matches_complex_reference(to_std_vector(yd), reference_spmv_complex(alpha, host, mode[0], x, beta, y0))
         << "\n  mode " << mode << ", " << describe(options) << ", alpha " << alpha
         << ", beta " << beta << ", A " << host.num_rows << " x " << host.num_cols;
}

// A = [[1+2i, 0, 3], [0, -i, 2-i]]: A*(1, i, 1-i) = (4-i, 2-3i), conj(A)*(1, i, 1-i) = (4-5i, 2-i),
// A^T*(1, i) = (1+2i, 1, 4+2i), A^H*(1, i) = (1-2i, -1, 2+2i); exact in binary floating point.
TYPED_TEST(Spmv, ComplexHandComputed) {
  using Device = typename TestFixture::Device;
  using Z = Kokkos::complex<double>;
  kspmv::HostCsr h;
  h.num_rows = 2;
  h.num_cols = 3;
  h.row_offsets = {0, 2, 4};
  h.col_indices = {0, 2, 1, 2};
  h.values = {1, 3, 0, 2};
  h.imaginary = {2, 0, -1, -1};
  const auto A = kspmv::to_device<Z, int, int, Device>(h);
  const std::vector<Complex> x3 = {{1, 0}, {0, 1}, {1, -1}}, x2 = {{1, 0}, {0, 1}};
  const struct {
    const char* mode;
    std::vector<Complex> expected;
  } cases[] = {{"N", {{4, -1}, {2, -3}}},
               {"C", {{4, -5}, {2, -1}}},
               {"T", {{1, 2}, {1, 0}, {4, 2}}},
               {"H", {{1, -2}, {-1, 0}, {2, 2}}}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.mode);
    const bool t = c.mode[0] == 'T' || c.mode[0] == 'H';
    auto x = to_device_complex_vector<Z, Device>(t ? x2 : x3, "x");
    // beta 0 with NaN in y: overwritten; then beta = i on the result, alpha = 1: y = A*x + i*y.
    Kokkos::View<Z*, Device> y("y", c.expected.size());
    Kokkos::deep_copy(y, Z(nan, nan));
    kspmv::spmv(TypeParam(), c.mode, Z(1), A, x, Z(0), y);
    auto got = to_std_vector(y);
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i].real(), c.expected[i].real()) << i;
      EXPECT_EQ(got[i].imag(), c.expected[i].imag()) << i;
    }
    kspmv::spmv(TypeParam(), c.mode, Z(1), A, x, Z(0, 1), y);
    got = to_std_vector(y);
    for (size_t i = 0; i < got.size(); ++i) {
      const Complex expected = c.expected[i] + Complex(0, 1) * c.expected[i];
      EXPECT_EQ(got[i].real(), expected.real()) << i;
      EXPECT_EQ(got[i].imag(), expected.imag()) << i;
    }
  }
}

// Every random case (empty rows, a huge row, no rows or columns, alpha 0, beta 0 with NaN in
// y, tall and wide) with complex entries, in the four modes, on the formats that take each:
// CSR with every algorithm, load-balanced CSR and COO in all modes, HYB in N and C; double and
// float parts.
TYPED_TEST(Spmv, ComplexEveryCaseModeAndFormat) {
  using Z = Kokkos::complex<double>;
  using F = Kokkos::complex<float>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const RandomCase& c : random_cases) {
    SCOPED_TRACE(c.what);
    const kspmv::HostCsr A = with_random_imaginary_parts(random_csr(c.shape, rng), rng);
    const Complex alpha(c.alpha, c.alpha == 0 ? 0.0 : 0.5), beta(c.beta, c.beta == 0 ? 0.0 : -0.25);
    for (const char* mode : {"N", "T", "C", "H"}) {
      const bool t = mode[0] == 'T' || mode[0] == 'H';
      const auto x = random_complex_vector(size_t(t ? A.num_rows : A.num_cols), rng);
      auto y0 = random_complex_vector(size_t(t ? A.num_cols : A.num_rows), rng);
      if (c.nan_in_y) std::fill(y0.begin(), y0.end(), Complex(nan, nan));
      for (const kspmv::Algorithm a : {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar,
                                       kspmv::Algorithm::csr_vector, kspmv::Algorithm::csr_balanced}) {
        EXPECT_TRUE((check_complex_spmv<TypeParam, Z>(A, mode, alpha, x, beta, y0, {a})));
      }
      EXPECT_TRUE((check_complex_spmv<TypeParam, F>(A, mode, alpha, x, beta, y0)));
      EXPECT_TRUE((check_complex_spmv<TypeParam, Z, kspmv::BalancedCsrMatrix>(A, mode, alpha, x, beta, y0)));
      EXPECT_TRUE((check_complex_spmv<TypeParam, Z, kspmv::CooMatrix>(A, mode, alpha, x, beta, y0)));
      if (!t) EXPECT_TRUE((check_complex_spmv<TypeParam, F, kspmv::HybMatrix>(A, mode, alpha, x, beta, y0)));
    }
  }
}

// The formats with a structure of their own (ELLPACK, blocked ELLPACK, DIA, 16-bit column
// offsets) on a complex golden matrix, and young1c.mtx (a complex file) in every mode.
TYPED_TEST(Spmv, ComplexOtherFormatsAndRealFile) {
  using Z = Kokkos::complex<double>;
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr golden = with_random_imaginary_parts(golden_5x5(), rng);
  const auto x = random_complex_vector(5, rng), y0 = random_complex_vector(5, rng);
  for (const char* mode : {"N", "C"}) {
    EXPECT_TRUE((check_complex_spmv<TypeParam, Z, kspmv::EllMatrix>(golden, mode, {2, 1}, x, {-1, 0.5}, y0)));
    EXPECT_TRUE((check_complex_spmv<TypeParam, Z, kspmv::BlockedEllMatrix>(golden, mode, {2, 1}, x, {-1, 0.5}, y0)));
    EXPECT_TRUE((check_complex_spmv<TypeParam, Z, kspmv::DiaMatrix>(golden, mode, {2, 1}, x, {-1, 0.5}, y0)));
    EXPECT_TRUE((check_complex_spmv<TypeParam, Z, kspmv::Csr16Matrix>(golden, mode, {2, 1}, x, {-1, 0.5}, y0)));
  }
  const kspmv::HostCsr young = kspmv::read_matrix_market(data_dir() + "/young1c.mtx");
  for (const char* mode : {"N", "T", "C", "H"}) {
    const auto xy = random_complex_vector(size_t(young.num_rows), rng), yy = random_complex_vector(size_t(young.num_rows), rng);
    EXPECT_TRUE((check_complex_spmv<TypeParam, Z>(young, mode, {1.5, -0.5}, xy, {0.25, 1}, yy)));
  }
}

// Several complex vectors (rank 2, LayoutLeft and LayoutRight) in modes N and H.
TYPED_TEST(Spmv, ComplexMultivector) {
  using Device = typename TestFixture::Device;
  using Z = Kokkos::complex<double>;
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr A = with_random_imaginary_parts(random_csr({300, 200, 20, 0.1, 500}, rng), rng);
  const auto Ad = kspmv::to_device<Z, int, int, Device>(A);
  constexpr int64_t k = 3;
  for (const char* mode : {"N", "H"}) {
    SCOPED_TRACE(mode);
    const bool t = mode[0] == 'H';
    const int64_t nx = t ? A.num_rows : A.num_cols, ny = t ? A.num_cols : A.num_rows;
    std::vector<std::vector<Complex>> x(k), y0(k);
    Kokkos::View<Z**, Kokkos::LayoutLeft, Device> xl("X", nx, k), yl("Y", ny, k);
    Kokkos::View<Z**, Kokkos::LayoutRight, Device> xr("X", nx, k), yr("Y", ny, k);
    auto xh = Kokkos::create_mirror_view(xl);
    auto yh = Kokkos::create_mirror_view(yl);
    for (int64_t j = 0; j < k; ++j) {
      x[j] = random_complex_vector(size_t(nx), rng);
      y0[j] = random_complex_vector(size_t(ny), rng);
      for (int64_t i = 0; i < nx; ++i) xh(i, j) = to_scalar<Z>(x[j][i]);
      for (int64_t i = 0; i < ny; ++i) yh(i, j) = to_scalar<Z>(y0[j][i]);
    }
    Kokkos::deep_copy(xl, xh);
    Kokkos::deep_copy(yl, yh);
    Kokkos::deep_copy(xr, xl);
    Kokkos::deep_copy(yr, yl);
    kspmv::spmv(TypeParam(), mode, Z(2, -1), Ad, xl, Z(0.5, 0.5), yl);
    kspmv::spmv(TypeParam(), mode, Z(2, -1), Ad, xr, Z(0.5, 0.5), yr);
    for (const bool right : {false, true}) {
      SCOPED_TRACE(right ? "LayoutRight" : "LayoutLeft");
      if (right) Kokkos::deep_copy(yl, yr);
      Kokkos::deep_copy(yh, yl);
      for (int64_t j = 0; j < k; ++j) {
        std::vector<Z> column(static_cast<size_t>(ny));
        for (int64_t i = 0; i < ny; ++i) column[i] = yh(i, j);
        EXPECT_TRUE(matches_complex_reference(column, reference_spmv_complex({2, -1}, A, mode[0], x[j], {0.5, 0.5}, y0[j])))
            << "vector " << j;
      }
    }
  }
}

// ---- mixed precision: float values, double x and y ------------------------------------------

// Mixed precision: A's values in float (Format, int indices), x and y in double.
template <class ExecSpace, template <class, class, class, class> class Format = kspmv::CsrMatrix>
::testing::AssertionResult check_mixed(const kspmv::HostCsr& host, const char* mode, double alpha,
                                       const std::vector<double>& x, double beta, const std::vector<double>& y0,
                                       const kspmv::SpmvOptions& options = {}) {
  return check_spmv_mode<ExecSpace, float, int, int, Format, double>(host, mode, alpha, x, beta, y0, options);
}

// Every random case on CSR (every algorithm), load-balanced CSR, 16-bit offsets, COO (both
// algorithms) and HYB in mode N, CSR and COO in mode T, and a real matrix.
TYPED_TEST(Spmv, MixedPrecisionEveryCaseAndFormat) {
  for (const char* mode : {"N", "T"}) {
    for_each_random_case(mode[0] == 'T', [mode](const kspmv::HostCsr& A, const auto& x, const auto& y0, const RandomCase& c) {
      for (const kspmv::Algorithm a : {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar,
                                       kspmv::Algorithm::csr_vector, kspmv::Algorithm::csr_balanced}) {
        EXPECT_TRUE((check_mixed<TypeParam>(A, mode, c.alpha, x, c.beta, y0, {a})));
      }
      EXPECT_TRUE((check_mixed<TypeParam, kspmv::BalancedCsrMatrix>(A, mode, c.alpha, x, c.beta, y0)));
      EXPECT_TRUE((check_mixed<TypeParam, kspmv::CooMatrix>(A, mode, c.alpha, x, c.beta, y0)));
      if (mode[0] == 'T') return;
      EXPECT_TRUE((check_mixed<TypeParam, kspmv::CooMatrix>(A, mode, c.alpha, x, c.beta, y0,
                                                            {kspmv::Algorithm::coo_deterministic})));
      EXPECT_TRUE((check_mixed<TypeParam, kspmv::HybMatrix>(A, mode, c.alpha, x, c.beta, y0)));
      EXPECT_TRUE((check_mixed<TypeParam, kspmv::Csr16Matrix>(A, mode, c.alpha, x, c.beta, y0)));
    });
  }
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr arrow = kspmv::read_matrix_market(data_dir() + "/arrow.mtx");  // a full row and column
  const auto x = random_vector(size_t(arrow.num_cols), rng), y0 = random_vector(size_t(arrow.num_rows), rng);
  EXPECT_TRUE((check_mixed<TypeParam>(arrow, "N", 1.5, x, -0.5, y0)));
  EXPECT_TRUE((check_mixed<TypeParam, kspmv::BalancedCsrMatrix>(arrow, "N", 1.5, x, -0.5, y0)));
}

// The formats with a structure of their own on the golden matrix, several vectors, complex
// parts, and the raw kernels' refusal (they take x and y of the matrix's own type).
TYPED_TEST(Spmv, MixedPrecisionOtherShapes) {
  using Device = typename TestFixture::Device;
  const std::vector<double> x = {1, 2, 3, 4, 5}, y0 = {1, 1, 1, 1, 1};
  EXPECT_TRUE((check_mixed<TypeParam, kspmv::EllMatrix>(golden_5x5(), "N", 2.0, x, -1.0, y0)));
  EXPECT_TRUE((check_mixed<TypeParam, kspmv::BlockedEllMatrix>(golden_5x5(), "N", 2.0, x, -1.0, y0)));
  EXPECT_TRUE((check_mixed<TypeParam, kspmv::DiaMatrix>(golden_5x5(), "N", 2.0, x, -1.0, y0)));
  // Several vectors: 2*A*X - 1 with X = (x, 2x).
  const auto A = kspmv::to_device<float, int, int, Device>(golden_5x5());
  Kokkos::View<double**, Kokkos::LayoutLeft, Device> X("X", 5, 2), Y("Y", 5, 2);
  auto Xh = Kokkos::create_mirror_view(X);
  for (int i = 0; i < 5; ++i) {
    Xh(i, 0) = x[i];
    Xh(i, 1) = 2 * x[i];
  }
  Kokkos::deep_copy(X, Xh);
  Kokkos::deep_copy(Y, 1.0);
  kspmv::spmv(TypeParam(), 2.0, A, X, -1.0, Y);
  auto Yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
  const double expected[5] = {23, 7, 13, 27, 23};  // 2*A*(1..5) - 1
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(Yh(i, 0), expected[i]);
    EXPECT_EQ(Yh(i, 1), 2 * expected[i] + 1);
  }
  // complex<float> values with complex<double> vectors.
  using Zf = Kokkos::complex<float>;
  using Zd = Kokkos::complex<double>;
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr h = with_random_imaginary_parts(random_csr({200, 150, 30, 0.1, 400}, rng), rng);
  for (double& v : h.values) v = double(float(v));
  for (double& v : h.imaginary) v = double(float(v));
  const auto Az = kspmv::to_device<Zf, int, int, Device>(h);
  const auto xz = random_complex_vector(150, rng), yz = random_complex_vector(200, rng);
  auto xd = to_device_complex_vector<Zd, Device>(xz, "x");
  auto yd = to_device_complex_vector<Zd, Device>(yz, "y");
  kspmv::spmv(TypeParam(), "C", Zd(1.5, -1), Az, xd, Zd(0.5, 0.25), yd);
  EXPECT_TRUE(matches_complex_reference(to_std_vector(yd), reference_spmv_complex({1.5, -1}, h, 'C', xz, {0.5, 0.25}, yz)));
  // The raw load-balanced kernel takes mixed precision where it runs; the raw kernels refuse it
  // by name elsewhere.
  if constexpr (kspmv::impl::raw_available<TypeParam, float, int, int>()) {
    std::mt19937_64 rng2(test_seed());
    const kspmv::HostCsr big = random_csr({3000, 2500, 40, 0.1, 20000}, rng2);  // rows spanning blocks
    const auto xb = random_vector(2500, rng2), yb = random_vector(3000, rng2);
    for (const double beta : {0.0, -0.5}) {
      EXPECT_TRUE((check_mixed<TypeParam, kspmv::BalancedCsrMatrix>(big, "N", 1.5, xb, beta, yb, {kspmv::Algorithm::raw})));
      EXPECT_TRUE((check_mixed<TypeParam>(big, "N", 1.5, xb, beta, yb, {kspmv::Algorithm::csr_balanced})));
    }
  }
  auto xv = to_device_vector<double, Device>(x, "x");
  auto yv = to_device_vector<double, Device>(y0, "y");
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, xv, 0.0, yv, {kspmv::Algorithm::raw}); })
                .find("x and y of the matrix's scalar type"),
            std::string::npos);
}

#ifdef KSPMV_HAVE_KOKKOSKERNELS
// Cross-check against KokkosSparse::spmv on the same matrix object: kspmv wraps the
// KokkosKernels matrix without copying, and both results must agree to rounding.
TYPED_TEST(Spmv, AgreesWithKokkosKernels) {
  using Device = typename TestFixture::Device;
  using KKMatrix = KokkosSparse::CrsMatrix<double, int, Device, void, int>;
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = random_csr({700, 650, 30, 0.1, 2000}, rng);
  auto A = kspmv::to_device<double, int, int, Device>(h);
  KKMatrix kk("A", A.num_rows(), A.num_cols(), A.nnz(), A.values, A.row_offsets, A.col_indices);
  const kspmv::CsrMatrix<double, int, int, Device> wrapped(kk);
  EXPECT_EQ(wrapped.values.data(), A.values.data());
  auto x = to_device_vector<double, Device>(random_vector(h.num_cols, rng), "x");
  const auto y0 = random_vector(h.num_rows, rng);
  auto y_kspmv = to_device_vector<double, Device>(y0, "y");
  auto y_kk = to_device_vector<double, Device>(y0, "y");
  kspmv::spmv(1.25, wrapped, x, -0.75, y_kspmv);
  KokkosSparse::spmv("N", 1.25, kk, x, -0.75, y_kk);
  const auto a = to_std_vector(y_kspmv), b = to_std_vector(y_kk);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12 * (1 + std::abs(b[i]))) << "row " << i;
}
#endif

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_spmv_bad_arg) -------------
// kspmv::spmv, every overload: one assertion per invalid argument, on the exception's exact type
// and the words of its message. The typed tests above already cover, with their messages: x or
// y of the wrong length (DimensionMismatchThrowsBeforeAnyKernel), modes unknown or null, mode T's
// sizes, formats and algorithms (ModeErrors), lanes and team sizes out of range
// (InvalidOptionsThrow), rank-2 x and y of other column counts, formats and algorithms (the
// several-vectors test); CSR algorithms on ELLPACK and Csr16Matrix (cases.hpp), raw without the
// raw kernels (test_raw.cpp), tunables with the automatic algorithm (test_csr_analysis.cpp).
// kspmv::automatic_choice takes no argument that can be invalid. Default backend only: every
// check comes before a kernel.
class SpmvBadArgument : public ::testing::Test {
 protected:
  using Device = DefaultDevice;
  const kspmv::CsrMatrix<double, int, int, Device> A = kspmv::to_device<double, int, int, Device>(golden_5x5());
  Kokkos::View<double*, Device> x{"x", 5}, y{"y", 5};

  // Whether spmv(mode, 1, M, x, 0, y, options) on the 5 x 5 vectors throws std::invalid_argument
  // with `needle`.
  template <class Matrix>
  ::testing::AssertionResult refuses(const char* mode, const Matrix& M, const kspmv::SpmvOptions& options,
                                     const std::string& needle) const {
    return throws_with<std::invalid_argument>([&] { kspmv::spmv(mode, 1.0, M, x, 0.0, y, options); }, needle);
  }
};

// Each public overload checks the lengths itself (they share one check, which is the point).
TEST_F(SpmvBadArgument, XHasWrongLengthInEveryOverload) {
  Kokkos::View<double*, Device> short_x("x", 4);
  const std::string needle = "kspmv::spmv: dimension mismatch: A is 5 x 5, x has 4 entries (needs 5)";
  const Kokkos::DefaultExecutionSpace space;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(space, 1.0, A, short_x, 0.0, y); }, needle))
      << "spmv(space, alpha, A, x, beta, y)";
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(space, "N", 1.0, A, short_x, 0.0, y); }, needle))
      << "spmv(space, mode, alpha, A, x, beta, y)";
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv("N", 1.0, A, short_x, 0.0, y); }, needle))
      << "spmv(mode, alpha, A, x, beta, y)";
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, short_x, 0.0, y); }, needle))
      << "spmv(alpha, A, x, beta, y)";
}

// Each negative tunable on its own (InvalidOptionsThrow sets two at once).
TEST_F(SpmvBadArgument, EachNegativeTunable) {
  kspmv::SpmvOptions team{kspmv::Algorithm::csr_vector}, lanes = team, rows = team;
  team.team_size = -1;
  lanes.lanes_per_row = -2;
  rows.rows_per_thread = -3;
  EXPECT_TRUE(refuses("N", A, team, "negative tunable in SpmvOptions (team_size -1,"));
  EXPECT_TRUE(refuses("N", A, lanes, "negative tunable in SpmvOptions (team_size 0, lanes_per_row -2,"));
  EXPECT_TRUE(refuses("N", A, rows, "negative tunable in SpmvOptions (team_size 0, lanes_per_row 0, rows_per_thread -3)"));
}

// An algorithm of another format, one assertion per format (ELLPACK and Csr16Matrix: cases.hpp).
TEST_F(SpmvBadArgument, AlgorithmOfAnotherFormat) {
  using kspmv::Algorithm;
  EXPECT_TRUE(refuses("N", A, {Algorithm::coo_atomic}, "algorithm coo_atomic does not apply to a CSR matrix"));
  // csr_transposed is mode T's: mode N refuses it.
  EXPECT_TRUE(refuses("N", A, {Algorithm::csr_transposed}, "algorithm csr_transposed does not apply to a CSR matrix"));
  EXPECT_TRUE(refuses("N", kspmv::convert<kspmv::BalancedCsrMatrix>(A), {Algorithm::csr_vector},
                      "algorithm csr_vector does not apply to a load-balanced CSR matrix"));
  EXPECT_TRUE(refuses("N", kspmv::convert<kspmv::BlockedEllMatrix>(A), {Algorithm::csr_scalar},
                      "algorithm csr_scalar does not apply to a blocked ELLPACK matrix"));
  EXPECT_TRUE(refuses("N", kspmv::convert<kspmv::DiaMatrix>(A), {Algorithm::coo_atomic},
                      "algorithm coo_atomic does not apply to a DIA matrix"));
  EXPECT_TRUE(refuses("N", kspmv::convert<kspmv::CooMatrix>(A), {Algorithm::csr_scalar},
                      "algorithm csr_scalar does not apply to a COO matrix"));
  EXPECT_TRUE(refuses("N", kspmv::convert<kspmv::HybMatrix>(A), {Algorithm::csr_balanced},
                      "algorithm csr_balanced does not apply to a HYB matrix"));
}

// Mode T on the formats without a transposed kernel (ELLPACK and DIA: ModeErrors).
TEST_F(SpmvBadArgument, ModeTOnAFormatWithoutIt) {
  EXPECT_TRUE(refuses("T", kspmv::convert<kspmv::Csr16Matrix>(A), {}, "mode T is not supported for Csr16Matrix"));
  EXPECT_TRUE(refuses("T", kspmv::convert<kspmv::BlockedEllMatrix>(A), {}, "mode T is not supported for BlockedEllMatrix"));
  EXPECT_TRUE(refuses("H", kspmv::convert<kspmv::HybMatrix>(A), {}, "mode T is not supported for HybMatrix"));
}

// Mode T's algorithms: CSR's own (csr_transposed, csr_balanced, ...) but not COO's; a
// load-balanced matrix forwards the others to its CSR.
TEST_F(SpmvBadArgument, ModeTAlgorithmOfAnotherFormat) {
  EXPECT_TRUE(refuses("T", kspmv::convert<kspmv::BalancedCsrMatrix>(A), {kspmv::Algorithm::coo_deterministic},
                      "algorithm coo_deterministic does not apply to mode T on a CSR matrix"));
  EXPECT_TRUE(refuses("T", kspmv::convert<kspmv::CooMatrix>(A), {kspmv::Algorithm::csr_transposed},
                      "algorithm csr_transposed does not apply to mode T on a COO matrix"));
}

}  // namespace
}  // namespace kspmv_test
