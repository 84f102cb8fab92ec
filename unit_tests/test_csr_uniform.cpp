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

// The common suite of the formats holding CSR's structure with compressed values
// (cases.hpp), with every value 1, then -2.5.
TYPED_TEST(UniformCsr, RandomCasesWithOneValue) {
  run_compressed_values_suite<TypeParam, kspmv::UniformCsrMatrix>([](const kspmv::HostCsr& h) {
    return std::vector<kspmv::HostCsr>{with_every_value(h, 1.0), with_every_value(h, -2.5)};
  });
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

// A value whose products round (0.3): the same bits as CSR holding it (cases.hpp).
TYPED_TEST(UniformCsr, SameBitsAsCsrHoldingTheValue) {
  std::mt19937_64 rng(test_seed());
  expect_same_bits_as_csr<TypeParam, kspmv::UniformCsrMatrix>(
      with_every_value(random_csr(RandomShape{4000, 3000, 30, 0.1, 9000}, rng), 0.3), rng);
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

TYPED_TEST(UniformCsr, RefusesWhatDoesNotApply) {
  expect_compressed_values_refusals<TypeParam, kspmv::UniformCsrMatrix>(with_every_value(golden_5x5(), 1.0),
                                                                        "UniformCsrMatrix");
}

}  // namespace
}  // namespace kspmv_test
