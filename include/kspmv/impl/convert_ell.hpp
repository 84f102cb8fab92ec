#pragma once
// CSR <-> ELLPACK and blocked ELLPACK on the device. Both layouts are "slices" of rows stored
// column-major with padding; ELLPACK is one slice of num_rows rows, so both share the fill.

#include <Kokkos_Core.hpp>

#include "../blocked_ell.hpp"
#include "../csr.hpp"
#include "../ell.hpp"
#include "convert_common.hpp"

#include <cstdint>
#include <string>

namespace kspmv {
namespace impl {

// Writes the first min(length, width) entries of row `row` of A into `width` slots starting at
// `first_slot`, `stride` apart; padding repeats the last written column with value 0 (column 0
// for an empty row).
template <class Csr, class IndexView, class ValueView>
KOKKOS_INLINE_FUNCTION void fill_padded_row(const Csr& A, int64_t row, int64_t width, int64_t first_slot,
                                            int64_t stride, const IndexView& indices, const ValueView& values) {
  const int64_t begin = A.row_offsets(row), full_length = A.row_offsets(row + 1) - begin;
  const int64_t length = full_length < width ? full_length : width;
  const auto pad_column = length > 0 ? A.col_indices(begin + length - 1) : 0;
  for (int64_t k = 0, slot = first_slot; k < width; ++k, slot += stride) {
    indices(slot) = k < length ? A.col_indices(begin + k) : pad_column;
    values(slot) = k < length ? A.values(begin + k) : 0;
  }
}

inline void check_fill(const char* name, int64_t stored, int64_t nnz, double max_fill) {
  const double fill = nnz > 0 ? double(stored) / double(nnz) : 1.0;
  if (stored > 0 && fill > max_fill) {
    refuse(name, std::to_string(stored) + " stored slots for " + std::to_string(nnz) + " entries (fill ratio " +
                     std::to_string(fill) + ") exceed max_fill_ratio " + std::to_string(max_fill));
  }
}

template <class S, class O, class Off, class D>
EllMatrix<S, O, Off, D> ell_from_csr(const CsrMatrix<S, O, Off, D>& A, double max_fill) {
  using execution_space = typename D::execution_space;
  const int64_t m = A.num_rows();
  auto lengths = row_lengths(A);
  const int64_t width = m > 0 ? max_entry<execution_space>(lengths) : 0;
  check_fill("EllMatrix", width * m, A.nnz(), max_fill);
  Kokkos::View<O*, D> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::ell::col_indices"), width * m);
  Kokkos::View<S*, D> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::ell::values"), width * m);
  Kokkos::parallel_for(
      "kspmv::convert[ell]", Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>(0, m),
      KOKKOS_LAMBDA(const int64_t i) { fill_padded_row(A, i, width, i, m, indices, values); });
  return EllMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), O(width), A.nnz(), indices, values, lengths);
}

