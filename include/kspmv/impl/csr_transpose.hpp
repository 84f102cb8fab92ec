#pragma once
// Transposed CSR without forming A^T: y += alpha*A^T*x (the caller has applied beta). A's
// entries are read once, contiguously, and a(i,j)*alpha*x(i) is added into y(j) with an atomic,
// by one of three kernels (launch.hpp: transpose_candidates): a thread per row (hosts), a
// group of vector lanes per row (the shape of vector CSR; 2 lanes where rows are shifted copies
// of their neighbours, launch.hpp: transpose_lanes), or a thread per entry over the balanced
// partition, its rows staged or searched (GPUs: the fastest, timed on A's first call). A thread
// per row on the H200 made a warp's 32 neighbouring rows add into the same entries of y at once
// (27-point Poisson 7.5 ms against 1.7 ms for KokkosKernels' default), and lanes sized from the
// average row left a long row to a few
// of them (heavy_rows 190 ms against 3.1 ms). The order of the additions into an entry of y, and
// so its last bits, can change from run to run on parallel backends (as with KokkosKernels'
// native transposed kernel); Serial adds in row order.

#include <Kokkos_Core.hpp>

#include "csr_vector.hpp"
#include "launch.hpp"
#include "../spmv_options.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kspmv {
namespace impl {

template <class Matrix, class XView, class YView>
struct CsrTransposeAtomicFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using offset_type = typename Matrix::offset_type;
  typename Matrix::row_offsets_type row_offsets;
  typename Matrix::col_indices_type col_indices;
  typename Matrix::values_type values;
  XView x;
  YView y;
  scalar_type alpha;

  KOKKOS_INLINE_FUNCTION void operator()(const int64_t row) const {
    // Not skipped when x(row) is 0: 0 * Inf in A must still give NaN, as A^T*x does.
    const scalar_type scaled = alpha * x(row);
    const offset_type end = row_offsets(row + 1);
    for (offset_type k = row_offsets(row); k < end; ++k) Kokkos::atomic_add(&y(col_indices(k)), values(k) * scaled);
  }
};

template <class ExecSpace, class Matrix, class XView, class YView>
struct CsrTransposeVectorFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using offset_type = typename Matrix::offset_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  typename Matrix::row_offsets_type row_offsets;
  typename Matrix::col_indices_type col_indices;
  typename Matrix::values_type values;
  XView x;
  YView y;
  scalar_type alpha;
  int64_t num_rows;
  int64_t rows_per_team;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t first = static_cast<int64_t>(team.league_rank()) * rows_per_team;
    const int64_t last = first + rows_per_team < num_rows ? first + rows_per_team : num_rows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const int64_t row) {
      const scalar_type scaled = alpha * x(row);
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, row_offsets(row), row_offsets(row + 1)),
                           [&](const offset_type k) { Kokkos::atomic_add(&y(col_indices(k)), values(k) * scaled); });
    });
  }
};

/// y += alpha*A^T*x, a thread per row of A.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_transpose_rows(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                             const XView& x, const YView& y) {
  Kokkos::parallel_for("kspmv::spmv[csr_transpose_rows]",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, A.num_rows()),
                       CsrTransposeAtomicFunctor<Matrix, XView, YView>{A.row_offsets, A.col_indices, A.values, x, y,
                                                                        alpha});
}

