// kspmv::CodedCsrMatrix: the random cases and real matrices with few distinct values, the same
// bits as CSR holding them, the table and codes, rows across blocks, and the refusals.
#include <kspmv/csr_coded.hpp>

#include <algorithm>
#include <set>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class CodedCsr : public ::testing::Test {};
TYPED_TEST_SUITE(CodedCsr, Backends, BackendName);

// Each value replaced by one of `count` values (-1.75, -1.5, ..., in steps of 0.25, skipping 0),
// chosen from the value's own bits, so the same value keeps the same code.
kspmv::HostCsr with_values_from(kspmv::HostCsr h, int count) {
  for (double& v : h.values) {
    uint64_t bits;
    std::memcpy(&bits, &v, 8);
    const int i = int((bits * 0x9E3779B97F4A7C15ULL) >> 40) % count;
    v = -1.75 + 0.25 * double(i >= 7 ? i + 1 : i);
  }
  return h;
}

// The common suite of the formats holding CSR's structure with compressed values
// (cases.hpp), with 1, 3 and 256 distinct values.
TYPED_TEST(CodedCsr, RandomCasesWithFewValues) {
  run_compressed_values_suite<TypeParam, kspmv::CodedCsrMatrix>([](const kspmv::HostCsr& h) {
    return std::vector<kspmv::HostCsr>{with_values_from(h, 1), with_values_from(h, 3), with_values_from(h, 256)};
  });
}

// The real matrices of few values as read (arrow: 2, the pattern files: 1), the others with 7.
TYPED_TEST(CodedCsr, RealMatrices) {
  std::mt19937_64 rng(test_seed());
  for (const char* name : all_real_matrices) {
    SCOPED_TRACE(name);
    kspmv::HostCsr A = kspmv::read_matrix_market(data_dir() + "/" + name);
    std::vector<double> distinct = A.values;
    std::sort(distinct.begin(), distinct.end());
    if (std::unique(distinct.begin(), distinct.end()) - distinct.begin() > 256) A = with_values_from(A, 7);
    const auto x = random_vector(A.num_cols, rng);
    const auto y0 = random_vector(A.num_rows, rng);
    for (const kspmv::Algorithm algorithm : {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar}) {
      EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::CodedCsrMatrix>(A, 1.5, x, -0.5, y0, {algorithm})));
    }
    EXPECT_TRUE((check_round_trip<TypeParam, kspmv::CodedCsrMatrix>(A)));
  }
}

// The table holds each distinct value once, by increasing bit pattern (so positive values by
// increasing value, before the negative ones), and each code points at its entry's value.
TYPED_TEST(CodedCsr, TableAndCodes) {
  using Device = DeviceOf<TypeParam>;
  kspmv::HostCsr h = golden_5x5();
  h.values.assign(h.values.size(), 2.0);
  h.values[0] = -1.0;
  h.values[1] = 0.5;
  h.values.back() = 0.5;
  const auto A = kspmv::convert<kspmv::CodedCsrMatrix>(kspmv::to_device<double, int, int, Device>(h));
  EXPECT_EQ(to_std_vector(A.table), (std::vector<double>{0.5, 2.0, -1.0}));
  std::vector<uint8_t> codes(h.values.size(), 1);
  codes[0] = 2;
  codes[1] = 0;
  codes.back() = 0;
  EXPECT_EQ(to_std_vector(A.codes), codes);
  EXPECT_NO_THROW(A.validate());
  // Codes, table, partition and workspace (the CSR structure is shared).
  EXPECT_EQ(A.bytes(), A.balanced.bytes() + h.values.size() + 3 * sizeof(double));
}

// 200 values that round (k * 0.1): the same bits as CSR holding them (cases.hpp).
TYPED_TEST(CodedCsr, SameBitsAsCsrHoldingTheValues) {
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr h = random_csr(RandomShape{4000, 3000, 30, 0.1, 9000}, rng);
  for (double& v : h.values) v = 0.1 * double(rng() % 200);
  expect_same_bits_as_csr<TypeParam, kspmv::CodedCsrMatrix>(h, rng);
}

// A row of 50,000 entries spans many blocks: its partials are added in block order, the same bits
// every run.
TYPED_TEST(CodedCsr, RowsSpanningManyBlocksSameBitsEveryRun) {
  using Device = DeviceOf<TypeParam>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const kspmv::HostCsr h = with_values_from(random_csr(RandomShape{3000, 400000, 40, 0.2, 50000}, rng), 5);
  const auto A = kspmv::convert<kspmv::CodedCsrMatrix>(kspmv::to_device<double, int, int, Device>(h));
  EXPECT_NO_THROW(A.validate());
  EXPECT_GT(A.balanced.num_blocks(), 1);
  expect_same_bits_every_run<TypeParam>(A, h, rng, {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar});
}

// Mixed precision (float values, double vectors) and complex<float> values: the Kokkos kernel.
TYPED_TEST(CodedCsr, MixedPrecision) {
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = with_values_from(random_csr(RandomShape{700, 500, 9, 0.1, 0}, rng), 4);
  const auto x = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  EXPECT_TRUE((check_spmv_mode<TypeParam, float, int, int, kspmv::CodedCsrMatrix, double>(h, "N", 2.0, x, 1.0, y0)));
}

