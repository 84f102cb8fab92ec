#pragma once
// Blocked ELLPACK (SELL-C-sigma): a team covers several slices, one team thread per row; slot k
// of a slice's rows is contiguous, so a slice of warp height reads one coalesced segment per
// slot, and each slice only runs to its own width.

#include <Kokkos_Core.hpp>

#include "launch.hpp"

#include <cstdint>

namespace kspmv {
namespace impl {

template <class ExecSpace, class Matrix, class XView, class YView, bool BetaIsZero>
struct BlockedEllFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using offset_type = typename Matrix::offset_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  typename Matrix::offset_view slice_offsets;
  typename Matrix::index_view col_indices;
  typename Matrix::values_view values;
  typename Matrix::index_view permutation;  // empty: position p is row p
  XView x;
  YView y;
  scalar_type alpha, beta;
  int64_t num_rows;
  int slice_height, slices_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t first_slice = int64_t(team.league_rank()) * slices_per_team;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, slices_per_team * slice_height), [&](const int t) {
      const int64_t slice = first_slice + t / slice_height;
      const int64_t position = slice * slice_height + t % slice_height;
      if (position >= num_rows) return;
      const offset_type begin = slice_offsets(slice);
      const int64_t width = (int64_t(slice_offsets(slice + 1)) - int64_t(begin)) / slice_height;
      scalar_type sum = 0;
      for (int64_t k = 0, slot = int64_t(begin) + t % slice_height; k < width; ++k, slot += slice_height) {
        sum += values(slot) * x(col_indices(slot));
      }
      const int64_t row = permutation.extent(0) ? int64_t(permutation(position)) : position;
      if (BetaIsZero) {
        y(row) = alpha * sum;
      } else {
        y(row) = beta * y(row) + alpha * sum;
      }
    });
  }
};

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_blocked_ell(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
                      typename YView::non_const_value_type beta, const YView& y) {
  const BlockedEllShape shape = blocked_ell_shape<ExecSpace>(A.slice_height());
  const int64_t league = (int64_t(A.num_slices()) + shape.slices_per_team - 1) / shape.slices_per_team;
  Kokkos::TeamPolicy<ExecSpace> policy(space, int(league), shape.team_size, 1);
  if (beta == 0) {
    Kokkos::parallel_for("kspmv::spmv[blocked_ell]", policy,
                         BlockedEllFunctor<ExecSpace, Matrix, XView, YView, true>{
                             A.slice_offsets, A.col_indices, A.values, A.permutation, x, y, alpha, beta,
                             int64_t(A.num_rows()), A.slice_height(), shape.slices_per_team});
  } else {
    Kokkos::parallel_for("kspmv::spmv[blocked_ell]", policy,
                         BlockedEllFunctor<ExecSpace, Matrix, XView, YView, false>{
                             A.slice_offsets, A.col_indices, A.values, A.permutation, x, y, alpha, beta,
                             int64_t(A.num_rows()), A.slice_height(), shape.slices_per_team});
  }
}

}  // namespace impl
}  // namespace kspmv
