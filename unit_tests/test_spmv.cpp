// kspmv::spmv with one vector: golden matrices with hand-computed results, real matrices and
// fresh random ones against the host reference, the BLAS corner cases, the modes (transpose),
// and argument errors. Several vectors: test_spmv_multivector.cpp; complex scalars and mixed
// precision: test_spmv_complex_mixed.cpp (apart so that each compiles in parallel).
#include <kspmv/io.hpp>
#include <kspmv/spmv.hpp>

#include "backends.hpp"
#include "cases.hpp"
#include "reference.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#ifdef KSPMV_HAVE_KOKKOSKERNELS
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#endif

namespace kspmv_test {
namespace {

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
                                                 "rows_per_thread -2,"));
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
  kspmv::SpmvOptions team{kspmv::Algorithm::csr_vector}, lanes = team, rows = team, resident = team;
  team.team_size = -1;
  lanes.lanes_per_row = -2;
  rows.rows_per_thread = -3;
  resident.resident_blocks = -4;
  EXPECT_TRUE(refuses("N", A, team, "negative tunable in SpmvOptions (team_size -1,"));
  EXPECT_TRUE(refuses("N", A, lanes, "negative tunable in SpmvOptions (team_size 0, lanes_per_row -2,"));
  EXPECT_TRUE(refuses("N", A, rows, "negative tunable in SpmvOptions (team_size 0, lanes_per_row 0, rows_per_thread -3,"));
  EXPECT_TRUE(refuses("N", A, resident,
                      "negative tunable in SpmvOptions (team_size 0, lanes_per_row 0, rows_per_thread 0, "
                      "resident_blocks -4)"));
  // A launch tunable with the automatic algorithm, or in mode T, is refused as well.
  kspmv::SpmvOptions automatic;
  automatic.resident_blocks = 7;
  EXPECT_TRUE(refuses("N", A, automatic, "resident_blocks) need an explicit algorithm"));
  EXPECT_TRUE(refuses("T", A, automatic, "resident_blocks) do not apply to mode T"));
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
