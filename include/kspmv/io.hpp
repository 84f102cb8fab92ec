#pragma once
/// \file io.hpp
/// Matrix Market (coordinate) input and output. Parsing runs on the host; the result is
/// copied to the requested device.

#include "csr.hpp"

#include <algorithm>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kspmv {

/// A Matrix Market file that cannot be read: unsupported kind (array, a hermitian file of real field),
/// malformed header or size line, wrong entry count, index out of range, truncated file,
/// non-numeric token. what() reads "<file>:<line>: <problem>".
class MatrixMarketError : public std::runtime_error {
 public:
  MatrixMarketError(const std::string& file, long long line, const std::string& problem)
      : std::runtime_error(file + ":" + std::to_string(line) + ": " + problem), m_file(file), m_line(line) {}
  const std::string& file() const { return m_file; }
  /// 1-based line number of the offending line (one past the last line for a truncated file).
  long long line() const { return m_line; }

 private:
  std::string m_file;
  long long m_line;
};

/// A matrix as read from a file, on the host, in double precision: 0-based CSR, columns sorted
/// within each row, duplicate entries summed, symmetric, skew-symmetric and hermitian files
/// expanded to both triangles, pattern entries set to 1. A complex matrix keeps the imaginary
/// parts beside the real ones: values[k] + i*imaginary[k]; a real one has no imaginary parts.
struct HostCsr {
  int64_t num_rows = 0;
  int64_t num_cols = 0;
  std::vector<int64_t> row_offsets{0};
  std::vector<int64_t> col_indices;
  std::vector<double> values;     ///< real parts
  std::vector<double> imaginary;  ///< imaginary parts, one per value, for a complex matrix; empty for a real one
  bool complex_field = false;     ///< read from a complex file: kept by a complex matrix of no entries too
  bool is_complex() const { return complex_field || !imaginary.empty(); }
};

/// The largest sizes a file may declare, checked on its size line before anything is allocated
/// (read_csr sets them from its Ordinal and Offset). The reader also refuses a size line whose
/// CSR row offsets alone would not fit in this machine's memory.
struct MatrixMarketLimits {
  int64_t max_rows = std::numeric_limits<int64_t>::max() - 1;  ///< and columns
  int64_t max_entries = std::numeric_limits<int64_t>::max();   ///< declared entries
  std::string index_type = "int64_t";                          ///< named in the error
  std::string offset_type = "int64_t";

  /// The limits of a CsrMatrix<Scalar, Ordinal, Offset>.
  template <class Ordinal, class Offset>
  static MatrixMarketLimits for_types() {
    MatrixMarketLimits l;
    l.max_rows = int64_t(std::min<unsigned long long>(std::numeric_limits<Ordinal>::max(),
                                                      std::numeric_limits<int64_t>::max() - 1));
    l.max_entries = int64_t(std::min<unsigned long long>(std::numeric_limits<Offset>::max(),
                                                         std::numeric_limits<int64_t>::max()));
    l.index_type = type_name<Ordinal>();
    l.offset_type = type_name<Offset>();
    return l;
  }

 private:
  template <class T>
  static std::string type_name() {
    const std::string sign = std::is_signed<T>::value ? "int" : "uint";
    return sign + std::to_string(8 * sizeof(T)) + "_t";
  }
};

/// Reads a Matrix Market `coordinate` file with field real, double, integer, pattern or complex
/// and symmetry general, symmetric, skew-symmetric or hermitian (complex only: a_ji =
/// conj(a_ij), diagonal real). Symmetric files must store one triangle (the lower, as the
/// format specifies). Throws MatrixMarketError for anything else, and for a size line beyond
/// `limits` or beyond this machine's memory, before allocating for it.
HostCsr read_matrix_market(const std::string& path, const MatrixMarketLimits& limits = MatrixMarketLimits());
/// As above, from a stream; `name` is used in error messages.
HostCsr read_matrix_market(std::istream& in, const std::string& name,
                           const MatrixMarketLimits& limits = MatrixMarketLimits());

/// Writes `coordinate real general` (`complex general` for a complex matrix) with 17
/// significant digits (exact for double and float). Throws std::invalid_argument, before writing
/// anything, if the arrays disagree (num_rows + 1 row offsets from 0 to the number of column
/// indices, never decreasing; one value per index; one imaginary part per value if complex) or
/// an index lies outside [0, num_cols), and std::runtime_error if `path` cannot be opened or
/// written.
void write_matrix_market(const std::string& path, const HostCsr& matrix);
void write_matrix_market(std::ostream& out, const HostCsr& matrix);

namespace impl {
template <class T>
void check_fits(int64_t value, const char* what) {
  if (value < 0 || static_cast<unsigned long long>(value) >
                       static_cast<unsigned long long>(std::numeric_limits<T>::max())) {
    throw std::overflow_error("kspmv: " + std::string(what) + " = " + std::to_string(value) +
                              " does not fit in the requested index type");
  }
}
}  // namespace impl

