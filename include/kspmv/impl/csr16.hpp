#pragma once
// CSR with 16-bit column offsets: a thread per row. A row's entries are walked block by block,
// so each block's base column and wide offset are read once per block a row touches, and a
// narrow block's loop reads 2 bytes of index an entry with no branch. (The Kokkos kernel of every
// backend; on GPUs with the raw kernels, spmv runs the load-balanced CSR kernel over the
// format's blocks instead: src/raw/kernels.hpp, Csr16Columns.)

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView, bool BetaIsZero>
struct Csr16Functor {
  using scalar_type = typename YView::non_const_value_type;
  using ordinal_type = typename Matrix::ordinal_type;
  typename Matrix::row_offsets_type row_offsets;
  typename Matrix::values_type values;
  typename Matrix::half_view col_low, col_high;
  typename Matrix::base_view block_base;
  typename Matrix::wide_view wide_offset;
  XView x;
  YView y;
  scalar_type alpha, beta;

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t row) const {
    constexpr int64_t block = Matrix::block_entries;
    const int64_t end = int64_t(row_offsets(row + 1));
    scalar_type sum = 0;
    for (int64_t k = int64_t(row_offsets(row)); k < end;) {
      const int64_t b = k / block, stop = (b + 1) * block < end ? (b + 1) * block : end;
      const int64_t first = int64_t(block_base(b)), wide = wide_offset(b);
      if (wide < 0) {
        for (; k < stop; ++k) sum += values(k) * x(first + int64_t(col_low(k)));
      } else {
        const int64_t high = wide - b * block;  // col_high index of entry k is high + k
        for (; k < stop; ++k) {
          sum += values(k) * x(first + (int64_t(col_high(high + k)) << 16) + int64_t(col_low(k)));
        }
      }
    }
    if (BetaIsZero) {
      y(row) = alpha * sum;
    } else {
      y(row) = beta * y(row) + alpha * sum;
    }
  }
};

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr16(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
                typename YView::non_const_value_type beta, const YView& y) {
  Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>> policy(space, 0, A.num_rows());
  if (beta == 0) {
    Kokkos::parallel_for("kspmv::spmv[csr16]", policy,
                         Csr16Functor<Matrix, XView, YView, true>{A.row_offsets, A.values, A.col_low, A.col_high,
                                                                  A.block_base, A.wide_offset, x, y, alpha, beta});
  } else {
    Kokkos::parallel_for("kspmv::spmv[csr16]", policy,
                         Csr16Functor<Matrix, XView, YView, false>{A.row_offsets, A.values, A.col_low, A.col_high,
                                                                   A.block_base, A.wide_offset, x, y, alpha, beta});
  }
}

}  // namespace impl
}  // namespace kspmv
