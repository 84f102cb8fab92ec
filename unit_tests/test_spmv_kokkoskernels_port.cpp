// KokkosKernels' own spmv unit tests (sparse/unit_test/Test_Sparse_spmv.hpp at 4.7.00), written
// again for kspmv from reading theirs: the same cases, sizes, alpha/beta, NaN in y and tolerance
// (10 eps of the scalar's magnitude type, times beta*max_y + alpha*max_row_length*max_val*max_x),
// on every enabled backend. How each of their cases maps here:
//  - test_spmv_algorithms (EXECUTE_TEST_FN, six sizes): SPMV_DEFAULT, NATIVE, MERGE_PATH and
//    NATIVE_MERGE_PATH become Algorithm::automatic, csr_scalar, csr_vector and csr_balanced (the
//    load-balanced kernel is kspmv's merge-path analogue), and raw where it runs (mode N);
//  - test_spmv_mv and test_spmv_mv_heavy (EXECUTE_TEST_MV, both layouts), and the mixed-layout
//    case (x LayoutRight, y LayoutLeft): the same;
//  - test_github_issue_101: float values with double x and y (mixed precision), one and 1..22
//    vectors, exact;
//  - test_spmv_all_interfaces_light: kspmv has no handle (the analysis is kept with the matrix),
//    so its four interfaces are spmv(space, mode, ...), spmv(mode, ...), spmv(space, ...) and
//    spmv(...), rank 1 and rank 2, on a partition of the default instance where Kokkos has them;
//  - test_spmv_struct_1D/2D/3D and test_spmv_mv_struct_1D: kspmv has no spmv_struct; its
//    structured format is DiaMatrix, so the same grid sizes run the 3-, 5-/9- and 7-/27-point
//    operators (kspmv::poisson_3d, Dirichlet boundaries by omission, where theirs keep identity
//    rows) through DiaMatrix and the automatic CSR call, several vectors on CSR.
// Not ported: Test_Sparse_spmv_bsr.hpp (kspmv has no block-sparse format). Their generator
// (kk_generate_sparse_matrix) is replaced by random_banded below: row lengths uniform in the
// average +- the variance, distinct columns within the bandwidth of the diagonal.
#include <kspmv/convert.hpp>
#include <kspmv/generate.hpp>
#include <kspmv/spmv.hpp>

