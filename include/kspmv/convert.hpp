#pragma once
/// \file convert.hpp
/// Conversions between CSR and every other format, run on the device of the matrix (only sizes,
/// HYB's row-length histogram and DIA's occupied diagonals come back to the host). Each result
/// reports its stored slots, fill ratio and bytes, so the caller can decide whether a format
/// pays off.

#include "blocked_ell.hpp"
#include "coo.hpp"
#include "csr.hpp"
#include "csr_balanced.hpp"
#include "csr16.hpp"
#include "csr_uniform.hpp"
#include "csr_coded.hpp"
#include "dia.hpp"
#include "ell.hpp"
#include "hyb.hpp"
#include "impl/convert_coo.hpp"
#include "impl/convert_csr16.hpp"
#include "impl/convert_csr_uniform.hpp"
#include "impl/convert_csr_coded.hpp"
#include "impl/csr_balanced.hpp"
#include "impl/convert_dia.hpp"
#include "impl/convert_ell.hpp"
#include "impl/convert_transpose.hpp"
#include "impl/launch.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kspmv {

/// Options of kspmv::convert. Conversions that would exceed a limit throw std::invalid_argument
/// saying which limit (and by how much, except DIA's diagonal count, which stops at the limit),
/// before allocating the result.
struct ConvertOptions {
  /// Blocked ELLPACK: rows per slice; 0 = the backend's warp/wavefront width on GPUs, 8 on hosts.
  int slice_height = 0;
  /// Blocked ELLPACK: sort rows by decreasing length within windows of sigma rows (SELL-C-sigma);
  /// 1 keeps the original order. Costs O(sigma) per row; y is always written in original order.
  int sigma = 1;
  /// HYB: ELLPACK width; -1 = the width minimising stored bytes (impl::hyb_width_minimizing_bytes).
  int64_t hyb_width = -1;
  /// ELLPACK, blocked ELLPACK, DIA: refuse when stored slots / nnz would exceed this.
  double max_fill_ratio = 10.0;
  /// DIA: refuse more occupied diagonals than this.
  int64_t max_diagonals = 1024;
};

namespace impl {
template <class T>
struct type_tag {};

// Every field of the options, whichever format they go to (kspmv::Plan converts to several with
// one set): out of range is the caller's mistake, not a refusal of the matrix. `who` names the
// public function.
inline void check_convert_options(const ConvertOptions& o, const std::string& who) {
  const auto fail = [&](const std::string& what) {
    throw std::invalid_argument(who + ": ConvertOptions::" + what);
  };
  if (o.slice_height < 0) fail("slice_height = " + std::to_string(o.slice_height) + " is negative (0: the default)");
  if (o.sigma < 1) fail("sigma = " + std::to_string(o.sigma) + " must be at least 1 (1: rows keep their order)");
  if (o.hyb_width < -1) fail("hyb_width = " + std::to_string(o.hyb_width) + " must be -1 (automatic) or at least 0");
  if (!(o.max_fill_ratio > 0)) fail("max_fill_ratio = " + std::to_string(o.max_fill_ratio) + " must be positive");
  if (o.max_diagonals < 0) fail("max_diagonals = " + std::to_string(o.max_diagonals) + " is negative");
}

template <class S, class O, class Off, class D>
EllMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions& o,
                                 type_tag<EllMatrix<S, O, Off, D>>) {
  return ell_from_csr(A, o.max_fill_ratio);
}
template <class S, class O, class Off, class D>
BlockedEllMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions& o,
                                        type_tag<BlockedEllMatrix<S, O, Off, D>>) {
  const int height = o.slice_height != 0 ? o.slice_height : default_slice_height<typename D::execution_space>();
  return blocked_ell_from_csr(A, height, o.sigma, o.max_fill_ratio);
}
template <class S, class O, class Off, class D>
CooMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions&,
                                 type_tag<CooMatrix<S, O, Off, D>>) {
  return coo_from_csr(A);
}
template <class S, class O, class Off, class D>
HybMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions& o,
                                 type_tag<HybMatrix<S, O, Off, D>>) {
  return hyb_from_csr(A, o.hyb_width);
}
template <class S, class O, class Off, class D>
DiaMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions& o,
                                 type_tag<DiaMatrix<S, O, Off, D>>) {
  return dia_from_csr(A, o.max_diagonals, o.max_fill_ratio);
}
template <class S, class O, class Off, class D>
BalancedCsrMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions&,
                                         type_tag<BalancedCsrMatrix<S, O, Off, D>>) {
  return balanced_from_csr(A);
}
template <class S, class O, class Off, class D>
Csr16Matrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions&,
                                   type_tag<Csr16Matrix<S, O, Off, D>>) {
  return csr16_from_csr(A);
}
template <class S, class O, class Off, class D>
UniformCsrMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions&,
                                        type_tag<UniformCsrMatrix<S, O, Off, D>>) {
  return uniform_csr_from_csr(A);
}
template <class S, class O, class Off, class D>
CodedCsrMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions&,
                                      type_tag<CodedCsrMatrix<S, O, Off, D>>) {
  return coded_csr_from_csr(A);
}
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> from_csr(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions&,
                                 type_tag<CsrMatrix<S, O, Off, D>>) {
  return A;
}
}  // namespace impl

