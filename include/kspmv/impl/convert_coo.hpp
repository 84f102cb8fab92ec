#pragma once
// CSR <-> COO and CSR <-> HYB on the device.

#include <Kokkos_Core.hpp>

#include "../coo.hpp"
#include "../csr.hpp"
#include "../hyb.hpp"
#include "convert_common.hpp"
#include "convert_ell.hpp"
#include "launch.hpp"

#include <cstdint>
#include <vector>

namespace kspmv {
namespace impl {

// The deterministic kernel's partial sums, sized for the chunks of the matrix's backend.
template <class S, class O, class Off, class D>
void allocate_coo_workspace(CooMatrix<S, O, Off, D>& coo) {
  const int64_t chunk = coo_chunk_size<typename D::execution_space>();
  coo.partial_sums = Kokkos::View<S*, D>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::coo::partial_sums"),
                                         2 * ((int64_t(coo.nnz()) + chunk - 1) / chunk));
}

/// COO shares A's col_indices and values; only the row index of each entry is new.
template <class S, class O, class Off, class D>
CooMatrix<S, O, Off, D> coo_from_csr(const CsrMatrix<S, O, Off, D>& A) {
  using execution_space = typename D::execution_space;
  Kokkos::View<O*, D> rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::coo::row_indices"), A.nnz());
  auto offsets = A.row_offsets;
  Kokkos::parallel_for(
      "kspmv::convert[coo]", Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>(0, A.num_rows()),
      KOKKOS_LAMBDA(const int64_t i) {
        for (auto k = offsets(i); k < offsets(i + 1); ++k) rows(k) = O(i);
      });
  CooMatrix<S, O, Off, D> coo(A.num_rows(), A.num_cols(), rows, A.col_indices, A.values);
  allocate_coo_workspace(coo);
  return coo;
}

// Row offsets of row-sorted COO entries: offsets[i] = first entry with row >= i (binary search).
template <class S, class O, class Off, class D>
Kokkos::View<Off*, D> coo_row_offsets(const CooMatrix<S, O, Off, D>& A) {
  using execution_space = typename D::execution_space;
  Kokkos::View<Off*, D> offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::row_offsets"), A.num_rows() + 1);
  auto rows = A.row_indices;
  const int64_t nnz = A.nnz();
  Kokkos::parallel_for(
      "kspmv::to_csr[coo_offsets]", Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>(0, A.num_rows() + 1),
      KOKKOS_LAMBDA(const int64_t i) {
        int64_t lo = 0, hi = nnz;
        while (lo < hi) {
          const int64_t mid = (lo + hi) / 2;
          if (int64_t(rows(mid)) < i) lo = mid + 1; else hi = mid;
        }
        offsets(i) = Off(lo);
      });
  return offsets;
}

template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> coo_to_csr(const CooMatrix<S, O, Off, D>& A) {
  return CsrMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), coo_row_offsets(A), A.col_indices, A.values);
}

