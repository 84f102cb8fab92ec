// kspmv::UniformCsrMatrix: the random cases and real matrices with one value in every entry, the
// same bits as CSR holding that value, rows across blocks, and the refusals.
#include <kspmv/csr_uniform.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class UniformCsr : public ::testing::Test {};
TYPED_TEST_SUITE(UniformCsr, Backends, BackendName);

kspmv::HostCsr with_every_value(kspmv::HostCsr h, double value) {
  std::fill(h.values.begin(), h.values.end(), value);
  return h;
}

// Automatic runs the raw load-balanced kernel where one exists (GPU builds); csr_scalar is always
// the Kokkos kernel, a thread per row. Every random case (empty rows, a single huge row, no rows,
// no columns, alpha 0, beta 0 with NaN in y, rectangular) with its values set to one value, in
// double (int indices) and float (int64_t indices, size_t offsets), and the round trip to CSR.
TYPED_TEST(UniformCsr, RandomCasesWithOneValue) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (rerun with KSPMV_TEST_SEED=" + std::to_string(seed) + ")");
  std::mt19937_64 rng(seed);
  for (const kspmv::SpmvOptions& options : {kspmv::SpmvOptions(), kspmv::SpmvOptions{kspmv::Algorithm::csr_scalar}}) {
    SCOPED_TRACE(describe(options));
    for (const RandomCase& c : random_cases) {
      SCOPED_TRACE(c.what);
      for (const double value : {1.0, -2.5}) {
        const kspmv::HostCsr A = with_every_value(random_csr(c.shape, rng), value);
        const auto x = random_vector(A.num_cols, rng);
        auto y0 = random_vector(A.num_rows, rng);
        if (c.nan_in_y) std::fill(y0.begin(), y0.end(), nan);
        EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::UniformCsrMatrix>(A, c.alpha, x, c.beta, y0, options)));
        EXPECT_TRUE((check_spmv<TypeParam, float, int64_t, size_t, kspmv::UniformCsrMatrix>(A, c.alpha, x, c.beta, y0,
                                                                                            options)));
        EXPECT_TRUE((check_round_trip<TypeParam, kspmv::UniformCsrMatrix>(A)));
      }
    }
  }
}

// The real matrices' structure with one value: the pattern files as read (every entry 1), the
// others with 0.75 in every entry.
TYPED_TEST(UniformCsr, RealMatricesWithOneValue) {
  std::mt19937_64 rng(test_seed());
  for (const char* name : all_real_matrices) {
    SCOPED_TRACE(name);
    kspmv::HostCsr A = kspmv::read_matrix_market(data_dir() + "/" + name);
    const bool pattern = std::all_of(A.values.begin(), A.values.end(), [](double v) { return v == 1.0; });
    if (!pattern) A = with_every_value(A, 0.75);
    const auto x = random_vector(A.num_cols, rng);
    const auto y0 = random_vector(A.num_rows, rng);
    for (const kspmv::Algorithm algorithm : {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar}) {
      EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::UniformCsrMatrix>(A, 1.5, x, -0.5, y0, {algorithm})));
    }
    EXPECT_TRUE((check_round_trip<TypeParam, kspmv::UniformCsrMatrix>(A)));
  }
}

// Each product is value * x as CSR's with the value stored, summed in the same order: the
// automatic call gives BalancedCsrMatrix's bits (the same load-balanced kernel or, on hosts, the
// same partition's Kokkos kernel is not the same order, so there the thread-per-row kernels are
// compared), with a value whose products round (0.3).
TYPED_TEST(UniformCsr, SameBitsAsCsrHoldingTheValue) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = with_every_value(random_csr(RandomShape{4000, 3000, 30, 0.1, 9000}, rng), 0.3);
  const auto csr = kspmv::to_device<double, int, int, Device>(h);
  const auto uniform = kspmv::convert<kspmv::UniformCsrMatrix>(csr);
  const auto balanced = kspmv::convert<kspmv::BalancedCsrMatrix>(csr);
  const auto x = to_device_vector<double, Device>(random_vector(h.num_cols, rng), "x");
  const auto y0 = random_vector(h.num_rows, rng);
  const bool raw = kspmv::impl::raw_available<TypeParam, double, int, int>();
  auto y_uniform = to_device_vector<double, Device>(y0, "y_uniform");
  auto y_csr = to_device_vector<double, Device>(y0, "y_csr");
  if (raw) {
    kspmv::spmv(1.25, uniform, x, -0.5, y_uniform);
    kspmv::spmv(1.25, balanced, x, -0.5, y_csr, {kspmv::Algorithm::raw});
  } else {
    kspmv::spmv(1.25, uniform, x, -0.5, y_uniform, {kspmv::Algorithm::csr_scalar});
    kspmv::spmv(1.25, csr, x, -0.5, y_csr, {kspmv::Algorithm::csr_scalar});
  }
  const auto a = to_std_vector(y_uniform), b = to_std_vector(y_csr);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)), 0);
  EXPECT_TRUE(matches_reference(a, reference_spmv(1.25, h, to_std_vector(x), -0.5, y0)));
}

