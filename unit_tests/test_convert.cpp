// kspmv::convert and kspmv::to_csr across formats: the same matrix through every format gives
// the same y, conversions keep sizes, empty shapes convert, and the row-length histogram counts.
#include <kspmv/convert.hpp>
#include <kspmv/generate.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Convert : public ::testing::Test {};
TYPED_TEST_SUITE(Convert, Backends, BackendName);

TYPED_TEST(Convert, EveryFormatOfThePoissonMatrixGivesTheSameProduct) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(9, 8, 7, 27);
  const kspmv::HostCsr h = kspmv::to_host(A);
  std::mt19937_64 rng(test_seed());
  const auto x = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::CsrMatrix>(h, 1.0, x, 1.0, y0, {})));
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::EllMatrix>(h, 1.0, x, 1.0, y0, {})));
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::BlockedEllMatrix>(h, 1.0, x, 1.0, y0, {})));
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::CooMatrix>(h, 1.0, x, 1.0, y0, {})));
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::HybMatrix>(h, 1.0, x, 1.0, y0, {})));
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::DiaMatrix>(h, 1.0, x, 1.0, y0, {})));
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::Csr16Matrix>(h, 1.0, x, 1.0, y0, {})));
}

TYPED_TEST(Convert, EmptyShapesConvertAndRoundTrip) {
  kspmv::HostCsr none;  // 0 x 0
  kspmv::HostCsr no_entries;
  no_entries.num_rows = 3;
  no_entries.num_cols = 4;
  no_entries.row_offsets = {0, 0, 0, 0};
  for (const kspmv::HostCsr* h : {&none, &no_entries}) {
    EXPECT_TRUE((check_round_trip<TypeParam, kspmv::EllMatrix>(*h)));
    EXPECT_TRUE((check_round_trip<TypeParam, kspmv::BlockedEllMatrix>(*h)));
    EXPECT_TRUE((check_round_trip<TypeParam, kspmv::CooMatrix>(*h)));
    EXPECT_TRUE((check_round_trip<TypeParam, kspmv::HybMatrix>(*h)));
    EXPECT_TRUE((check_round_trip<TypeParam, kspmv::DiaMatrix>(*h)));
    EXPECT_TRUE((check_round_trip<TypeParam, kspmv::Csr16Matrix>(*h)));
  }
}

TYPED_TEST(Convert, SizesAndNnzSurvive) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::read_csr<float, int64_t, size_t, Device>(data_dir() + "/Groebner_id2003_aug.mtx");
  const auto H = kspmv::convert<kspmv::HybMatrix>(A);
  const auto B = kspmv::convert<kspmv::BlockedEllMatrix>(A);
  EXPECT_EQ(H.num_rows(), 4967);
  EXPECT_EQ(H.num_cols(), 2456);
  EXPECT_EQ(H.nnz(), 173670u);
  EXPECT_EQ(B.nnz(), 173670u);
  EXPECT_GE(B.fill_ratio(), 1.0);
  EXPECT_EQ(kspmv::to_csr(H).nnz(), 173670u);
}

// Whether this backend can form A^T: on device memory the sort of each row needs Kokkos 4.1.
template <class ExecSpace>
bool transpose_available() {
  return KOKKOS_VERSION >= 40100 ||
         Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;
}

// kspmv::transpose against the host transposition, array for array (each row of A^T by
// increasing row of A), on every random shape: rectangular, empty rows and columns, duplicate
// columns, a row of 20000 entries, m or n = 0. conjugate_transpose of a real matrix is the same.
TYPED_TEST(Convert, TransposeIsTheHostTransposition) {
  if (!transpose_available<TypeParam>()) GTEST_SKIP() << "A^T on a device needs Kokkos 4.1";
  using Device = DeviceOf<TypeParam>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const RandomCase& c : random_cases) {
    SCOPED_TRACE(c.what);
    const kspmv::HostCsr h = random_csr(c.shape, rng);
    const kspmv::HostCsr expected = transpose_host(h);
    const auto A = kspmv::to_device<double, int, int64_t, Device>(h);
    for (const bool conjugate : {false, true}) {
      const auto T = conjugate ? kspmv::conjugate_transpose(A) : kspmv::transpose(A);
      const kspmv::HostCsr got = kspmv::to_host(T);
      EXPECT_EQ(got.num_rows, h.num_cols);
      EXPECT_EQ(got.num_cols, h.num_rows);
      EXPECT_EQ(got.row_offsets, expected.row_offsets);
      EXPECT_EQ(got.col_indices, expected.col_indices);
      EXPECT_EQ(got.values, expected.values);
    }
  }
}

