#pragma once
/// \file hyb.hpp
/// Hybrid ELLPACK + COO: the first `width` entries of every row in ELLPACK, the overflow of
/// longer rows in COO, so a few long rows no longer set the padding of all the others. Data
/// only; build one with kspmv::convert<kspmv::HybMatrix>(csr, options).

#include "coo.hpp"
#include "ell.hpp"

namespace kspmv {

/// A = ell + coo, where ell holds entries [0, min(len_i, width)) of each row i (in CSR order)
/// and coo holds entries [width, len_i) of the rows longer than width, sorted by row.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class HybMatrix : public impl::MatrixBase<Scalar, Ordinal, Offset, Device> {
  using base = impl::MatrixBase<Scalar, Ordinal, Offset, Device>;

 public:
  using format_tag = impl::hyb_tag;
  EllMatrix<Scalar, Ordinal, Offset, Device> ell;
  CooMatrix<Scalar, Ordinal, Offset, Device> coo;

  HybMatrix() : base() { this->m_name = "HybMatrix"; }
  /// Combines the two parts; throws std::invalid_argument if their shapes differ.
  HybMatrix(const EllMatrix<Scalar, Ordinal, Offset, Device>& ell_part,
            const CooMatrix<Scalar, Ordinal, Offset, Device>& coo_part)
      : base("HybMatrix", ell_part.num_rows(), ell_part.num_cols(), ell_part.nnz() + coo_part.nnz()), ell(ell_part),
        coo(coo_part) {
    if (coo.num_rows() != ell.num_rows() || coo.num_cols() != ell.num_cols()) this->fail("ELL and COO shapes differ");
  }

  size_t stored_entries() const { return ell.stored_entries() + coo.stored_entries(); }
  double fill_ratio() const { return this->nnz() > 0 ? double(stored_entries()) / double(this->nnz()) : 1.0; }
  size_t bytes() const { return ell.bytes() + coo.bytes(); }
  /// Share of the entries in the COO part.
  double coo_fraction() const { return this->nnz() > 0 ? double(coo.nnz()) / double(this->nnz()) : 0.0; }

  void validate() const {
    ell.validate();
    coo.validate();
  }
};

}  // namespace kspmv