/// HYB: ELL width by the rule of launch.hpp (or forced), from the row-length histogram.
template <class S, class O, class Off, class D>
HybMatrix<S, O, Off, D> hyb_from_csr(const CsrMatrix<S, O, Off, D>& A, int64_t forced_width) {
  using execution_space = typename D::execution_space;
  using Policy = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  const int64_t m = A.num_rows();
  auto lengths = row_lengths(A);
  const int64_t longest = m > 0 ? max_entry<execution_space>(lengths) : 0;
  // A width past the longest row would only store padding.
  int64_t width = forced_width < longest ? forced_width : longest;
  if (forced_width < 0) {
    const auto histogram = length_histogram<execution_space>(lengths, longest);
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), histogram);
    width = hyb_width_minimizing_bytes(std::vector<int64_t>(host.data(), host.data() + host.extent(0)), m, sizeof(S),
                                       sizeof(O));
  }
  // ELL part: the first `width` entries of each row.
  Kokkos::View<O*, D> ell_lengths(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::hyb::ell_lengths"), m);
  Kokkos::View<O*, D> overflow(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::hyb::overflow"), m);
  Kokkos::parallel_for(
      "kspmv::convert[hyb_split]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        ell_lengths(i) = lengths(i) < width ? lengths(i) : O(width);
        overflow(i) = lengths(i) - ell_lengths(i);
      });
  Kokkos::View<O*, D> ell_indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::hyb::ell_indices"), width * m);
  Kokkos::View<S*, D> ell_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::hyb::ell_values"), width * m);
  Kokkos::parallel_for(
      "kspmv::convert[hyb_ell]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        const int64_t begin = A.row_offsets(i), len = ell_lengths(i);
        const auto pad_column = len > 0 ? A.col_indices(begin + len - 1) : 0;
        for (int64_t k = 0, slot = i; k < width; ++k, slot += m) {
          ell_indices(slot) = k < len ? A.col_indices(begin + k) : pad_column;
          ell_values(slot) = k < len ? A.values(begin + k) : 0;
        }
      });
  Kokkos::View<Off*, D> coo_offsets("kspmv::hyb::coo_offsets", m + 1);
  const int64_t coo_nnz = exclusive_scan<execution_space>(coo_offsets, overflow);
  Kokkos::View<O*, D> coo_rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::hyb::coo_rows"), coo_nnz);
  Kokkos::View<O*, D> coo_cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::hyb::coo_cols"), coo_nnz);
  Kokkos::View<S*, D> coo_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::hyb::coo_values"), coo_nnz);
  Kokkos::parallel_for(
      "kspmv::convert[hyb_coo]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        const int64_t from = int64_t(A.row_offsets(i)) + ell_lengths(i);
        for (int64_t k = 0; k < overflow(i); ++k) {
          coo_rows(coo_offsets(i) + k) = O(i);
          coo_cols(coo_offsets(i) + k) = A.col_indices(from + k);
          coo_values(coo_offsets(i) + k) = A.values(from + k);
        }
      });
  const Off ell_nnz = Off(int64_t(A.nnz()) - coo_nnz);
  CooMatrix<S, O, Off, D> coo(A.num_rows(), A.num_cols(), coo_rows, coo_cols, coo_values);
  allocate_coo_workspace(coo);
  return HybMatrix<S, O, Off, D>(
      EllMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), O(width), ell_nnz, ell_indices, ell_values, ell_lengths), coo);
}

/// Row i of the result: its ELL entries, then its COO entries (the original CSR order).
template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> hyb_to_csr(const HybMatrix<S, O, Off, D>& A) {
  using execution_space = typename D::execution_space;
  using Policy = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  const int64_t m = A.num_rows();
  const auto coo_offsets = coo_row_offsets(A.coo);
  const auto ell_lengths = A.ell.row_lengths;
  Kokkos::View<O*, D> lengths(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::to_csr::lengths"), m);
  Kokkos::parallel_for(
      "kspmv::to_csr[hyb_lengths]", Policy(0, m),
      KOKKOS_LAMBDA(const int64_t i) { lengths(i) = ell_lengths(i) + O(coo_offsets(i + 1) - coo_offsets(i)); });
  Kokkos::View<Off*, D> offsets("kspmv::csr::row_offsets", m + 1);
  const int64_t nnz = exclusive_scan<execution_space>(offsets, lengths);
  Kokkos::View<O*, D> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::col_indices"), nnz);
  Kokkos::View<S*, D> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::values"), nnz);
  const auto ell = A.ell;
  const auto coo = A.coo;
  Kokkos::parallel_for(
      "kspmv::to_csr[hyb]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
        int64_t out = offsets(i);
        for (int64_t k = 0; k < ell_lengths(i); ++k, ++out) {
          indices(out) = ell.col_indices(k * m + i);
          values(out) = ell.values(k * m + i);
        }
        for (int64_t k = coo_offsets(i); k < int64_t(coo_offsets(i + 1)); ++k, ++out) {
          indices(out) = coo.col_indices(k);
          values(out) = coo.values(k);
        }
      });
  return CsrMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), offsets, indices, values);
}

}  // namespace impl
}  // namespace kspmv