// A^H of a complex matrix: the transposition with every imaginary part negated; A^T keeps them.
TYPED_TEST(Convert, ConjugateTransposeOfComplexValues) {
  if (!transpose_available<TypeParam>()) GTEST_SKIP() << "A^T on a device needs Kokkos 4.1";
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = with_random_imaginary_parts(random_csr({300, 170, 9, 0.1, 0}, rng), rng);
  const kspmv::HostCsr expected = transpose_host(h);
  const auto A = kspmv::to_device<Kokkos::complex<double>, int, int, Device>(h);
  const kspmv::HostCsr t = kspmv::to_host(kspmv::transpose(A));
  const kspmv::HostCsr c = kspmv::to_host(kspmv::conjugate_transpose(A));
  ASSERT_EQ(c.col_indices, expected.col_indices);
  EXPECT_EQ(t.values, expected.values);
  EXPECT_EQ(t.imaginary, expected.imaginary);
  EXPECT_EQ(c.values, expected.values);
  std::vector<double> negated = expected.imaginary;
  for (double& v : negated) v = -v;
  EXPECT_EQ(c.imaginary, negated);
}

// The row-length histogram behind HYB's width and the plan's analysis (impl/convert_common.hpp:
// length_histogram) against a host count: a run of one length (a stencil), rows alternating
// between two lengths (each thread's runs short), random lengths up to 3000 (bins past the 1024 a
// team counts in scratch), empty rows; capped at the true longest row, below it, and at 6.
TYPED_TEST(Convert, RowLengthHistogramCountsEveryRow) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(test_seed());
  std::vector<int64_t> lengths(5000, 7);
  for (int i = 0; i < 5000; ++i) lengths.push_back(i % 3 == 0 ? 1 : 6);
  std::uniform_int_distribution<int64_t> spread(0, 3000);
  for (int i = 0; i < 3000; ++i) lengths.push_back(spread(rng));
  lengths.insert(lengths.end(), 100, 0);
  Kokkos::View<int*, Device> offsets("offsets", lengths.size() + 1);
  auto host_offsets = Kokkos::create_mirror_view(offsets);
  host_offsets(0) = 0;
  for (size_t i = 0; i < lengths.size(); ++i) host_offsets(i + 1) = host_offsets(i) + int(lengths[i]);
  Kokkos::deep_copy(offsets, host_offsets);
  const int64_t longest = *std::max_element(lengths.begin(), lengths.end());
  const kspmv::impl::RowLengthsOf<decltype(offsets)> device_lengths{offsets};
  for (const int64_t cap : {longest, int64_t(500), int64_t(6)}) {
    SCOPED_TRACE("cap " + std::to_string(cap));
    std::vector<int64_t> expected(size_t(cap) + 1, 0);
    for (const int64_t len : lengths) ++expected[size_t(std::min(len, cap))];
    const auto histogram = kspmv::impl::length_histogram<TypeParam>(device_lengths, cap);
    const auto got = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram);
    ASSERT_EQ(got.extent(0), expected.size());
    for (size_t b = 0; b < expected.size(); ++b) EXPECT_EQ(got(b), expected[b]) << "rows of length " << b;
  }
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// kspmv::convert's options, one field out of range at a time: std::invalid_argument naming the
// field, whichever format the options go to (ELLPACK here, though only max_fill_ratio is its).
// The limits a matrix exceeds are tested with their formats (test_ell, test_blocked_ell,
// test_dia, test_csr16). to_csr takes any matrix of a kspmv format. Default backend only.
TEST(ConvertBadArgument, OptionsOutOfRange) {
  const auto A = kspmv::to_device<double, int, int, DefaultDevice>(golden_5x5());
  struct Case {
    void (*breaks)(kspmv::ConvertOptions&);
    const char* needle;
  };
  const Case cases[] = {
      {[](kspmv::ConvertOptions& o) { o.slice_height = -8; }, "ConvertOptions::slice_height = -8 is negative"},
      {[](kspmv::ConvertOptions& o) { o.sigma = 0; }, "ConvertOptions::sigma = 0 must be at least 1"},
      {[](kspmv::ConvertOptions& o) { o.hyb_width = -2; }, "ConvertOptions::hyb_width = -2 must be -1 (automatic) or at least 0"},
      {[](kspmv::ConvertOptions& o) { o.max_fill_ratio = 0; }, "ConvertOptions::max_fill_ratio = 0.000000 must be positive"},
      {[](kspmv::ConvertOptions& o) { o.max_fill_ratio = std::nan(""); }, "ConvertOptions::max_fill_ratio = nan must be positive"},
      {[](kspmv::ConvertOptions& o) { o.max_diagonals = -1; }, "ConvertOptions::max_diagonals = -1 is negative"},
  };
  for (const Case& c : cases) {
    kspmv::ConvertOptions o;
    c.breaks(o);
    EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::convert<kspmv::EllMatrix>(A, o); },
                                                   std::string("kspmv::convert: ") + c.needle));
  }
}

}  // namespace
}  // namespace kspmv_test