/// Copies host CSR data into a CsrMatrix on Device, converting the types. Throws
/// std::invalid_argument if the arrays' sizes disagree (row_offsets must hold num_rows + 1
/// entries, the last one the number of column indices, one value per index, and, if h is
/// complex, one imaginary part per value) or if h is complex and Scalar is not (a complex Scalar takes a real h,
/// imaginary parts 0), and std::overflow_error if a size does not fit in Ordinal or Offset;
/// CsrMatrix::from_host then checks the offsets and indices themselves (std::invalid_argument).
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
CsrMatrix<Scalar, Ordinal, Offset, Device> to_device(const HostCsr& h) {
  const size_t nnz = h.col_indices.size();
  if (h.num_rows < 0 || h.num_cols < 0 || h.row_offsets.size() != size_t(h.num_rows) + 1 ||
      h.row_offsets.back() != int64_t(nnz) || h.values.size() != nnz ||
      (h.is_complex() && h.imaginary.size() != nnz)) {
    throw std::invalid_argument(
        "kspmv::to_device: HostCsr of " + std::to_string(h.num_rows) + " x " + std::to_string(h.num_cols) + " has " +
        std::to_string(h.row_offsets.size()) + " row offsets (needs num_rows + 1), the last " +
        (h.row_offsets.empty() ? std::string("missing") : std::to_string(h.row_offsets.back())) + ", " +
        std::to_string(nnz) + " column indices, " + std::to_string(h.values.size()) + " values and " +
        std::to_string(h.imaginary.size()) +
        " imaginary parts (the last offset, the indices and the values must agree; imaginary parts one per value "
        "if complex)");
  }
  constexpr bool complex_scalar = impl::is_complex<Scalar>::value;
  if (h.is_complex() && !complex_scalar) {
    throw std::invalid_argument(
        "kspmv::to_device: the matrix is complex (a Matrix Market file of field complex); read it into "
        "Kokkos::complex<double> or Kokkos::complex<float>, not a real Scalar");
  }
  impl::check_fits<Ordinal>(h.num_rows, "num_rows");
  impl::check_fits<Ordinal>(h.num_cols, "num_cols");
  impl::check_fits<Offset>(static_cast<int64_t>(h.col_indices.size()), "nnz");
  std::vector<Offset> offsets(h.row_offsets.begin(), h.row_offsets.end());
  std::vector<Ordinal> indices(h.col_indices.begin(), h.col_indices.end());
  std::vector<Scalar> values(nnz);
  for (size_t k = 0; k < nnz; ++k) {
    if constexpr (complex_scalar) {
      using Real = typename impl::is_complex<Scalar>::real_type;
      values[k] = Scalar(Real(h.values[k]), h.imaginary.empty() ? Real(0) : Real(h.imaginary[k]));
    } else {
      values[k] = Scalar(h.values[k]);
    }
  }
  return CsrMatrix<Scalar, Ordinal, Offset, Device>::from_host(static_cast<Ordinal>(h.num_rows),
                                                               static_cast<Ordinal>(h.num_cols), offsets.data(),
                                                               indices.data(), values.data());
}

/// Copies a CsrMatrix to the host in double precision (real and imaginary parts for a complex
/// Scalar).
template <class Scalar, class Ordinal, class Offset, class Device>
HostCsr to_host(const CsrMatrix<Scalar, Ordinal, Offset, Device>& A) {
  HostCsr h;
  h.num_rows = A.num_rows();
  h.num_cols = A.num_cols();
  h.row_offsets.assign(static_cast<size_t>(A.num_rows()) + 1, 0);
  if (A.row_offsets.extent(0) > 0) {
    auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.row_offsets);
    for (size_t i = 0; i < offsets.extent(0); ++i) h.row_offsets[i] = offsets(i);
  }
  auto indices = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.col_indices);
  auto values = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), A.values);
  h.col_indices.assign(indices.data(), indices.data() + indices.extent(0));
  if constexpr (impl::is_complex<Scalar>::value) {
    h.complex_field = true;
    h.values.resize(values.extent(0));
    h.imaginary.resize(values.extent(0));
    for (size_t k = 0; k < values.extent(0); ++k) {
      h.values[k] = double(values(k).real());
      h.imaginary[k] = double(values(k).imag());
    }
  } else {
    h.values.assign(values.data(), values.data() + values.extent(0));
  }
  return h;
}

/// Reads a Matrix Market file (see read_matrix_market) straight into a CsrMatrix on Device; a
/// size line that Ordinal or Offset cannot hold is a MatrixMarketError naming the type, raised
/// before anything is allocated.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
CsrMatrix<Scalar, Ordinal, Offset, Device> read_csr(const std::string& path) {
  return to_device<Scalar, Ordinal, Offset, Device>(
      read_matrix_market(path, MatrixMarketLimits::for_types<Ordinal, Offset>()));
}

/// Writes A as `coordinate real general` (`complex general` for a complex Scalar); throws
/// std::runtime_error if `path` cannot be opened or written.
template <class Scalar, class Ordinal, class Offset, class Device>
void write_matrix_market(const std::string& path, const CsrMatrix<Scalar, Ordinal, Offset, Device>& A) {
  write_matrix_market(path, to_host(A));
}

}  // namespace kspmv
