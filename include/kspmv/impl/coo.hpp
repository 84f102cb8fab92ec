#pragma once
// COO kernels. Both add alpha*A*x into y (the caller has applied beta). The atomic one gives
// each entry a thread and is fast, but the order of the additions into a row, and so the
// rounding, changes from run to run. The deterministic one gives every row's sum a fixed order:
// entries are cut into fixed chunks; a row inside one chunk is summed and written by that
// chunk's thread, and a row crossing chunk boundaries is finished by the thread of the chunk
// where it starts, adding the chunks' partial sums in order. The same bits every run, O(nnz)
// work, no atomics.

#include <Kokkos_Core.hpp>

#include "launch.hpp"

#include <cstdint>
#include <utility>
#include <string>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView>
struct CooAtomicFunctor {
  using scalar_type = typename YView::non_const_value_type;
  typename Matrix::index_view row_indices, col_indices;
  typename Matrix::values_view values;
  XView x;
  YView y;
  scalar_type alpha;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t k) const {
    Kokkos::atomic_add(&y(row_indices(k)), alpha * values(k) * x(col_indices(k)));
  }
};

/// y += alpha*A*x, or (transpose) y += alpha*A^T*x: the same kernel with rows and columns swapped.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_coo_atomic(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
                     const YView& y, bool transpose = false) {
  Kokkos::parallel_for(transpose ? "kspmv::spmv[coo_atomic_transpose]" : "kspmv::spmv[coo_atomic]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, A.nnz()),
                       CooAtomicFunctor<Matrix, XView, YView>{transpose ? A.col_indices : A.row_indices,
                                                              transpose ? A.row_indices : A.col_indices, A.values, x,
                                                              y, alpha});
}

// Phase 1 of the deterministic kernel: chunk c covers entries [c*chunk, min(nnz, (c+1)*chunk)).
// Its first and last rows may continue into the neighbouring chunks; their partial sums go to
// head_sum / tail_sum, every other row is complete and is written.
template <class Matrix, class XView, class YView>
struct CooChunkFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using ordinal_type = typename Matrix::ordinal_type;
  typename Matrix::index_view row_indices, col_indices;
  typename Matrix::values_view values;
  XView x;
  YView y;
  Kokkos::View<scalar_type*, typename Matrix::device_type> head_sum, tail_sum;
  scalar_type alpha;
  int64_t nnz, chunk;

  KOKKOS_INLINE_FUNCTION bool starts_before(int64_t begin, ordinal_type row) const {
    return begin > 0 && row_indices(begin - 1) == row;
  }
  KOKKOS_INLINE_FUNCTION bool continues_after(int64_t end, ordinal_type row) const {
    return end < nnz && row_indices(end) == row;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t c) const {
    const int64_t begin = c * chunk;
    const int64_t end = begin + chunk < nnz ? begin + chunk : nnz;
    const ordinal_type first_row = row_indices(begin), last_row = row_indices(end - 1);
    int64_t k = begin;
    while (k < end) {
      const ordinal_type row = row_indices(k);
      scalar_type sum = 0;
      for (; k < end && row_indices(k) == row; ++k) sum += values(k) * x(col_indices(k));
      const bool open_front = row == first_row && starts_before(begin, row);
      const bool open_back = row == last_row && continues_after(end, row);
      if (open_front) {
        head_sum(c) = sum;  // also the whole chunk when the chunk lies inside one row
      } else if (open_back) {
        tail_sum(c) = sum;
      } else {
        y(row) += alpha * sum;
      }
    }
  }
};

// Phase 2: the chunk where an open row starts adds the later chunks' head sums, in order.
template <class Matrix, class YView>
struct CooCarryFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using ordinal_type = typename Matrix::ordinal_type;
  typename Matrix::index_view row_indices;
  YView y;
  Kokkos::View<scalar_type*, typename Matrix::device_type> head_sum, tail_sum;
  scalar_type alpha;
  int64_t nnz, chunk, num_chunks;

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t c) const {
    const int64_t begin = c * chunk;
    const int64_t end = begin + chunk < nnz ? begin + chunk : nnz;
    const ordinal_type row = row_indices(end - 1);
    if (end >= nnz || row_indices(end) != row) return;      // last row closes here
    if (begin > 0 && row_indices(begin) == row && row_indices(begin - 1) == row) return;  // started earlier
    scalar_type total = tail_sum(c);
    for (int64_t d = c + 1; d < num_chunks; ++d) {
      if (row_indices(d * chunk) != row) break;
      total += head_sum(d);
      const int64_t d_end = (d + 1) * chunk < nnz ? (d + 1) * chunk : nnz;
      if (row_indices(d_end - 1) != row) break;
    }
    y(row) += alpha * total;
  }
};

// Workspace for partial sums in the type of y (the type the sums run in): the matrix's own when
// it has that type and holds `count` entries, else a fresh View (a matrix built for fewer
// chunks, or mixed precision: partial sums in float would lose what double accumulation keeps).
template <class Sum, class ExecSpace, class Workspace>
Kokkos::View<Sum*, typename Workspace::device_type> sum_workspace(const ExecSpace& space, const Workspace& workspace,
                                                                  int64_t count) {
  if constexpr (std::is_same<typename Workspace::non_const_value_type, Sum>::value) {
    if (int64_t(workspace.extent(0)) >= count) return workspace;
  }
  return Kokkos::View<Sum*, typename Workspace::device_type>(
      Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kspmv::spmv partial sums"), size_t(count));
}

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_coo_deterministic(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                            const XView& x, const YView& y) {
  using scalar_type = typename YView::non_const_value_type;
  const int64_t nnz = A.nnz();
  const int64_t chunk = coo_chunk_size<ExecSpace>();
  const int64_t num_chunks = (nnz + chunk - 1) / chunk;
  // Head and tail partial of every chunk: the matrix's workspace, or a fresh one.
  const auto workspace = sum_workspace<scalar_type>(space, A.partial_sums, 2 * num_chunks);
  const auto head_sum = Kokkos::subview(workspace, std::make_pair(int64_t(0), num_chunks));
  const auto tail_sum = Kokkos::subview(workspace, std::make_pair(num_chunks, 2 * num_chunks));
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>;
  Kokkos::parallel_for("kspmv::spmv[coo_deterministic]", Policy(space, 0, num_chunks),
                       CooChunkFunctor<Matrix, XView, YView>{A.row_indices, A.col_indices, A.values, x, y, head_sum,
                                                             tail_sum, alpha, nnz, chunk});
  Kokkos::parallel_for("kspmv::spmv[coo_deterministic_carry]", Policy(space, 0, num_chunks),
                       CooCarryFunctor<Matrix, YView>{A.row_indices, y, head_sum, tail_sum, alpha, nnz, chunk,
                                                      num_chunks});
}

}  // namespace impl
}  // namespace kspmv