#include "backends.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace kspmv_test {
namespace {

template <class Scalar>
using Mag = typename kspmv::impl::is_complex<Scalar>::real_type;

template <class Scalar>
constexpr bool is_complex_v = kspmv::impl::is_complex<Scalar>::value;

// The host reference's scalar: long double parts, so its own rounding is far below the bound.
template <class Scalar>
using Exact = std::conditional_t<is_complex_v<Scalar>, std::complex<long double>, long double>;

template <class Scalar>
Exact<Scalar> exact(const Scalar& s) {
  if constexpr (is_complex_v<Scalar>) {
    return Exact<Scalar>((long double)s.real(), (long double)s.imag());
  } else {
    return Exact<Scalar>(s);
  }
}

template <class Scalar>
Exact<Scalar> conj_if(const Exact<Scalar>& v, bool conjugate) {
  if constexpr (is_complex_v<Scalar>) {
    return conjugate ? std::conj(v) : v;
  } else {
    return v;
  }
}

// Uniform in [0, bound) (both parts for complex): KokkosKernels' fill_random with an upper bound.
template <class Scalar>
Scalar random_scalar(std::mt19937_64& rng, double bound) {
  std::uniform_real_distribution<double> u(0.0, bound);
  if constexpr (is_complex_v<Scalar>) {
    return Scalar(Mag<Scalar>(u(rng)), Mag<Scalar>(u(rng)));
  } else {
    return Scalar(u(rng));
  }
}

template <class Scalar>
bool is_nan(const Scalar& s) {
  if constexpr (is_complex_v<Scalar>) {
    return std::isnan(double(s.real())) || std::isnan(double(s.imag()));
  } else {
    return std::isnan(double(s));
  }
}

template <class Scalar>
Scalar nan_scalar() {
  const Mag<Scalar> q = std::numeric_limits<Mag<Scalar>>::quiet_NaN();
  if constexpr (is_complex_v<Scalar>) {
    return Scalar(q, q);
  } else {
    return q;
  }
}

// A host CSR matrix in Scalar.
template <class Scalar>
struct Host {
  int64_t rows = 0, cols = 0;
  std::vector<int64_t> offsets{0}, columns;
  std::vector<Scalar> values;
  int64_t longest() const {
    int64_t l = 0;
    for (int64_t i = 0; i < rows; ++i) l = std::max(l, offsets[i + 1] - offsets[i]);
    return l;
  }
};

// rows x cols, about nnz entries: row lengths uniform in nnz/rows +- variance (at least 0, at
// most the band), distinct sorted columns within `bandwidth` of the diagonal, values in
// [0, max_val).
template <class Scalar>
Host<Scalar> random_banded(int64_t rows, int64_t cols, int64_t nnz, int64_t variance, int64_t bandwidth,
                           double max_val, std::mt19937_64& rng) {
  Host<Scalar> h;
  h.rows = rows;
  h.cols = cols;
  const int64_t average = rows > 0 ? nnz / rows : 0;
  std::uniform_int_distribution<int64_t> spread(-variance, variance);
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t lo = std::max<int64_t>(0, i - bandwidth), hi = std::min<int64_t>(cols - 1, i + bandwidth);
    const int64_t band = hi >= lo ? hi - lo + 1 : 0;
    const int64_t length = std::min(band, std::max<int64_t>(0, average + spread(rng)));
    std::set<int64_t> picked;
    std::uniform_int_distribution<int64_t> column(lo, std::max(lo, hi));
    while (int64_t(picked.size()) < length) picked.insert(column(rng));
    for (const int64_t c : picked) {
      h.columns.push_back(c);
      h.values.push_back(random_scalar<Scalar>(rng, max_val));
    }
    h.offsets.push_back(int64_t(h.columns.size()));
  }
  return h;
}

template <class Scalar, class Ordinal, class Offset, class Device>
kspmv::CsrMatrix<Scalar, Ordinal, Offset, Device> to_device(const Host<Scalar>& h) {
  std::vector<Offset> offsets(h.offsets.begin(), h.offsets.end());
  std::vector<Ordinal> columns(h.columns.begin(), h.columns.end());
  return kspmv::CsrMatrix<Scalar, Ordinal, Offset, Device>::from_host(Ordinal(h.rows), Ordinal(h.cols), offsets.data(),
                                                                      columns.data(), h.values.data());
}

// y = alpha*op(A)*x + beta*y on the host (beta == 0 ignores y), KokkosKernels' sequential_spmv.
template <class Scalar>
std::vector<Exact<Scalar>> reference(const Host<Scalar>& A, char mode, Scalar alpha, const std::vector<Scalar>& x,
                                     Scalar beta, const std::vector<Scalar>& y) {
  const bool t = mode == 'T' || mode == 'H', c = mode == 'C' || mode == 'H';
  std::vector<Exact<Scalar>> r(y.size());
  for (size_t i = 0; i < y.size(); ++i) r[i] = beta == Scalar(0) ? Exact<Scalar>(0) : exact(beta) * exact(y[i]);
  for (int64_t i = 0; i < A.rows; ++i) {
    for (int64_t k = A.offsets[i]; k < A.offsets[i + 1]; ++k) {
      const Exact<Scalar> a = conj_if<Scalar>(exact(A.values[k]), c);
      const int64_t j = A.columns[k];
      if (t) {
        r[j] += exact(alpha) * a * exact(x[i]);
      } else {
        r[i] += exact(alpha) * a * exact(x[j]);
      }
    }
  }
  return r;
}