// A row of 50,000 entries spans many blocks of the partition (25 of the GPUs' 2048 entries):
// its partials are added in block order, the same bits every run.
TYPED_TEST(UniformCsr, RowsSpanningManyBlocksSameBitsEveryRun) {
  using Device = DeviceOf<TypeParam>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const kspmv::HostCsr h = with_every_value(random_csr(RandomShape{3000, 400000, 40, 0.2, 50000}, rng), 1.0);
  const auto A = kspmv::convert<kspmv::UniformCsrMatrix>(kspmv::to_device<double, int, int, Device>(h));
  EXPECT_NO_THROW(A.validate());
  EXPECT_GE(A.balanced.num_blocks(), 50000 / A.balanced.entries_per_block());
  EXPECT_GT(A.balanced.num_blocks(), 1);
  expect_same_bits_every_run<TypeParam>(A, h, rng, {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar});
}

// Mixed precision (float values, double vectors): the Kokkos kernel, products in double.
TYPED_TEST(UniformCsr, MixedPrecision) {
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = with_every_value(random_csr(RandomShape{700, 500, 9, 0.1, 0}, rng), 0.1);
  const auto x = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  EXPECT_TRUE((check_spmv_mode<TypeParam, float, int, int, kspmv::UniformCsrMatrix, double>(h, "N", 2.0, x, 1.0, y0)));
}

// Complex scalars (the Kokkos kernel, a thread per row): one value 0.5 - 1.5i in every entry, modes N
// and C (conj(A), through a conjugated x), against the reference in std::complex<double>; an
// entry whose imaginary part alone differs is refused.
TYPED_TEST(UniformCsr, ComplexValues) {
  using Device = DeviceOf<TypeParam>;
  using Z = Kokkos::complex<double>;
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr h = with_every_value(random_csr(RandomShape{300, 200, 12, 0.1, 0}, rng), 0.5);
  h.complex_field = true;
  h.imaginary.assign(h.values.size(), -1.5);
  const auto A = kspmv::convert<kspmv::UniformCsrMatrix>(kspmv::to_device<Z, int, int, Device>(h));
  EXPECT_EQ(A.value, Z(0.5, -1.5));
  const auto x = random_complex_vector(size_t(h.num_cols), rng);
  const auto y0 = random_complex_vector(size_t(h.num_rows), rng);
  const Complex alpha(1.0, 0.5), beta(-0.5, 2.0);
  for (const char* mode : {"N", "C"}) {
    SCOPED_TRACE(mode);
    auto xd = to_device_complex_vector<Z, Device>(x, "x");
    auto yd = to_device_complex_vector<Z, Device>(y0, "y");
    kspmv::spmv(TypeParam(), mode, Z(alpha.real(), alpha.imag()), A, xd, Z(beta.real(), beta.imag()), yd);
    EXPECT_TRUE(matches_complex_reference(to_std_vector(yd), reference_spmv_complex(alpha, h, mode[0], x, beta, y0)));
  }
  h.imaginary[h.imaginary.size() / 2] = -1.25;
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::convert<kspmv::UniformCsrMatrix>(kspmv::to_device<Z, int, int, Device>(h)); },
      "entry " + std::to_string(h.imaginary.size() / 2) + " holds (0.5,-1.25), entry 0 holds (0.5,-1.5)"));
}