template <class S, class O, class Off, class D>
BlockedEllMatrix<S, O, Off, D> blocked_ell_from_csr(const CsrMatrix<S, O, Off, D>& A, int slice_height, int sigma,
                                                    double max_fill) {
  using execution_space = typename D::execution_space;
  using Policy = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  if (slice_height < 1) refuse("BlockedEllMatrix", "slice_height must be positive");
  if (sigma < 1) refuse("BlockedEllMatrix", "sigma must be positive");
  const int64_t m = A.num_rows(), C = slice_height;
  const int64_t num_slices = (m + C - 1) / C;
  auto lengths = row_lengths(A);

  // Sorting window: position p in window w holds the row of rank p - w*sigma, rows ranked by
  // decreasing length, ties by row index. Ranking by counting costs O(sigma) per row.
  Kokkos::View<O*, D> permutation;
  if (sigma > 1) {
    permutation = Kokkos::View<O*, D>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::blocked_ell::permutation"), m);
    const int64_t window = sigma;
    Kokkos::parallel_for(
        "kspmv::convert[blocked_ell_sort]", Policy(0, m), KOKKOS_LAMBDA(const int64_t i) {
          const int64_t first = i - i % window, last = first + window < m ? first + window : m;
          int64_t rank = 0;
          for (int64_t j = first; j < last; ++j) rank += lengths(j) > lengths(i) || (lengths(j) == lengths(i) && j < i);
          permutation(first + rank) = O(i);
        });
  }
  const bool permuted = sigma > 1;
  Kokkos::View<O*, D> position_lengths(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::blocked_ell::row_lengths"), m);
  Kokkos::parallel_for(
      "kspmv::convert[blocked_ell_lengths]", Policy(0, m),
      KOKKOS_LAMBDA(const int64_t p) { position_lengths(p) = lengths(permuted ? int64_t(permutation(p)) : p); });
  Kokkos::View<int64_t*, D> slice_slots(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::blocked_ell::slots"), num_slices);
  Kokkos::parallel_for(
      "kspmv::convert[blocked_ell_widths]", Policy(0, num_slices), KOKKOS_LAMBDA(const int64_t s) {
        int64_t width = 0;
        for (int64_t p = s * C; p < (s + 1) * C && p < m; ++p) width = position_lengths(p) > width ? position_lengths(p) : width;
        slice_slots(s) = width * C;
      });
  check_fill("BlockedEllMatrix", total_count<execution_space>(slice_slots), A.nnz(), max_fill);
  Kokkos::View<Off*, D> slice_offsets("kspmv::blocked_ell::slice_offsets", num_slices + 1);
  const int64_t stored = exclusive_scan<execution_space>(slice_offsets, slice_slots, "BlockedEllMatrix");
  Kokkos::View<O*, D> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::blocked_ell::col_indices"), stored);
  Kokkos::View<S*, D> values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::blocked_ell::values"), stored);
  Kokkos::parallel_for(
      "kspmv::convert[blocked_ell]", Policy(0, num_slices * C), KOKKOS_LAMBDA(const int64_t p) {
        const int64_t s = p / C, r = p % C;
        const int64_t width = (int64_t(slice_offsets(s + 1)) - int64_t(slice_offsets(s))) / C;
        const int64_t first_slot = int64_t(slice_offsets(s)) + r;
        if (p < m) {
          fill_padded_row(A, permuted ? int64_t(permutation(p)) : p, width, first_slot, C, indices, values);
        } else {  // rows past the end of the last slice: never read, but defined
          for (int64_t k = 0; k < width; ++k) {
            indices(first_slot + k * C) = 0;
            values(first_slot + k * C) = 0;
          }
        }
      });
  return BlockedEllMatrix<S, O, Off, D>(A.num_rows(), A.num_cols(), slice_height, A.nnz(), slice_offsets, indices,
                                        values, position_lengths, permutation);
}

// Back to CSR for either layout: original row of position p, its length, and where its slot k is.
template <class S, class O, class Off, class D, class SlotOf>
CsrMatrix<S, O, Off, D> padded_to_csr(O num_rows, O num_cols, const Kokkos::View<O*, D>& position_lengths,
                                      const Kokkos::View<O*, D>& permutation, const Kokkos::View<O*, D>& indices,
                                      const Kokkos::View<S*, D>& values, const SlotOf& slot_of) {
  using execution_space = typename D::execution_space;
  using Policy = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  const int64_t m = num_rows;
  const bool permuted = permutation.extent(0) != 0;
  Kokkos::View<O*, D> lengths(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::to_csr::lengths"), m);
  Kokkos::parallel_for(
      "kspmv::to_csr[lengths]", Policy(0, m), KOKKOS_LAMBDA(const int64_t p) {
        lengths(permuted ? int64_t(permutation(p)) : p) = position_lengths(p);
      });
  Kokkos::View<Off*, D> offsets("kspmv::csr::row_offsets", m + 1);
  const int64_t nnz = exclusive_scan<execution_space>(offsets, lengths);
  Kokkos::View<O*, D> csr_indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::col_indices"), nnz);
  Kokkos::View<S*, D> csr_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::values"), nnz);
  Kokkos::parallel_for(
      "kspmv::to_csr[padded]", Policy(0, m), KOKKOS_LAMBDA(const int64_t p) {
        const int64_t row = permuted ? int64_t(permutation(p)) : p;
        for (int64_t k = 0; k < position_lengths(p); ++k) {
          const int64_t slot = slot_of(p, k);
          csr_indices(offsets(row) + k) = indices(slot);
          csr_values(offsets(row) + k) = values(slot);
        }
      });
  return CsrMatrix<S, O, Off, D>(num_rows, num_cols, offsets, csr_indices, csr_values);
}

template <class S, class O, class Off, class D>
struct EllSlot {
  int64_t num_rows;
  KOKKOS_INLINE_FUNCTION int64_t operator()(int64_t p, int64_t k) const { return k * num_rows + p; }
};

template <class S, class O, class Off, class D>
struct BlockedEllSlot {
  Kokkos::View<Off*, D> slice_offsets;
  int64_t slice_height;
  KOKKOS_INLINE_FUNCTION int64_t operator()(int64_t p, int64_t k) const {
    return int64_t(slice_offsets(p / slice_height)) + k * slice_height + p % slice_height;
  }
};

template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> ell_to_csr(const EllMatrix<S, O, Off, D>& A) {
  return padded_to_csr<S, O, Off, D>(A.num_rows(), A.num_cols(), A.row_lengths, Kokkos::View<O*, D>(), A.col_indices,
                                     A.values, EllSlot<S, O, Off, D>{int64_t(A.num_rows())});
}

template <class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> blocked_ell_to_csr(const BlockedEllMatrix<S, O, Off, D>& A) {
  return padded_to_csr<S, O, Off, D>(A.num_rows(), A.num_cols(), A.row_lengths, A.permutation, A.col_indices,
                                     A.values, BlockedEllSlot<S, O, Off, D>{A.slice_offsets, A.slice_height()});
}

}  // namespace impl
}  // namespace kspmv
