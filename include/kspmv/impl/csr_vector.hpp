#pragma once
// Vector CSR: each row is reduced by a power-of-two group of vector lanes (the team policy's
// vector length), several rows per team. Lanes of a group read consecutive entries of the row,
// so loads of values and column indices coalesce once rows are a few entries long.

#include <Kokkos_Core.hpp>

#include "launch.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace kspmv {
namespace impl {

template <class ExecSpace, class Matrix, class XView, class YView, bool BetaIsZero>
struct CsrVectorFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using ordinal_type = typename Matrix::ordinal_type;
  using offset_type = typename Matrix::offset_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;

  typename Matrix::row_offsets_type row_offsets;
  typename Matrix::col_indices_type col_indices;
  typename Matrix::values_type values;
  XView x;
  YView y;
  scalar_type alpha;
  scalar_type beta;
  int64_t num_rows;
  int64_t rows_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t first = static_cast<int64_t>(team.league_rank()) * rows_per_team;
    const int64_t last = first + rows_per_team < num_rows ? first + rows_per_team : num_rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const int64_t r) {
      const ordinal_type row = static_cast<ordinal_type>(r);
      scalar_type sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, row_offsets(row), row_offsets(row + 1)),
          [&](const offset_type k, scalar_type& partial) { partial += values(k) * x(col_indices(k)); }, sum);
      Kokkos::single(Kokkos::PerThread(team), [&]() {
        if (BetaIsZero) {
          y(row) = alpha * sum;  // y is not read: NaN in y must not leak
        } else {
          y(row) = beta * y(row) + alpha * sum;
        }
      });
    });
  }
};

// The largest team the backend allows depends on the functor (registers) and the vector length,
// so it is known only here. An automatic team size is reduced to fit; a forced one that does
// not fit is an error, not a silent change.
template <class ExecSpace, class Functor>
void launch_csr_vector(const ExecSpace& space, const CsrVectorShape& shape, int league_size, const Functor& f,
                       const char* label = "kspmv::spmv[csr_vector]") {
  const int max_team = Kokkos::TeamPolicy<ExecSpace>(space, league_size, 1, shape.lanes_per_row)
                           .team_size_max(f, Kokkos::ParallelForTag());
  int team_size = shape.team_size;
  if (team_size > max_team) {
    if (shape.team_size_forced) {
      throw std::invalid_argument("kspmv::spmv[csr_vector]: team_size " + std::to_string(team_size) +
                                  " exceeds this backend's maximum of " + std::to_string(max_team) + " for " +
                                  std::to_string(shape.lanes_per_row) + " lanes per row");
    }
    team_size = max_team;
  }
  Kokkos::parallel_for(label, Kokkos::TeamPolicy<ExecSpace>(space, league_size, team_size, shape.lanes_per_row), f);
}

/// y = alpha*A*x + beta*y with shape.lanes_per_row lanes per row (shape from csr_vector_shape).
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_vector(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
                     typename YView::non_const_value_type beta, const YView& y, const CsrVectorShape& shape) {
  const int64_t num_rows = A.num_rows();
  const int64_t rows_per_team = shape.rows_per_team();
  const int64_t league_size = (num_rows + rows_per_team - 1) / rows_per_team;
  if (league_size > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("kspmv::spmv[csr_vector]: " + std::to_string(league_size) +
                                " teams exceed the launch limit; raise rows_per_thread");
  }
  if (beta == 0) {
    launch_csr_vector(space, shape, static_cast<int>(league_size),
                      CsrVectorFunctor<ExecSpace, Matrix, XView, YView, true>{
                          A.row_offsets, A.col_indices, A.values, x, y, alpha, beta, num_rows, rows_per_team});
  } else {
    launch_csr_vector(space, shape, static_cast<int>(league_size),
                      CsrVectorFunctor<ExecSpace, Matrix, XView, YView, false>{
                          A.row_offsets, A.col_indices, A.values, x, y, alpha, beta, num_rows, rows_per_team});
  }
}

}  // namespace impl
}  // namespace kspmv
