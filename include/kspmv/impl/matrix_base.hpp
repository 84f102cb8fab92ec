#pragma once
// Pieces every matrix type shares: the type aliases, the sizes, and the extent checks that
// throw std::invalid_argument with the matrix's name and shape.

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kspmv {
namespace impl {

// Kokkos::complex<float> and Kokkos::complex<double>; real_type is the type of their parts (the
// type itself for real scalars).
template <class T>
struct is_complex : std::false_type {
  using real_type = T;
};
template <class T>
struct is_complex<Kokkos::complex<T>> : std::true_type {
  using real_type = T;
};

// The scalars kspmv computes in: float, double and their Kokkos::complex.
template <class T>
constexpr bool is_supported_scalar() {
  return std::is_floating_point<typename is_complex<T>::real_type>::value;
}

// The scalar of mixed precision's vectors and sums for a matrix of T: double for float,
// Kokkos::complex<double> for Kokkos::complex<float>, T itself otherwise.
template <class T>
struct widened {
  using type = T;
};
template <>
struct widened<float> {
  using type = double;
};
template <>
struct widened<Kokkos::complex<float>> {
  using type = Kokkos::complex<double>;
};

// The type parameters every kspmv matrix accepts.
template <class Scalar, class Ordinal, class Offset>
struct CheckMatrixTypes {
  static_assert(is_supported_scalar<Scalar>(),
                "kspmv: Scalar must be float, double, Kokkos::complex<float> or Kokkos::complex<double>");
  static_assert(std::is_integral<Ordinal>::value && std::is_signed<Ordinal>::value,
                "kspmv: Ordinal must be a signed integer type");
  static_assert(std::is_integral<Offset>::value, "kspmv: Offset must be an integer type");
  static constexpr bool value = true;
};

template <class Scalar, class Ordinal, class Offset, class Device>
class MatrixBase {
  static_assert(CheckMatrixTypes<Scalar, Ordinal, Offset>::value, "");

 public:
  using value_type = Scalar;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;

  Ordinal num_rows() const { return m_num_rows; }
  Ordinal num_cols() const { return m_num_cols; }
  /// Entries of the matrix it was converted from (explicit zeros included), not stored slots.
  Offset nnz() const { return m_nnz; }
  /// The format's class name ("CsrMatrix", "DiaMatrix", ...), as error messages give it.
  const char* format_name() const { return m_name; }

 protected:
  MatrixBase() = default;
  MatrixBase(const char* name, Ordinal num_rows, Ordinal num_cols, Offset nnz)
      : m_name(name), m_num_rows(num_rows), m_num_cols(num_cols), m_nnz(nnz) {
    if (num_rows < 0 || num_cols < 0) fail("negative size");
    if constexpr (std::is_signed<Offset>::value) {
      if (nnz < Offset(0)) fail("negative nnz");
    }
  }

  [[noreturn]] void fail(const std::string& what) const {
    std::ostringstream s;
    s << "kspmv::" << m_name << " (" << m_num_rows << " x " << m_num_cols << "): " << what;
    throw std::invalid_argument(s.str());
  }
  template <class View>
  void expect_extent(const View& v, size_t expected, const char* what) const {
    if (v.extent(0) != expected) {
      fail(std::string(what) + " has " + std::to_string(v.extent(0)) + " entries, expected " + std::to_string(expected));
    }
  }
  // Host copy of an index array, checked to lie in [0, bound).
  template <class View>
  void expect_indices_below(const View& v, int64_t bound, const char* what) const {
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
    for (size_t k = 0; k < h.extent(0); ++k) {
      if (h(k) < 0 || int64_t(h(k)) >= bound) {
        fail(std::string(what) + "[" + std::to_string(k) + "] = " + std::to_string(h(k)) + " is out of range [0, " +
             std::to_string(bound) + ")");
      }
    }
  }

  const char* m_name = "matrix";
  Ordinal m_num_rows = 0;
  Ordinal m_num_cols = 0;
  Offset m_nnz = 0;
};

// Marks the types kspmv::spmv accepts.
template <class T, class = void>
struct is_matrix : std::false_type {};
template <class T>
struct is_matrix<T, std::void_t<typename T::format_tag>> : std::true_type {};

struct csr_tag {};
struct ell_tag {};
struct blocked_ell_tag {};
struct coo_tag {};
struct hyb_tag {};
struct dia_tag {};
struct csr_balanced_tag {};
struct csr16_tag {};
struct csr_uniform_tag {};
struct csr_coded_tag {};

}  // namespace impl
}  // namespace kspmv
