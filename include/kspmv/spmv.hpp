#pragma once
/// \file spmv.hpp
/// The public entry point: y = alpha*A*x + beta*y.

#include <Kokkos_Core.hpp>

#include "csr.hpp"
#include "impl/csr_scalar.hpp"
#include "impl/csr_vector.hpp"
#include "impl/launch.hpp"

#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace kspmv {
namespace impl {

// Keeps alpha and beta out of template argument deduction, so spmv(1.0, A_float, ...) works.
template <class T>
struct non_deduced {
  using type = T;
};

template <class YView>
struct ScaleFunctor {
  using scalar_type = typename YView::non_const_value_type;
  YView y;
  scalar_type beta;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t i) const {
    // beta == 0 overwrites: 0 * NaN would be NaN.
    y(i) = beta == scalar_type(0) ? scalar_type(0) : beta * y(i);
  }
};

/// y = beta*y (y = 0 when beta == 0), the whole of spmv when alpha == 0 or A has no entries.
template <class ExecSpace, class YView>
void scale_y(const ExecSpace& space, typename YView::non_const_value_type beta, const YView& y) {
  if (beta == 1) return;
  Kokkos::parallel_for("kspmv::spmv[scale_y]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, y.extent(0)),
                       ScaleFunctor<YView>{y, beta});
}

template <class Matrix, class XView, class YView>
void check_dimensions(const Matrix& A, const XView& x, const YView& y) {
  const auto m = static_cast<long long>(A.num_rows());
  const auto n = static_cast<long long>(A.num_cols());
  const auto nx = static_cast<long long>(x.extent(0));
  const auto ny = static_cast<long long>(y.extent(0));
  if (nx != n || ny != m) {
    std::ostringstream s;
    s << "kspmv::spmv: dimension mismatch: A is " << m << " x " << n << ", x has " << nx << " entries (needs " << n
      << "), y has " << ny << " entries (needs " << m << ")";
    throw std::invalid_argument(s.str());
  }
}

inline void check_options(const SpmvOptions& o) {
  if (o.team_size < 0 || o.lanes_per_row < 0 || o.rows_per_thread < 0) {
    throw std::invalid_argument("kspmv::spmv: negative tunable in SpmvOptions (team_size " + std::to_string(o.team_size) +
                                ", lanes_per_row " + std::to_string(o.lanes_per_row) + ", rows_per_thread " +
                                std::to_string(o.rows_per_thread) + "); 0 means automatic");
  }
}

template <class ExecSpace>
void check_vector_options(const CsrVectorShape& shape) {
  const int max_lanes = Kokkos::TeamPolicy<ExecSpace>::vector_length_max();
  if (!is_power_of_two(shape.lanes_per_row) || shape.lanes_per_row > max_lanes) {
    throw std::invalid_argument("kspmv::spmv: lanes_per_row = " + std::to_string(shape.lanes_per_row) +
                                " must be a power of two <= " + std::to_string(max_lanes) + " on this backend");
  }
  if (shape.team_size < 1 || shape.rows_per_thread < 1) {
    throw std::invalid_argument("kspmv::spmv: team_size and rows_per_thread must be positive (0 = automatic)");
  }
}

}  // namespace impl

/// y = alpha*A*x + beta*y on the given execution space instance (asynchronous, like any
/// Kokkos kernel on that instance).
///
/// Semantics follow BLAS and KokkosKernels:
///  - beta == 0 overwrites y: its old contents are never read, so NaN or Inf in y do not leak;
///  - alpha == 0 computes y = beta*y without reading A or x;
///  - num_rows, num_cols or nnz == 0 are valid (an empty product contributes 0).
/// Throws std::invalid_argument, before any kernel runs, if x does not have num_cols entries or
/// y does not have num_rows entries, or if options are out of range.
///
/// \param options forces an algorithm or launch tunables; the default picks by average row length.
template <class ExecSpace, class Scalar, class Ordinal, class Offset, class Device, class XView, class YView>
std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value> spmv(
    const ExecSpace& space, typename impl::non_deduced<Scalar>::type alpha,
    const CsrMatrix<Scalar, Ordinal, Offset, Device>& A, const XView& x,
    typename impl::non_deduced<Scalar>::type beta, const YView& y, const SpmvOptions& options = SpmvOptions()) {
  using Matrix = CsrMatrix<Scalar, Ordinal, Offset, Device>;
  static_assert(Kokkos::is_view<XView>::value && XView::rank == 1, "kspmv::spmv: x must be a rank-1 Kokkos::View");
  static_assert(Kokkos::is_view<YView>::value && YView::rank == 1, "kspmv::spmv: y must be a rank-1 Kokkos::View");
  static_assert(std::is_same<typename XView::non_const_value_type, Scalar>::value,
                "kspmv::spmv: x must hold the matrix's Scalar type");
  static_assert(std::is_same<typename YView::value_type, Scalar>::value,
                "kspmv::spmv: y must be a non-const View of the matrix's Scalar type");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename Matrix::memory_space>::accessible,
                "kspmv::spmv: A's memory space is not accessible from the execution space");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename XView::memory_space>::accessible,
                "kspmv::spmv: x's memory space is not accessible from the execution space");
  static_assert(Kokkos::SpaceAccessibility<ExecSpace, typename YView::memory_space>::accessible,
                "kspmv::spmv: y's memory space is not accessible from the execution space");

  impl::check_dimensions(A, x, y);
  impl::check_options(options);
  if (A.num_rows() == 0) return;
  if (alpha == Scalar(0) || A.nnz() == 0) {
    impl::scale_y(space, beta, y);
    return;
  }

  // x is gathered: read it through the read-only (texture / __ldg) path where the backend has one.
  using XRandomAccess = Kokkos::View<const Scalar*, typename XView::array_layout, typename XView::device_type,
                                     Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  const XRandomAccess x_ra = x;

  constexpr int warp = impl::warp_width<ExecSpace>();
  Algorithm algorithm = options.algorithm;
  if (algorithm == Algorithm::automatic) {
    algorithm = impl::choose_csr_algorithm(double(A.nnz()) / double(A.num_rows()), warp);
  }
  switch (algorithm) {
    case Algorithm::csr_scalar:
      impl::spmv_csr_scalar(space, alpha, A, x_ra, beta, y);
      return;
    case Algorithm::csr_vector: {
      const impl::CsrVectorShape shape = impl::csr_vector_shape<ExecSpace>(A.num_rows(), A.nnz(), options);
      impl::check_vector_options<ExecSpace>(shape);
      impl::spmv_csr_vector(space, alpha, A, x_ra, beta, y, shape);
      return;
    }
    case Algorithm::automatic:
      break;
  }
  throw std::invalid_argument(std::string("kspmv::spmv: algorithm ") + to_string(algorithm) +
                              " does not apply to a CSR matrix");
}

/// y = alpha*A*x + beta*y on a default-constructed instance of A's execution space.
/// See the overload taking an execution space instance for the semantics.
template <class Scalar, class Ordinal, class Offset, class Device, class XView, class YView>
void spmv(typename impl::non_deduced<Scalar>::type alpha, const CsrMatrix<Scalar, Ordinal, Offset, Device>& A,
          const XView& x, typename impl::non_deduced<Scalar>::type beta, const YView& y,
          const SpmvOptions& options = SpmvOptions()) {
  spmv(typename Device::execution_space(), alpha, A, x, beta, y, options);
}

}  // namespace kspmv
