#pragma once
// Deterministic mode T (Algorithm::csr_transposed): y = alpha*A^T*x + beta*y as vector CSR over
// the columns of A, read through A's transposed structure (impl/convert_transpose.hpp): column j
// is reduced by a group of lanes over its entries in order of increasing row, so every run gives
// the same bits, with no atomics. A's values are read where they are (an index an entry more
// than CSR, gathered), so they may change between calls.

#include <Kokkos_Core.hpp>

#include "csr_vector.hpp"
#include "launch.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace kspmv {
namespace impl {

template <class ExecSpace, class Matrix, class Structure, class XView, class YView, bool BetaIsZero>
struct CsrTransposedFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using offset_type = typename Matrix::offset_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  decltype(Structure::offsets) offsets;  // of A^T's rows (A's columns)
  decltype(Structure::entries) entries;  // positions in A's values
  decltype(Structure::rows) rows;        // A's rows: the entries of x
  typename Matrix::values_type values;
  XView x;
  YView y;
  scalar_type alpha;
  scalar_type beta;
  int64_t num_columns;
  int64_t columns_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t first = static_cast<int64_t>(team.league_rank()) * columns_per_team;
    const int64_t last = first + columns_per_team < num_columns ? first + columns_per_team : num_columns;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const int64_t j) {
      scalar_type sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, offsets(j), offsets(j + 1)),
          [&](const offset_type p, scalar_type& partial) { partial += values(entries(p)) * x(rows(p)); }, sum);
      Kokkos::single(Kokkos::PerThread(team), [&]() {
        if (BetaIsZero) {
          y(j) = alpha * sum;  // y is not read: NaN in y must not leak
        } else {
          y(j) = beta * y(j) + alpha * sum;
        }
      });
    });
  }
};

/// y = alpha*A^T*x + beta*y through S, A's transposed structure; the shape of vector CSR for A^T.
template <class ExecSpace, class Matrix, class Structure, class XView, class YView>
void spmv_csr_transposed(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                         const Structure& S, const XView& x, typename YView::non_const_value_type beta,
                         const YView& y) {
  const int64_t n = A.num_cols();
  const CsrVectorShape shape = csr_vector_shape<ExecSpace>(n, A.nnz(), SpmvOptions());
  const int64_t per_team = shape.rows_per_team();
  const int64_t league_size = (n + per_team - 1) / per_team;
  if (league_size > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("kspmv::spmv[csr_transposed]: " + std::to_string(league_size) +
                                " teams exceed the launch limit");
  }
  if (beta == 0) {
    launch_csr_vector(space, shape, int(league_size),
                      CsrTransposedFunctor<ExecSpace, Matrix, Structure, XView, YView, true>{
                          S.offsets, S.entries, S.rows, A.values, x, y, alpha, beta, n, per_team},
                      "kspmv::spmv[csr_transposed]");
  } else {
    launch_csr_vector(space, shape, int(league_size),
                      CsrTransposedFunctor<ExecSpace, Matrix, Structure, XView, YView, false>{
                          S.offsets, S.entries, S.rows, A.values, x, y, alpha, beta, n, per_team},
                      "kspmv::spmv[csr_transposed]");
  }
}

}  // namespace impl
}  // namespace kspmv