// KokkosKernels' fSPMV: an entry fails if exactly one of the two is NaN or they differ by more
// than eps * max_val (eps = 10 epsilon of the magnitude type).
template <class Scalar>
::testing::AssertionResult within(const std::vector<Scalar>& got, const std::vector<Exact<Scalar>>& expected,
                                  double max_val) {
  const long double bound = 10.0L * std::numeric_limits<Mag<Scalar>>::epsilon() * std::abs((long double)max_val);
  int bad = 0;
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  for (size_t i = 0; i < got.size(); ++i) {
    const bool expected_nan = std::isnan((double)std::abs(expected[i]));
    const long double error = std::abs(exact(got[i]) - expected[i]);
    if ((expected_nan != is_nan(got[i])) || (!expected_nan && !(error <= bound))) {
      if (bad < 4) failure << "\n  y(" << i << "): error " << (double)error << ", bound " << (double)bound;
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return failure << "\n  " << bad << " of " << got.size() << " entries wrong";
}

template <class Scalar, class Device>
Kokkos::View<Scalar*, Device> device_vector(const std::vector<Scalar>& v) {
  Kokkos::View<Scalar*, Device> d("v", v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (size_t i = 0; i < v.size(); ++i) h(i) = v[i];
  Kokkos::deep_copy(d, h);
  return d;
}

template <class View>
std::vector<typename View::non_const_value_type> host_vector(const View& d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  std::vector<typename View::non_const_value_type> v(d.extent(0));
  for (size_t i = 0; i < v.size(); ++i) v[i] = h(i);
  return v;
}

template <class Scalar>
std::vector<Scalar> random_vector_of(size_t n, double bound, std::mt19937_64& rng) {
  std::vector<Scalar> v(n);
  for (auto& e : v) e = random_scalar<Scalar>(rng, bound);
  return v;
}

// The algorithms standing for KokkosKernels' four (see the file comment), and raw in mode N.
template <class ExecSpace, class Scalar, class Ordinal, class Offset>
std::vector<kspmv::Algorithm> algorithms(bool transpose) {
  std::vector<kspmv::Algorithm> a = {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar,
                                     kspmv::Algorithm::csr_vector, kspmv::Algorithm::csr_balanced};
  if (!transpose && kspmv::impl::raw_available<ExecSpace, Scalar, Ordinal, Offset>()) a.push_back(kspmv::Algorithm::raw);
  return a;
}

// test_spmv: modes N and T (and C, H when heavy), alpha and beta in {0, 1} (and -1, 2.5), with
// beta == 0 also on a y holding NaN every 19th entry (23rd for A^T's y).
template <class ExecSpace, class Scalar, class Ordinal, class Offset>
void test_spmv(int64_t rows, int64_t nnz, int64_t bandwidth, int64_t variance, bool heavy) {
  using Device = DeviceOf<ExecSpace>;
  SCOPED_TRACE("rows " + std::to_string(rows) + ", nnz " + std::to_string(nnz) + ", bandwidth " +
               std::to_string(bandwidth) + ", variance " + std::to_string(variance));
  std::mt19937_64 rng(13718);
  const double max_x = 1, max_y = 1, max_val = 1;
  const Host<Scalar> h = random_banded<Scalar>(rows, rows, nnz, variance, bandwidth, max_val, rng);
  const auto A = to_device<Scalar, Ordinal, Offset, Device>(h);
  const double max_row = double(rows ? nnz / rows + variance : 0);
  const auto x = random_vector_of<Scalar>(size_t(rows), max_x, rng), xt = random_vector_of<Scalar>(size_t(rows), max_x, rng);
  const auto y = random_vector_of<Scalar>(size_t(rows), max_y, rng), yt = random_vector_of<Scalar>(size_t(rows), max_y, rng);
  std::vector<const char*> modes = {"N", "T"};
  std::vector<double> alpha_beta = {0.0, 1.0};
  if (heavy) {
    modes = {"N", "C", "T", "H"};
    alpha_beta.push_back(-1.0);
    alpha_beta.push_back(2.5);
  }
  for (const char* mode : modes) {
    const bool t = mode[0] == 'T' || mode[0] == 'H';
    for (const kspmv::Algorithm algorithm : algorithms<ExecSpace, Scalar, Ordinal, Offset>(t)) {
      SCOPED_TRACE(std::string("mode ") + mode + ", " + kspmv::to_string(algorithm));
      for (const double alpha : alpha_beta) {
        for (const double beta : alpha_beta) {
          const double max_error = beta * max_y + alpha * max_row * max_val * max_x;
          std::vector<std::vector<Scalar>> y0s = {t ? yt : y};
          if (beta == 0) {  // and with NaN sprinkled in
            y0s.push_back(y0s[0]);
            for (size_t i = 0; i < y0s[1].size(); i += t ? 23 : 19) y0s[1][i] = nan_scalar<Scalar>();
          }
          for (const auto& y0 : y0s) {
            auto xd = device_vector<Scalar, Device>(t ? xt : x);
            auto yd = device_vector<Scalar, Device>(y0);
            kspmv::spmv(ExecSpace(), mode, Scalar(alpha), A, xd, Scalar(beta), yd, {algorithm});
            EXPECT_TRUE(within(host_vector(yd), reference(h, mode[0], Scalar(alpha), t ? xt : x, Scalar(beta), y0),
                               max_error))
                << "alpha " << alpha << ", beta " << beta;
          }
        }
      }
    }
  }
}

// EXECUTE_TEST_FN's six sizes.
template <class ExecSpace, class Scalar, class Ordinal, class Offset>
void test_spmv_algorithms() {
  test_spmv<ExecSpace, Scalar, Ordinal, Offset>(1000, 1000 * 3, 200, 10, true);
  test_spmv<ExecSpace, Scalar, Ordinal, Offset>(1000, 1000 * 3, 100, 10, true);
  test_spmv<ExecSpace, Scalar, Ordinal, Offset>(1000, 1000 * 20, 100, 5, true);
  test_spmv<ExecSpace, Scalar, Ordinal, Offset>(50000, 50000 * 3, 20, 10, false);
  test_spmv<ExecSpace, Scalar, Ordinal, Offset>(50000, 50000 * 3, 100, 10, false);
  test_spmv<ExecSpace, Scalar, Ordinal, Offset>(10000, 10000 * 2, 100, 5, false);
}

// Y = alpha*op(A)*X + beta*Y for rank-2 X (LayoutX) and Y (LayoutY) of k columns, each column
// against the reference (check_spmv_mv).
template <class ExecSpace, class Scalar, class LayoutX, class LayoutY, class Matrix>
::testing::AssertionResult check_mv(const Matrix& A, const Host<Scalar>& h, const char* mode, double alpha,
                                    double beta, const std::vector<std::vector<Scalar>>& x,
                                    const std::vector<std::vector<Scalar>>& y, double max_error) {
  using Device = DeviceOf<ExecSpace>;
  const size_t k = x.size(), nx = x[0].size(), ny = y[0].size();
  Kokkos::View<Scalar**, LayoutX, Device> xd("X", nx, k);
  Kokkos::View<Scalar**, LayoutY, Device> yd("Y", ny, k);
  auto xh = Kokkos::create_mirror_view(xd);
  auto yh = Kokkos::create_mirror_view(yd);
  for (size_t j = 0; j < k; ++j) {
    for (size_t i = 0; i < nx; ++i) xh(i, j) = x[j][i];
    for (size_t i = 0; i < ny; ++i) yh(i, j) = y[j][i];
  }
  Kokkos::deep_copy(xd, xh);
  Kokkos::deep_copy(yd, yh);
  kspmv::spmv(ExecSpace(), mode, Scalar(alpha), A, xd, Scalar(beta), yd);
  Kokkos::deep_copy(yh, yd);
  for (size_t j = 0; j < k; ++j) {
    std::vector<Scalar> column(ny);
    for (size_t i = 0; i < ny; ++i) column[i] = yh(i, j);
    auto result = within(column, reference(h, mode[0], Scalar(alpha), x[j], Scalar(beta), y[j]), max_error);
    if (!result) {
      return result << "\n  vector " << j << " of " << k << ", mode " << mode << ", alpha " << alpha << ", beta "
                    << beta;
    }
  }
  return ::testing::AssertionSuccess();
}

template <class Scalar>
std::vector<std::vector<Scalar>> random_columns(size_t k, size_t n, double bound, std::mt19937_64& rng) {
  std::vector<std::vector<Scalar>> v(k);
  for (auto& column : v) column = random_vector_of<Scalar>(n, bound, rng);
  return v;
}

// test_spmv_mv: k vectors, modes N and T (C and H when heavy), alpha and beta in {0, 1} (and
// -1, 2.5).
template <class ExecSpace, class Scalar, class Ordinal, class Offset, class Layout>
void test_spmv_mv(int64_t rows, int64_t nnz, int64_t bandwidth, int64_t variance, bool heavy, int k) {
  using Device = DeviceOf<ExecSpace>;
  SCOPED_TRACE("mv: rows " + std::to_string(rows) + ", nnz " + std::to_string(nnz) + ", k " + std::to_string(k));
  std::mt19937_64 rng(13718);
  const double max_x = 1, max_y = 1, max_val = 1;
  const Host<Scalar> h = random_banded<Scalar>(rows, rows, nnz, variance, bandwidth, max_val, rng);
  const auto A = to_device<Scalar, Ordinal, Offset, Device>(h);
  const double max_row = double(rows ? nnz / rows + variance : 0);
  const auto x = random_columns<Scalar>(size_t(k), size_t(rows), max_x, rng);
  const auto y = random_columns<Scalar>(size_t(k), size_t(rows), max_y, rng);
  std::vector<const char*> modes = {"N", "T"};
  std::vector<double> alpha_beta = {0.0, 1.0};
  if (heavy) {
    modes = {"N", "C", "T", "H"};
    alpha_beta.push_back(-1.0);
    alpha_beta.push_back(2.5);
  }
  for (const char* mode : modes) {
    for (const double alpha : alpha_beta) {
      for (const double beta : alpha_beta) {
        EXPECT_TRUE((check_mv<ExecSpace, Scalar, Layout, Layout>(A, h, mode, alpha, beta, x, y,
                                                                 beta * max_y + alpha * max_row * max_val * max_x)));
      }
    }
  }
}

// test_spmv_mv_heavy: rectangular, values, x and y in [0, 10), every vector count 1..k, the four
// modes with alpha and beta in {0, 1, -1, 2.5}.
template <class ExecSpace, class Scalar, class Ordinal, class Offset, class LayoutX, class LayoutY>
void test_spmv_mv_heavy(int64_t rows, int64_t cols, int64_t nnz, int64_t bandwidth, int64_t variance, int k) {
  using Device = DeviceOf<ExecSpace>;
  SCOPED_TRACE("mv heavy: " + std::to_string(rows) + " x " + std::to_string(cols) + ", nnz " + std::to_string(nnz));
  std::mt19937_64 rng(13718);
  const double max_x = 10, max_y = 10, max_val = 10;
  const Host<Scalar> h = random_banded<Scalar>(rows, cols, nnz, variance, bandwidth, max_val, rng);
  const auto A = to_device<Scalar, Ordinal, Offset, Device>(h);
  const double max_row = double(rows ? nnz / rows + variance : 0);
  for (int nv = 1; nv <= k; ++nv) {
    SCOPED_TRACE(std::to_string(nv) + " vectors");
    const auto x = random_columns<Scalar>(size_t(nv), size_t(cols), max_x, rng);
    const auto y = random_columns<Scalar>(size_t(nv), size_t(rows), max_y, rng);
    const auto xt = random_columns<Scalar>(size_t(nv), size_t(rows), max_x, rng);
    const auto yt = random_columns<Scalar>(size_t(nv), size_t(cols), max_y, rng);
    for (const char* mode : {"N", "C", "T", "H"}) {
      const bool t = mode[0] == 'T' || mode[0] == 'H';
      for (const double alpha : {0.0, 1.0, -1.0, 2.5}) {
        for (const double beta : {0.0, 1.0, -1.0, 2.5}) {
          EXPECT_TRUE((check_mv<ExecSpace, Scalar, LayoutX, LayoutY>(A, h, mode, alpha, beta, t ? xt : x, t ? yt : y,
                                                                     beta * max_y + alpha * max_row * max_val * max_x)));
        }
      }
    }
  }
}

template <class ExecSpace, class Scalar, class Ordinal, class Offset>
void test_all_mv() {
  for (const bool right : {false, true}) {
    SCOPED_TRACE(right ? "LayoutRight" : "LayoutLeft");
    const auto run = [](auto layout) {
      using Layout = decltype(layout);
      test_spmv_mv<ExecSpace, Scalar, Ordinal, Offset, Layout>(1001, 1001 * 3, 200, 10, true, 1);
      test_spmv_mv<ExecSpace, Scalar, Ordinal, Offset, Layout>(999, 999 * 3, 100, 10, true, 5);
      test_spmv_mv<ExecSpace, Scalar, Ordinal, Offset, Layout>(1003, 1003 * 2, 100, 5, true, 10);
      test_spmv_mv<ExecSpace, Scalar, Ordinal, Offset, Layout>(50007, 50007 * 3, 20, 10, false, 1);
      test_spmv_mv<ExecSpace, Scalar, Ordinal, Offset, Layout>(50002, 50002 * 3, 100, 10, false, 1);
      test_spmv_mv<ExecSpace, Scalar, Ordinal, Offset, Layout>(10000, 10000 * 2, 100, 5, false, 5);
      test_spmv_mv_heavy<ExecSpace, Scalar, Ordinal, Offset, Layout, Layout>(204, 201, 204 * 10, 60, 4, 30);
      test_spmv_mv_heavy<ExecSpace, Scalar, Ordinal, Offset, Layout, Layout>(2, 3, 5, 3, 1, 10);
    };
    if (right) {
      run(Kokkos::LayoutRight());
    } else {
      run(Kokkos::LayoutLeft());
    }
  }
  // EXECUTE_TEST_MV_MIXED_LAYOUT
  test_spmv_mv_heavy<ExecSpace, Scalar, Ordinal, Offset, Kokkos::LayoutRight, Kokkos::LayoutLeft>(99, 101, 100 * 15, 40,
                                                                                                  4, 20);
}

template <class ExecSpace>
class KokkosKernelsPort : public ::testing::Test {};
TYPED_TEST_SUITE(KokkosKernelsPort, Backends, BackendName);

// The type combinations of KokkosKernels' default instantiation (double, float, complex<double>,
// complex<float>; int ordinals; int and size_t offsets), each scalar once.
TYPED_TEST(KokkosKernelsPort, SpmvAlgorithms) {
  test_spmv_algorithms<TypeParam, double, int, int>();
  test_spmv_algorithms<TypeParam, float, int, size_t>();
  test_spmv_algorithms<TypeParam, Kokkos::complex<double>, int, int>();
  test_spmv_algorithms<TypeParam, Kokkos::complex<float>, int, size_t>();
}

TYPED_TEST(KokkosKernelsPort, SpmvMultivector) {
  test_all_mv<TypeParam, double, int, int>();
  test_all_mv<TypeParam, float, int, size_t>();
  test_all_mv<TypeParam, Kokkos::complex<double>, int, int>();
  test_all_mv<TypeParam, Kokkos::complex<float>, int, size_t>();
}

// test_github_issue_101: A = [1, eps_float/2] (1 x 2), x = 1: y = 1 + eps_float/2 exactly, in
// double and in mixed precision (float values, double vectors), one vector and 1..22.
TYPED_TEST(KokkosKernelsPort, GithubIssue101) {
  using Device = DeviceOf<TypeParam>;
  const float eps = std::numeric_limits<float>::epsilon();
  const double expected = 1.0 + double(eps) / 2.0;
  const int offsets[2] = {0, 2}, columns[2] = {0, 1};
  const double values_d[2] = {1.0, double(eps) / 2.0};
  const float values_f[2] = {1.0f, eps / 2.0f};
  const auto A_d = kspmv::CsrMatrix<double, int, int, Device>::from_host(1, 2, offsets, columns, values_d);
  const auto A_f = kspmv::CsrMatrix<float, int, int, Device>::from_host(1, 2, offsets, columns, values_f);
  const auto check = [&](const auto& A) {
    Kokkos::View<double*, Device> x("x", 2), y("y", 1);
    Kokkos::deep_copy(x, 1.0);
    kspmv::spmv("N", 1.0, A, x, 0.0, y);
    EXPECT_EQ(host_vector(y)[0], expected);
    Kokkos::View<double**, Kokkos::LayoutLeft, Device> X("X", 2, 22), Y("Y", 1, 22);
    Kokkos::deep_copy(X, 1.0);
    for (int k = 1; k <= 22; ++k) {
      const auto X_k = Kokkos::subview(X, Kokkos::ALL(), Kokkos::make_pair(0, k));
      const auto Y_k = Kokkos::subview(Y, Kokkos::ALL(), Kokkos::make_pair(0, k));
      Kokkos::deep_copy(Y, 0.0);
      kspmv::spmv("N", 1.0, A, X_k, 0.0, Y_k);
      auto Yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
      for (int j = 0; j < k; ++j) EXPECT_EQ(Yh(0, j), expected) << k << " vectors, vector " << j;
    }
  };
  check(A_d);
  check(A_f);
}

// test_spmv_all_interfaces_light: 111 x 99, 600 entries, values in [0, 50), x in [0, 10); the
// four call forms, rank 1 and 3 vectors, on a partition of the default instance where Kokkos
// offers one.
TYPED_TEST(KokkosKernelsPort, AllInterfacesLight) {
  using Device = DeviceOf<TypeParam>;
  using Scalar = double;
  std::mt19937_64 rng(13718);
  const int64_t m = 111, n = 99, nnz = 600;
  const Host<Scalar> h = random_banded<Scalar>(m, n, nnz, 2, int64_t(n * 0.7), 50.0, rng);
  const auto A = to_device<Scalar, int, int, Device>(h);
  const double max_error = double(nnz / m) * 50.0 * 10.0;
  const auto x = random_vector_of<Scalar>(size_t(n), 10.0, rng);
  const auto x_mv = random_columns<Scalar>(3, size_t(n), 10.0, rng);
  const std::vector<Scalar> zero(size_t(m), 0.0);
  const auto gold = reference(h, 'N', 1.0, x, 0.0, zero);
  auto xd = device_vector<Scalar, Device>(x);
  Kokkos::View<Scalar*, Device> y("y", m);
  Kokkos::View<Scalar**, Kokkos::LayoutLeft, Device> X("X", n, 3), Y("Y", m, 3);
  auto Xh = Kokkos::create_mirror_view(X);
  for (int j = 0; j < 3; ++j)
    for (int64_t i = 0; i < n; ++i) Xh(i, j) = x_mv[j][i];
  Kokkos::deep_copy(X, Xh);
  const auto verify = [&]() {
    EXPECT_TRUE(within(host_vector(y), gold, max_error));
    auto Yh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Y);
    for (int j = 0; j < 3; ++j) {
      std::vector<Scalar> column(static_cast<size_t>(m));
      for (int64_t i = 0; i < m; ++i) column[i] = Yh(i, j);
      EXPECT_TRUE(within(column, reference(h, 'N', 1.0, x_mv[j], 0.0, zero), max_error)) << "vector " << j;
    }
    Kokkos::deep_copy(y, 0.0);
    Kokkos::deep_copy(Y, 0.0);
  };
  TypeParam space;
#if KOKKOS_VERSION >= 40000
  std::vector<TypeParam> partitions;
  if (space.concurrency() > 1) {
    partitions = Kokkos::Experimental::partition_space(space, std::vector<int>(2, 1));
    space = partitions[1];
  }
#endif
  kspmv::spmv(space, "N", 1.0, A, xd, 0.0, y);  // space and mode
  kspmv::spmv(space, "N", 1.0, A, X, 0.0, Y);
  space.fence();
  verify();
  kspmv::spmv("N", 1.0, A, xd, 0.0, y);  // mode
  kspmv::spmv("N", 1.0, A, X, 0.0, Y);
  verify();
  kspmv::spmv(space, 1.0, A, xd, 0.0, y);  // space
  kspmv::spmv(space, 1.0, A, X, 0.0, Y);
  space.fence();
  verify();
  kspmv::spmv(1.0, A, xd, 0.0, y);  // neither
  kspmv::spmv(1.0, A, X, 0.0, Y);
  verify();
}

// test_spmv_struct_1D/2D/3D and test_spmv_mv_struct_1D: the grid operators of their sizes
// (3-point in 1D, 5- and 9-point in 2D, 7- and 27-point in 3D) through DiaMatrix and the
// automatic CSR call, alpha/beta (1, 0), (0, 1), (1, 1); one and two vectors in 1D.
TYPED_TEST(KokkosKernelsPort, StructuredGrids) {
  using Device = DeviceOf<TypeParam>;
  struct Grid {
    int nx, ny, nz;
  };
  const Grid grids[] = {{10, 1, 1},   {25, 21, 1},  {20, 25, 1},  {22, 22, 1},  {20, 20, 20},
                        {22, 22, 22}, {25, 10, 20}, {10, 20, 25}, {10, 24, 20}};
  std::mt19937_64 rng(13718);
  for (const Grid& g : grids) {
    for (const int points : {7, 27}) {
      SCOPED_TRACE(std::to_string(g.nx) + " x " + std::to_string(g.ny) + " x " + std::to_string(g.nz) + ", " +
                   std::to_string(points) + " points");
      const auto A = kspmv::poisson_3d<double, int, int, Device>(g.nx, g.ny, g.nz, points);
      const auto dia = kspmv::convert<kspmv::DiaMatrix>(A);
      auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_offsets);
      auto columns = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.col_indices);
      auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values);
      Host<double> h;
      h.rows = h.cols = A.num_rows();
      h.offsets.assign(offsets.data(), offsets.data() + offsets.extent(0));
      h.columns.assign(columns.data(), columns.data() + columns.extent(0));
      h.values.assign(values.data(), values.data() + values.extent(0));
      const double max_x = 1, max_y = 1, max_val = double(points - 1);
      const auto x = random_vector_of<double>(size_t(h.rows), max_x, rng);
      const auto y0 = random_vector_of<double>(size_t(h.rows), max_y, rng);
      const double max_row = double(h.longest());
      for (const auto& ab : {std::make_pair(1.0, 0.0), std::make_pair(0.0, 1.0), std::make_pair(1.0, 1.0)}) {
        const double max_error = ab.second * max_y + ab.first * max_row * max_val * max_x;
        const auto expected = reference(h, 'N', ab.first, x, ab.second, y0);
        auto xd = device_vector<double, Device>(x);
        auto yd = device_vector<double, Device>(y0);
        kspmv::spmv(TypeParam(), ab.first, dia, xd, ab.second, yd);
        EXPECT_TRUE(within(host_vector(yd), expected, max_error)) << "DIA";
        yd = device_vector<double, Device>(y0);
        kspmv::spmv(TypeParam(), ab.first, A, xd, ab.second, yd);
        EXPECT_TRUE(within(host_vector(yd), expected, max_error)) << "CSR";
        if (g.ny == 1 && g.nz == 1) {
          for (const int k : {1, 2}) {
            const auto xs = random_columns<double>(size_t(k), size_t(h.rows), max_x, rng);
            const auto ys = random_columns<double>(size_t(k), size_t(h.rows), max_y, rng);
            EXPECT_TRUE((check_mv<TypeParam, double, Kokkos::LayoutLeft, Kokkos::LayoutLeft>(
                A, h, "N", ab.first, ab.second, xs, ys, max_error)));
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace kspmv_test