// The nonzeros split evenly: a team per block of the balanced partition, a thread per entry,
// whose row comes either from a binary search over the rows the block covers (StageRows false:
// their offsets stay in the cache) or, StageRows, from team scratch where the block staged the
// rows of its entries first: each thread finds the row of a run of consecutive entries by one
// search, then walks the run; the products then go out entry after entry, coalesced. Rows of
// any length cost the same per entry. Staged, the ~9 dependent loads of a search an entry are
// gone: 11-36% less time on the H200 on stencils, bands and meshes (the band, Poisson,
// poly_chain, bcsstk13, dw8192, stocfor3); but 4-31% more where many rows share a column
// (arrow, lp_fit2p, ScaleMicrogrid, orani678: atomics into one entry of y from many rows at
// once, which the searches spaced out). perf_tests/results/h200_mode_t_entries/.
template <class ExecSpace, class Balanced, class XView, class YView, bool StageRows>
struct CsrTransposeEntriesFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using csr_type = typename std::remove_cv<decltype(Balanced::csr)>::type;
  using rows_scratch = Kokkos::View<int64_t*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  typename csr_type::row_offsets_type row_offsets;
  typename csr_type::col_indices_type col_indices;
  typename csr_type::values_type values;
  typename Balanced::index_view first_row;
  XView x;
  YView y;
  scalar_type alpha;
  int64_t nnz, entries_per_block;

  static size_t scratch_bytes(int64_t entries_per_block) { return rows_scratch::shmem_size(entries_per_block); }

  // The last row in [lo, hi] starting at or before entry k: the row holding k.
  KOKKOS_INLINE_FUNCTION int64_t row_holding(const int64_t k, int64_t lo, int64_t hi) const {
    while (lo < hi) {
      const int64_t mid = (lo + hi + 1) / 2;
      if (int64_t(row_offsets(mid)) <= k) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t b = team.league_rank(), k0 = b * entries_per_block;
    const int64_t k1 = k0 + entries_per_block < nnz ? k0 + entries_per_block : nnz;
    int64_t first = int64_t(first_row(b));
    if (first > 0 && int64_t(row_offsets(first)) > k0) --first;  // the row holding entry k0
    const int64_t last = int64_t(first_row(b + 1)) - 1 > first ? int64_t(first_row(b + 1)) - 1 : first;
    if constexpr (!StageRows) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, k0, k1), [&](const int64_t k) {
        Kokkos::atomic_add(&y(col_indices(k)), alpha * values(k) * x(row_holding(k, first, last)));
      });
      return;
    }
    rows_scratch rows(team.team_scratch(0), entries_per_block);
    const int threads = team.team_size();
    const int64_t run = (k1 - k0 + threads - 1) / threads;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, threads), [&](const int t) {
      const int64_t begin = k0 + int64_t(t) * run, end = begin + run < k1 ? begin + run : k1;
      if (begin >= end) return;
      int64_t row = row_holding(begin, first, last), next = int64_t(row_offsets(row + 1));
      for (int64_t k = begin; k < end; ++k) {
        if (k >= next) {  // the next row, or past empty rows a search
          row = int64_t(row_offsets(row + 2)) > k ? row + 1 : row_holding(k, row + 1, last);
          next = int64_t(row_offsets(row + 1));
        }
        rows(k - k0) = row;
      }
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, k0, k1), [&](const int64_t k) {
      Kokkos::atomic_add(&y(col_indices(k)), alpha * values(k) * x(rows(k - k0)));
    });
  }
};

/// y += alpha*A^T*x over the balanced partition of A (B.csr), the rows of a block's entries
/// staged (stage_rows, where a block's rows fit in team scratch) or searched for each entry;
/// only the first `first_blocks` blocks of the partition where that is >= 0.
template <class ExecSpace, class Balanced, class XView, class YView>
void spmv_csr_transpose_entries(const ExecSpace& space, typename YView::non_const_value_type alpha, const Balanced& B,
                                const XView& x, const YView& y, bool stage_rows = true, int64_t first_blocks = -1) {
  const int64_t blocks = first_blocks >= 0 && first_blocks < B.num_blocks() ? first_blocks : B.num_blocks();
  if (blocks > int64_t(std::numeric_limits<int>::max())) {
    throw std::invalid_argument("kspmv::spmv[csr_transpose_entries]: " + std::to_string(blocks) +
                                " blocks exceed the launch limit");
  }
  const int64_t nnz = int64_t(B.nnz()), entries = B.entries_per_block();
  using Staged = CsrTransposeEntriesFunctor<ExecSpace, Balanced, XView, YView, true>;
  // Blocks a caller made larger than team scratch holds search instead.
  if (stage_rows && Staged::scratch_bytes(entries) > size_t(Kokkos::TeamPolicy<ExecSpace>::scratch_size_max(0))) {
    stage_rows = false;
  }
  if (stage_rows) {
    using Functor = Staged;
    Kokkos::parallel_for("kspmv::spmv[csr_transpose_entries]",
                         Kokkos::TeamPolicy<ExecSpace>(space, int(blocks), Kokkos::AUTO)
                             .set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(entries))),
                         Functor{B.csr.row_offsets, B.csr.col_indices, B.csr.values, B.block_first_row, x, y, alpha, nnz,
                                 entries});
  } else {
    // AUTO: 128 threads on the H200. 256 made this form as slow as the staged one where many
    // rows share a column, the case it is kept for (arrow x600 3183 -> 4175 us; lab/call10).
    using Functor = CsrTransposeEntriesFunctor<ExecSpace, Balanced, XView, YView, false>;
    Kokkos::parallel_for("kspmv::spmv[csr_transpose_entries_searched]",
                         Kokkos::TeamPolicy<ExecSpace>(space, int(blocks), Kokkos::AUTO),
                         Functor{B.csr.row_offsets, B.csr.col_indices, B.csr.values, B.block_first_row, x, y, alpha, nnz,
                                 entries});
  }
}

