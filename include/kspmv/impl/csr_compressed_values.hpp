#pragma once
// CSR holding its values compressed (UniformCsrMatrix: one value; CodedCsrMatrix: a code an entry
// into a table): a thread per row, each product the entry's value times x(col) as CSR's would be
// with that value stored. (The Kokkos kernel of every backend; on GPUs with the raw kernels, spmv
// runs the load-balanced CSR kernel over the format's partition instead: src/raw/kernels.hpp,
// UniformValue and CodedValues.)

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kspmv {
namespace impl {

// Entry k's value, in the vectors' scalar Y (double in mixed precision).
template <class Y>
struct OneValue {
  Y value;
  KOKKOS_INLINE_FUNCTION Y operator()(int64_t) const { return value; }
};
template <class Codes, class Table, class Y>
struct CodedValue {
  Codes codes;
  Table table;
  KOKKOS_INLINE_FUNCTION Y operator()(int64_t k) const { return Y(table(codes(k))); }
};

template <class Matrix, class ValueOf, class XView, class YView, bool BetaIsZero>
struct CompressedValuesFunctor {
  using scalar_type = typename YView::non_const_value_type;
  typename Matrix::csr_type::row_offsets_type row_offsets;
  typename Matrix::csr_type::col_indices_type col_indices;
  ValueOf value_of;
  XView x;
  YView y;
  scalar_type alpha, beta;

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t row) const {
    const int64_t end = int64_t(row_offsets(row + 1));
    scalar_type sum = 0;
    for (int64_t k = int64_t(row_offsets(row)); k < end; ++k) sum += value_of(k) * x(col_indices(k));
    if (BetaIsZero) {
      y(row) = alpha * sum;
    } else {
      y(row) = beta * y(row) + alpha * sum;
    }
  }
};

template <class ExecSpace, class Matrix, class ValueOf, class XView, class YView>
void spmv_csr_compressed_values(const ExecSpace& space, const char* label, typename YView::non_const_value_type alpha,
                                const Matrix& A, const ValueOf& value_of, const XView& x,
                                typename YView::non_const_value_type beta, const YView& y) {
  using Y = typename YView::non_const_value_type;
  Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>> policy(space, 0, A.num_rows());
  const auto& csr = A.balanced.csr;
  if (beta == Y(0)) {
    Kokkos::parallel_for(label, policy,
                         CompressedValuesFunctor<Matrix, ValueOf, XView, YView, true>{csr.row_offsets, csr.col_indices,
                                                                                     value_of, x, y, alpha, beta});
  } else {
    Kokkos::parallel_for(label, policy,
                         CompressedValuesFunctor<Matrix, ValueOf, XView, YView, false>{csr.row_offsets, csr.col_indices,
                                                                                      value_of, x, y, alpha, beta});
  }
}

// The Kokkos kernels of UniformCsrMatrix and CodedCsrMatrix.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_uniform(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                      const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  using Y = typename YView::non_const_value_type;
  spmv_csr_compressed_values(space, "kspmv::spmv[csr_uniform]", alpha, A, OneValue<Y>{Y(A.value)}, x, beta, y);
}
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_coded(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                    const XView& x, typename YView::non_const_value_type beta, const YView& y) {
  using Y = typename YView::non_const_value_type;
  using ValueOf = CodedValue<typename Matrix::code_view, typename Matrix::table_view, Y>;
  spmv_csr_compressed_values(space, "kspmv::spmv[csr_coded]", alpha, A, ValueOf{A.codes, A.table}, x, beta, y);
}

}  // namespace impl
}  // namespace kspmv