// An entry of the run'th run of `stride` entries that the value sample does not take.
int64_t not_sampled(int64_t run, int64_t stride, int64_t nnz) {
  const int64_t taken = kspmv::impl::coded_sample_entry(run, stride, nnz);
  return taken > run * stride ? taken - 1 : taken + 1;
}

// The sample takes one entry of each run, at a place that varies from run to run (values that
// repeat with a period of the runs' length are not all missed), and none outside its run.
TEST(CodedSample, OneEntryOfEachRunAtVaryingPlaces) {
  const int64_t nnz = 1000003, stride = nnz / kspmv::impl::coded_sample;
  std::set<int64_t> places;
  for (int64_t i = 0; i * stride < nnz; ++i) {
    const int64_t e = kspmv::impl::coded_sample_entry(i, stride, nnz);
    ASSERT_GE(e, i * stride);
    ASSERT_LT(e, std::min(nnz, (i + 1) * stride));
    places.insert(e - i * stride);
  }
  EXPECT_EQ(int64_t(places.size()), stride);  // every place within a run taken by some run
  EXPECT_EQ(kspmv::impl::coded_sample_entry(5, 1, 100), 5);  // runs of one entry: every entry
}

// 257 distinct values are refused, in the sample of the first pass (a matrix of 300,000 entries
// with 257 values evenly spread) and in the full pass (one value beyond 256 placed between the
// sampled entries); complex<double> values (16 bytes) are refused.
TYPED_TEST(CodedCsr, RefusesMoreThan256Values) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr h = random_csr(RandomShape{6000, 6000, 100, 0.0, 0}, rng);
  ASSERT_GT(h.values.size(), size_t(2 * kspmv::impl::coded_sample));
  for (size_t k = 0; k < h.values.size(); ++k) h.values[k] = double(k % 257);
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::convert<kspmv::CodedCsrMatrix>(kspmv::to_device<double, int, int, Device>(h)); },
      "kspmv::convert<CodedCsrMatrix>: more than 256 distinct values"));
  const int64_t nnz = int64_t(h.values.size()), stride = nnz / kspmv::impl::coded_sample;
  for (size_t k = 0; k < h.values.size(); ++k) h.values[k] = double(int64_t(k) / stride % 256);
  // 256 values, the most a table holds (the codes pass's lookup of 512 slots half full, its
  // probe sequences crossing): every code decodes to its entry's value (validate).
  const auto full = kspmv::convert<kspmv::CodedCsrMatrix>(kspmv::to_device<double, int, int, Device>(h));
  EXPECT_EQ(full.table.extent(0), size_t(256));
  EXPECT_NO_THROW(full.validate());
  const size_t unsampled = size_t(not_sampled(1000, stride, nnz));
  h.values[unsampled] = 1000.5;
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::convert<kspmv::CodedCsrMatrix>(kspmv::to_device<double, int, int, Device>(h)); },
      "more than 256 distinct values"));
  kspmv::HostCsr z = golden_5x5();
  z.complex_field = true;
  z.imaginary.assign(z.values.size(), 1.0);
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::convert<kspmv::CodedCsrMatrix>(kspmv::to_device<Kokkos::complex<double>, int, int, Device>(z)); },
      "values of 16 bytes are not coded"));
}

// Values only between the sampled entries (the sample sees one value, the matrix holds 4): the
// codes pass finds them, the table is made again from all, and every code is right.
TYPED_TEST(CodedCsr, ValuesTheSampleMissesAreCoded) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr h = random_csr(RandomShape{6000, 6000, 100, 0.0, 0}, rng);
  ASSERT_GT(h.values.size(), size_t(2 * kspmv::impl::coded_sample));
  const int64_t nnz = int64_t(h.values.size()), stride = nnz / kspmv::impl::coded_sample;
  h.values.assign(h.values.size(), 1.5);
  h.values[size_t(not_sampled(7, stride, nnz))] = -2.0;
  h.values[size_t(not_sampled(500, stride, nnz))] = 0.25;
  h.values.back() = 3.0;
  const auto A = kspmv::convert<kspmv::CodedCsrMatrix>(kspmv::to_device<double, int, int, Device>(h));
  EXPECT_EQ(to_std_vector(A.table), (std::vector<double>{0.25, 1.5, 3.0, -2.0}));
  EXPECT_NO_THROW(A.validate());
  const auto x = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::CodedCsrMatrix>(h, 1.0, x, 0.5, y0, {kspmv::Algorithm::automatic})));
}

TYPED_TEST(CodedCsr, ValidateFindsAWrongCode) {
  using Device = DeviceOf<TypeParam>;
  const auto csr = kspmv::to_device<double, int, int, Device>(with_values_from(golden_5x5(), 3));
  const auto A = kspmv::convert<kspmv::CodedCsrMatrix>(csr);
  EXPECT_NO_THROW(A.validate());
  Kokkos::deep_copy(Kokkos::subview(A.codes, 2), uint8_t(7));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { A.validate(); }, "codes[2] = 7 is outside the table of"));
}

TYPED_TEST(CodedCsr, RefusesWhatDoesNotApply) {
  expect_compressed_values_refusals<TypeParam, kspmv::CodedCsrMatrix>(golden_5x5(), "CodedCsrMatrix");
}

}  // namespace
}  // namespace kspmv_test