/// Converts a CSR matrix to Format (BalancedCsrMatrix, Csr16Matrix, UniformCsrMatrix,
/// CodedCsrMatrix, EllMatrix, BlockedEllMatrix, CooMatrix, HybMatrix, DiaMatrix, or CsrMatrix
/// itself) on A's device: `auto E = kspmv::convert<kspmv::EllMatrix>(A);`. The result represents
/// the same A: spmv on it gives spmv on A up to rounding. Throws std::invalid_argument when a limit
/// of `options` would be exceeded, for UniformCsrMatrix when A's values are not all the same (bit
/// for bit), for CodedCsrMatrix when they take more than 256 distinct values (or 16 bytes each),
/// and, before looking at A,
/// when a field of `options` is out of range, whichever format it applies to (negative
/// slice_height or max_diagonals, sigma below 1, hyb_width below -1, max_fill_ratio not positive
/// or NaN).
template <template <class, class, class, class> class Format, class S, class O, class Off, class D>
Format<S, O, Off, D> convert(const CsrMatrix<S, O, Off, D>& A, const ConvertOptions& options = ConvertOptions()) {
  impl::check_convert_options(options, "kspmv::convert");
  return impl::from_csr(A, options, impl::type_tag<Format<S, O, Off, D>>());
}

/// Converts back to CSR on the device. Rows keep their entries in the original CSR order for
/// Csr16Matrix (sharing its row offsets and values), ELLPACK, blocked ELLPACK, COO and HYB (a
/// round trip is exact); DIA keeps only nonzero values, by increasing column.
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const CsrMatrix<S, O, Off, D>& A) {
  return A;
}
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const BalancedCsrMatrix<S, O, Off, D>& A) {
  return A.csr;
}
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const Csr16Matrix<S, O, Off, D>& A) {
  return impl::csr16_to_csr(A);
}
/// CodedCsrMatrix: its structure (shared) with a new values array of each entry's table value.
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const CodedCsrMatrix<S, O, Off, D>& A) {
  return impl::coded_csr_to_csr(A);
}
/// UniformCsrMatrix: its structure (shared) with a new values array holding its one value.
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const UniformCsrMatrix<S, O, Off, D>& A) {
  return impl::uniform_csr_to_csr(A);
}
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const EllMatrix<S, O, Off, D>& A) {
  return impl::ell_to_csr(A);
}
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const BlockedEllMatrix<S, O, Off, D>& A) {
  return impl::blocked_ell_to_csr(A);
}
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const CooMatrix<S, O, Off, D>& A) {
  return impl::coo_to_csr(A);
}
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const HybMatrix<S, O, Off, D>& A) {
  return impl::hyb_to_csr(A);
}
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> to_csr(const DiaMatrix<S, O, Off, D>& A) {
  return impl::dia_to_csr(A);
}

/// A^T formed explicitly: a new num_cols x num_rows CSR matrix on A's device whose row j holds
/// column j of A, (A^T)_ji = a_ij, entries of a row by increasing column (A's row); built on the
/// device (count, scan, placement with atomics, a sort of each row). spmv on it in mode N equals
/// spmv on A in mode "T" up to the order of the sums (that of Algorithm::csr_transposed). It
/// owns new arrays of A's size: A's later changes are not seen. Needs Kokkos 4.1 or later for
/// matrices in device memory (std::invalid_argument otherwise).
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> transpose(const CsrMatrix<S, O, Off, D>& A) {
  return impl::transposed_csr(typename D::execution_space(), A, false);
}

/// A^H = conj(A)^T formed explicitly, as kspmv::transpose (for real scalars, A^T): spmv on it in
/// mode N equals spmv on A in mode "H".
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> conjugate_transpose(const CsrMatrix<S, O, Off, D>& A) {
  return impl::transposed_csr(typename D::execution_space(), A, true);
}

}  // namespace kspmv