/// y += alpha*A^T*x, a group of lanes_per_row vector lanes per row of A (vector CSR's shape
/// otherwise; launch.hpp: transpose_lanes); only A's first `first_rows` rows where that is >= 0.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_transpose_lanes(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A,
                              const XView& x, const YView& y, int lanes_per_row, int64_t first_rows = -1) {
  SpmvOptions options;
  options.lanes_per_row = lanes_per_row;
  const CsrVectorShape shape = csr_vector_shape<ExecSpace>(A.num_rows(), A.nnz(), options);
  const int64_t rows_per_team = shape.rows_per_team();
  const int64_t rows = first_rows >= 0 && first_rows < int64_t(A.num_rows()) ? first_rows : int64_t(A.num_rows());
  const int64_t league_size = (rows + rows_per_team - 1) / rows_per_team;
  if (league_size > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("kspmv::spmv[csr_transpose_lanes]: " + std::to_string(league_size) +
                                " teams exceed the launch limit");
  }
  launch_csr_vector(space, shape, int(league_size),
                    CsrTransposeVectorFunctor<ExecSpace, Matrix, XView, YView>{
                        A.row_offsets, A.col_indices, A.values, x, y, alpha, rows, rows_per_team},
                    "kspmv::spmv[csr_transpose_lanes]");
}

/// Mode T's automatic kernel on a GPU (launch.hpp: transpose_candidates): the split entries with
/// their rows staged or searched, and the lanes kernel (`lanes` per row) where it applies, each
/// launched on A and x into a scratch vector of A's columns with the device fenced around it,
/// the fastest kept (ties: the earlier of staged, searched, lanes). Each is launched first on a
/// few rows (its code loaded, untimed), then timed over all of A in two rounds, the second in
/// the reverse order (a clock still rising or a cache warmed by the kernel before favours no
/// one), its shorter time kept; two rounds more where the runs take under 200 us, whose times
/// the launch's own cost blurs. Costs 4-12 products, once.
template <class ExecSpace, class Matrix, class Balanced, class XView, class YView>
TransposeKernel time_transpose_kernels(const ExecSpace& space, const Matrix& A, const Balanced& B, const XView& x,
                                       int lanes, bool with_lanes) {
  using scalar_type = typename YView::non_const_value_type;
  const Kokkos::View<scalar_type*, typename YView::device_type> trial(Kokkos::view_alloc(space, "kspmv::transpose_trial"),
                                                                     A.num_cols());
  const auto run = [&](TransposeKernel kernel, bool few) {
    if (kernel == TransposeKernel::lanes) {
      spmv_csr_transpose_lanes(space, scalar_type(1), A, x, trial, lanes, few ? 64 : -1);
    } else {
      spmv_csr_transpose_entries(space, scalar_type(1), B, x, trial, kernel == TransposeKernel::entries, few ? 1 : -1);
    }
  };
  const auto seconds = [&](TransposeKernel kernel) {
    space.fence();
    Kokkos::Timer timer;
    run(kernel, false);
    space.fence();
    return timer.seconds();
  };
  std::vector<TransposeKernel> candidates{TransposeKernel::entries, TransposeKernel::entries_searched};
  if (with_lanes) candidates.push_back(TransposeKernel::lanes);
  const size_t n = candidates.size();
  for (const TransposeKernel k : candidates) run(k, true);
  std::vector<double> times(n, std::numeric_limits<double>::infinity());
  for (int round = 0; round < 4; ++round) {
    if (round == 2 && *std::max_element(times.begin(), times.end()) >= 200e-6) break;
    for (size_t j = 0; j < n; ++j) {
      const size_t i = round % 2 == 0 ? j : n - 1 - j;
      times[i] = std::min(times[i], seconds(candidates[i]));
    }
  }
  return candidates[size_t(std::min_element(times.begin(), times.end()) - times.begin())];
}

}  // namespace impl
}  // namespace kspmv
