#pragma once
// The test oracle: a host SpMV in double, random matrices with a printed seed, and helpers to
// move vectors between host and device and compare against the reference with a bound that
// follows from floating-point error analysis rather than a guessed tolerance.

#include <kspmv/io.hpp>

#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <typeinfo>
#include <vector>

namespace kspmv_test {

// Seed for random tests: KSPMV_TEST_SEED if set (to replay a failure), else fresh each run.
inline uint64_t test_seed() {
  if (const char* s = std::getenv("KSPMV_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return std::random_device{}() * uint64_t(2654435761u) + std::random_device{}();
}

inline std::string data_dir() {
  if (const char* s = std::getenv("KSPMV_TEST_DATA_DIR")) return s;
  return KSPMV_TEST_DATA_DIR;
}

// y_ref = alpha*A*x + beta*y0 in double, and the magnitude bound
// bound_i = |alpha| * sum_k |a_ik x_k| + |beta y0_i| that scales the rounding error of row i.
struct Reference {
  std::vector<double> y;
  std::vector<double> magnitude;
  std::vector<int64_t> row_length;
};

inline Reference reference_spmv(double alpha, const kspmv::HostCsr& A, const std::vector<double>& x, double beta,
                                const std::vector<double>& y0) {
  Reference r;
  r.y.resize(A.num_rows);
  r.magnitude.resize(A.num_rows);
  r.row_length.resize(A.num_rows);
  for (int64_t i = 0; i < A.num_rows; ++i) {
    double sum = 0, mag = 0;
    for (int64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k) {
      sum += A.values[k] * x[A.col_indices[k]];
      mag += std::abs(A.values[k] * x[A.col_indices[k]]);
    }
    const double scaled_y = beta == 0 ? 0.0 : beta * y0[i];  // beta == 0 ignores y0, NaN included
    r.y[i] = alpha * sum + scaled_y;
    r.magnitude[i] = std::abs(alpha) * mag + std::abs(scaled_y);
    r.row_length[i] = A.row_offsets[i + 1] - A.row_offsets[i];
  }
  return r;
}

// A^T on the host, each row's entries by increasing row of A: the reference of mode T is
// reference_spmv on it.
inline kspmv::HostCsr transpose_host(const kspmv::HostCsr& A) {
  kspmv::HostCsr T;
  T.num_rows = A.num_cols;
  T.num_cols = A.num_rows;
  T.row_offsets.assign(size_t(A.num_cols) + 1, 0);
  for (const int64_t c : A.col_indices) ++T.row_offsets[size_t(c) + 1];
  for (size_t j = 0; j < size_t(A.num_cols); ++j) T.row_offsets[j + 1] += T.row_offsets[j];
  T.col_indices.resize(A.col_indices.size());
  T.values.resize(A.values.size());
  T.imaginary.resize(A.imaginary.size());
  T.complex_field = A.complex_field;
  std::vector<int64_t> next(T.row_offsets.begin(), T.row_offsets.end() - 1);
  for (int64_t i = 0; i < A.num_rows; ++i) {
    for (int64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k) {
      const int64_t at = next[size_t(A.col_indices[k])]++;
      T.col_indices[size_t(at)] = i;
      T.values[size_t(at)] = A.values[k];
      if (!A.imaginary.empty()) T.imaginary[size_t(at)] = A.imaginary[k];
    }
  }
  return T;
}

// Every entry must be finite and within (row length + 3) * eps(Scalar) * magnitude of the
// reference: the classical bound for a recursive or tree-shaped sum, with slack for the
// alpha/beta operations. A wrong index or a missed entry breaks it by orders of magnitude.
template <class Scalar>
::testing::AssertionResult matches_reference(const std::vector<Scalar>& y, const Reference& r) {
  if (y.size() != r.y.size()) return ::testing::AssertionFailure() << "size " << y.size() << " vs " << r.y.size();
  const double eps = std::numeric_limits<Scalar>::epsilon();
  int bad = 0;
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  for (size_t i = 0; i < y.size(); ++i) {
    const double tolerance = (double(r.row_length[i]) + 3.0) * eps * r.magnitude[i] + std::numeric_limits<Scalar>::min();
    const double err = std::abs(double(y[i]) - r.y[i]);
    if (!std::isfinite(double(y[i])) || !(err <= tolerance)) {
      if (bad < 5) failure << "\n  y[" << i << "] = " << y[i] << ", expected " << r.y[i] << " (tolerance " << tolerance << ")";
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return failure << "\n  " << bad << " of " << y.size() << " entries wrong";
}

// Complex scalars: the reference of y = alpha*op(A)*x + beta*y0 in std::complex<double> for the
// modes "N", "T", "C" and "H", and the same bound with |.| the complex modulus and the epsilon of
// the real type of the parts (a complex product adds a few roundings: the slack covers them).
using Complex = std::complex<double>;

struct ComplexReference {
  std::vector<Complex> y;
  std::vector<double> magnitude;
  std::vector<int64_t> row_length;
};

inline ComplexReference reference_spmv_complex(Complex alpha, const kspmv::HostCsr& A0, char mode,
                                               const std::vector<Complex>& x, Complex beta,
                                               const std::vector<Complex>& y0) {
  const bool transposed = mode == 'T' || mode == 'H', conjugated = mode == 'C' || mode == 'H';
  const kspmv::HostCsr A = transposed ? transpose_host(A0) : A0;
  ComplexReference r;
  r.y.resize(A.num_rows);
  r.magnitude.resize(A.num_rows);
  r.row_length.resize(A.num_rows);
  for (int64_t i = 0; i < A.num_rows; ++i) {
    Complex sum = 0;
    double mag = 0;
    for (int64_t k = A.row_offsets[i]; k < A.row_offsets[i + 1]; ++k) {
      Complex a(A.values[k], A.imaginary.empty() ? 0.0 : A.imaginary[k]);
      if (conjugated) a = std::conj(a);
      sum += a * x[A.col_indices[k]];
      mag += std::abs(a) * std::abs(x[A.col_indices[k]]);
    }
    const Complex scaled_y = beta == 0.0 ? Complex(0) : beta * y0[i];
    r.y[i] = alpha * sum + scaled_y;
    r.magnitude[i] = std::abs(alpha) * mag + std::abs(scaled_y);
    r.row_length[i] = A.row_offsets[i + 1] - A.row_offsets[i];
  }
  return r;
}

template <class Real>
::testing::AssertionResult matches_complex_reference(const std::vector<Kokkos::complex<Real>>& y,
                                                     const ComplexReference& r) {
  if (y.size() != r.y.size()) return ::testing::AssertionFailure() << "size " << y.size() << " vs " << r.y.size();
  const double eps = std::numeric_limits<Real>::epsilon();
  int bad = 0;
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  for (size_t i = 0; i < y.size(); ++i) {
    const Complex got(double(y[i].real()), double(y[i].imag()));
    const double tolerance = 2.0 * (double(r.row_length[i]) + 4.0) * eps * r.magnitude[i] + std::numeric_limits<Real>::min();
    const double err = std::abs(got - r.y[i]);
    if (!std::isfinite(got.real()) || !std::isfinite(got.imag()) || !(err <= tolerance)) {
      if (bad < 5) failure << "\n  y[" << i << "] = " << got << ", expected " << r.y[i] << " (tolerance " << tolerance << ")";
      ++bad;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return failure << "\n  " << bad << " of " << y.size() << " entries wrong";
}

inline std::vector<Complex> random_complex_vector(size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<Complex> v(n);
  for (auto& e : v) e = Complex(u(rng), u(rng));
  return v;
}

// A with random imaginary parts in [-1, 1] added to its values.
inline kspmv::HostCsr with_random_imaginary_parts(kspmv::HostCsr A, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  A.complex_field = true;
  A.imaginary.resize(A.values.size());
  for (auto& e : A.imaginary) e = u(rng);
  return A;
}

template <class Scalar, class Device>
Kokkos::View<Scalar*, Device> to_device_complex_vector(const std::vector<Complex>& v, const std::string& label) {
  using Real = typename Scalar::value_type;
  Kokkos::View<Scalar*, Device> d(label, v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (size_t i = 0; i < v.size(); ++i) h(i) = Scalar(Real(v[i].real()), Real(v[i].imag()));
  Kokkos::deep_copy(d, h);
  return d;
}

template <class Scalar, class Device>
Kokkos::View<Scalar*, Device> to_device_vector(const std::vector<double>& v, const std::string& label) {
  Kokkos::View<Scalar*, Device> d(label, v.size());
  auto h = Kokkos::create_mirror_view(d);
  for (size_t i = 0; i < v.size(); ++i) h(i) = static_cast<Scalar>(v[i]);
  Kokkos::deep_copy(d, h);
  return d;
}

template <class View>
std::vector<typename View::non_const_value_type> to_std_vector(const View& d) {
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), d);
  return std::vector<typename View::non_const_value_type>(h.data(), h.data() + h.extent(0));
}

inline std::vector<double> random_vector(size_t n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> v(n);
  for (auto& e : v) e = u(rng);
  return v;
}

// Shape of a random matrix. Row lengths are uniform in [0, max_row_length]; a fraction of rows
// is forced empty; optionally one row holds `long_row_length` entries (columns may repeat:
// duplicates are legal CSR and must be summed).
struct RandomShape {
  int64_t rows = 100;
  int64_t cols = 100;
  int64_t max_row_length = 10;
  double empty_row_fraction = 0.1;
  int64_t long_row_length = 0;
};

inline kspmv::HostCsr random_csr(const RandomShape& s, std::mt19937_64& rng) {
  kspmv::HostCsr A;
  A.num_rows = s.rows;
  A.num_cols = s.cols;
  A.row_offsets.assign(s.rows + 1, 0);
  std::uniform_int_distribution<int64_t> length(0, s.max_row_length);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int64_t long_row = s.rows > 0 ? std::uniform_int_distribution<int64_t>(0, s.rows - 1)(rng) : -1;
  for (int64_t i = 0; i < s.rows; ++i) {
    int64_t len = unit(rng) < s.empty_row_fraction ? 0 : length(rng);
    if (i == long_row && s.long_row_length > 0) len = s.long_row_length;
    if (s.cols == 0) len = 0;
    A.row_offsets[i + 1] = A.row_offsets[i] + len;
    for (int64_t k = 0; k < len; ++k) {
      A.col_indices.push_back(std::uniform_int_distribution<int64_t>(0, s.cols - 1)(rng));
      A.values.push_back(2 * unit(rng) - 1);
    }
  }
  return A;
}

// A zero-filled View of n entries on the default device, for the constructors' argument checks.
template <class T>
Kokkos::View<T*, Kokkos::DefaultExecutionSpace::device_type> zeros(size_t n) {
  return Kokkos::View<T*, Kokkos::DefaultExecutionSpace::device_type>("zeros", n);
}

// The argument-check tests (on the model of rocSPARSE's testing_*_bad_arg): whether call()
// throws exactly E, not a type derived from it, with a what() containing `needle`, which names
// the problem. Used as EXPECT_TRUE(throws_with<std::invalid_argument>([&] { ... }, "...")), one
// assertion per invalid argument, so that a failure points at its line.
template <class E, class Call>
::testing::AssertionResult throws_with(const Call& call, const std::string& needle) {
  try {
    call();
  } catch (const E& e) {
    const std::string what = e.what();
    if (typeid(e) != typeid(E)) {
      return ::testing::AssertionFailure() << "threw " << typeid(e).name() << ", a type derived from "
                                           << typeid(E).name() << ": " << what;
    }
    if (what.find(needle) == std::string::npos) {
      return ::testing::AssertionFailure() << "the message \"" << what << "\" lacks \"" << needle << "\"";
    }
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw " << typeid(e).name() << ", not " << typeid(E).name() << ": "
                                         << e.what();
  } catch (...) {
    return ::testing::AssertionFailure() << "threw something not derived from std::exception";
  }
  return ::testing::AssertionFailure() << "no exception (expected " << typeid(E).name() << " with \"" << needle
                                       << "\")";
}

}  // namespace kspmv_test
