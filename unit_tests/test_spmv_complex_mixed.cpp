// kspmv::spmv with complex scalars (Kokkos::complex<float> and <double>, the four modes) and
// mixed precision (float values, double x and y), against the host reference.
#include <kspmv/io.hpp>
#include <kspmv/spmv.hpp>

#include "backends.hpp"
#include "cases.hpp"
#include "reference.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace kspmv_test {
namespace {

template <class ExecSpace>
class SpmvComplexAndMixed : public ::testing::Test {
 public:
  using Device = DeviceOf<ExecSpace>;
};
TYPED_TEST_SUITE(SpmvComplexAndMixed, Backends, BackendName);

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
TYPED_TEST(SpmvComplexAndMixed, ComplexHandComputed) {
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
TYPED_TEST(SpmvComplexAndMixed, ComplexEveryCaseModeAndFormat) {
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
TYPED_TEST(SpmvComplexAndMixed, ComplexOtherFormatsAndRealFile) {
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
TYPED_TEST(SpmvComplexAndMixed, ComplexMultivector) {
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
TYPED_TEST(SpmvComplexAndMixed, MixedPrecisionEveryCaseAndFormat) {
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
TYPED_TEST(SpmvComplexAndMixed, MixedPrecisionOtherShapes) {
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

}  // namespace
}  // namespace kspmv_test