TYPED_TEST(UniformCsr, ConvertRefusesValuesThatDiffer) {
  using Device = DeviceOf<TypeParam>;
  // golden_5x5: entry 1 differs from entry 0.
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [] { kspmv::convert<kspmv::UniformCsrMatrix>(kspmv::to_device<double, int, int, Device>(golden_5x5())); },
      "kspmv::convert<UniformCsrMatrix>: not every stored value is the same: entry 1 holds"));
  // One entry of about 200,000 differs, near the end and between the sampled entries (the check
  // samples 65,536 evenly spaced entries, then reads them all): its full pass finds it. Then one
  // differs only in its sign bit (-0.0 against 0.0): the products would differ in the sign of zero.
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr h = with_every_value(random_csr(RandomShape{4000, 4000, 100, 0.0, 0}, rng), 3.0);
  const int64_t stride = std::max<int64_t>(1, int64_t(h.values.size()) / kspmv::impl::value_check_sample);
  ASSERT_GT(stride, 1);
  const size_t last = h.values.size() - 1 - size_t((h.values.size() - 1) % stride == 0 ? 1 : 0);
  ASSERT_NE(int64_t(last) % stride, 0);
  h.values[last] = 3.0000000000000004;
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::convert<kspmv::UniformCsrMatrix>(kspmv::to_device<double, int, int, Device>(h)); },
      "entry " + std::to_string(last) + " holds 3.0000000000000004, entry 0 holds 3"));
  h = with_every_value(h, 0.0);
  h.values[17] = -0.0;
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::convert<kspmv::UniformCsrMatrix>(kspmv::to_device<double, int, int, Device>(h)); },
      "entry 17 holds -0, entry 0 holds 0"));
}

TYPED_TEST(UniformCsr, ValidateFindsAChangedValue) {
  using Device = DeviceOf<TypeParam>;
  const auto csr = kspmv::to_device<double, int, int, Device>(with_every_value(golden_5x5(), 2.0));
  const auto A = kspmv::convert<kspmv::UniformCsrMatrix>(csr);
  EXPECT_NO_THROW(A.validate());
  EXPECT_EQ(A.value, 2.0);
  Kokkos::deep_copy(Kokkos::subview(csr.values, 3), 5.0);  // the CSR values are shared
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { A.validate(); }, "entry 3 holds 5, not the matrix's one value 2"));
  // to_csr gives the value the matrix holds, not the changed one.
  const kspmv::HostCsr back = kspmv::to_host(kspmv::to_csr(A));
  EXPECT_TRUE(std::all_of(back.values.begin(), back.values.end(), [](double v) { return v == 2.0; }));
}

// Other algorithms, a wrong x, several vectors and mode T are clear errors; the raw kernel is one
// where none is compiled.
TYPED_TEST(UniformCsr, RefusesWhatDoesNotApply) {
  using Device = DeviceOf<TypeParam>;
  const kspmv::HostCsr h = with_every_value(golden_5x5(), 1.0);
  const auto A = kspmv::convert<kspmv::UniformCsrMatrix>(kspmv::to_device<double, int, int, Device>(h));
  Kokkos::View<double*, Device> x("x", 5), y("y", 5), x4("x", 4);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x, 0.0, y, {kspmv::Algorithm::csr_vector}); },
                                                 "algorithm csr_vector does not apply to a "));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x4, 0.0, y); }, "x has 4 entries (needs 5)"));
  Kokkos::View<double**, Device> X("X", 5, 2), Y("Y", 5, 2);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, X, 0.0, Y); },
                                                 "rank-2 x and y (several vectors) are not supported for UniformCsrMatrix"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv("T", 1.0, A, x, 0.0, y); },
                                                 "mode T is not supported for UniformCsrMatrix"));
  if (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::UniformCsrMatrix>(h, 2.0, {1, 2, 3, 4, 5}, -1.0,
                                                                                  {1, 1, 1, 1, 1}, {kspmv::Algorithm::raw})));
  } else {
    EXPECT_THROW(kspmv::spmv(1.0, A, x, 0.0, y, {kspmv::Algorithm::raw}), std::invalid_argument);
  }
}

}  // namespace
}  // namespace kspmv_test
