#pragma once
// Load-balanced CSR: a team owns a block of equally many nonzeros and the rows that start in it.
// Short rows are summed straight from memory by one thread's vector lanes, as in vector CSR;
// long ones by the whole team with coalesced loads; the segment of a row inherited from earlier
// blocks (the block's head) by the whole team as well. A row that continues past its block is
// finished by a second kernel that adds the later blocks' heads in block order: deterministic,
// no atomics on y, and no row can hold up the rest of the GPU. (Staging the block's products in
// team scratch first, tried on the H200, was 2-6x slower on regular matrices.)

#include <Kokkos_Core.hpp>

#include "../csr_balanced.hpp"
#include "convert_common.hpp"
#include "launch.hpp"

#include <cstdint>
#include <limits>

namespace kspmv {
namespace impl {

template <class ExecSpace, class Matrix, class XView, class YView, bool BetaIsZero>
struct CsrBalancedFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using ordinal_type = typename Matrix::ordinal_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  using scratch_space = typename ExecSpace::scratch_memory_space;
  using index_scratch = Kokkos::View<int64_t*, scratch_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  typename CsrMatrix<typename Matrix::value_type, ordinal_type, typename Matrix::offset_type,
                     typename Matrix::device_type>::row_offsets_type offsets;
  Kokkos::View<ordinal_type*, typename Matrix::device_type> cols;
  Kokkos::View<typename Matrix::value_type*, typename Matrix::device_type> vals;
  typename Matrix::index_view block_first_row;
  XView x;
  YView y;
  Kokkos::View<scalar_type*, typename Matrix::device_type> head_sum, tail_sum;  // subviews of the workspace
  scalar_type alpha, beta;
  int64_t nnz, block, team_row_min;
  int lanes;

  static size_t scratch_bytes(int64_t block, int64_t team_row_min) {
    return index_scratch::shmem_size(long_row_slots(block, team_row_min));
  }
  KOKKOS_INLINE_FUNCTION static int64_t long_row_slots(int64_t block, int64_t team_row_min) {
    return 1 + (team_row_min < block ? block / team_row_min + 1 : 0);
  }

  // Sum of entries [begin, end) (global indices), by the whole team: consecutive lanes of the
  // team read consecutive entries.
  KOKKOS_INLINE_FUNCTION scalar_type team_sum(const member_type& team, int64_t begin, int64_t end) const {
    scalar_type total = 0;
    const int64_t chunks = (end - begin + lanes - 1) / lanes;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, chunks),
        [&](const int64_t c, scalar_type& partial) {
          scalar_type lane_sum = 0;
          Kokkos::parallel_reduce(
              Kokkos::ThreadVectorRange(team, lanes),
              [&](const int l, scalar_type& s) {
                const int64_t k = begin + c * lanes + l;
                if (k < end) s += vals(k) * x(cols(k));
              },
              lane_sum);
          partial += lane_sum;
        },
        total);
    return total;
  }

  // Row `row` owned by block b, with the sum of its entries inside the block.
  KOKKOS_INLINE_FUNCTION void finish_row(int64_t b, int64_t block_end, ordinal_type row, scalar_type sum) const {
    if (int64_t(offsets(row + 1)) > block_end) {
      tail_sum(b) = sum;  // continues in later blocks: the carry kernel completes it
    } else if (BetaIsZero) {
      y(row) = alpha * sum;
    } else {
      y(row) = beta * y(row) + alpha * sum;
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t b = team.league_rank();
    const int64_t k0 = b * block, k1 = k0 + block < nnz ? k0 + block : nnz;
    const ordinal_type r0 = block_first_row(b), r1 = block_first_row(b + 1);
    const index_scratch long_rows(team.team_scratch(0), long_row_slots(block, team_row_min));
    Kokkos::single(Kokkos::PerTeam(team), [&]() { long_rows(0) = 0; });
    team.team_barrier();

    // Head: entries before the first row starting here belong to a row started earlier.
    const int64_t head_end = r0 < r1 && int64_t(offsets(r0)) < k1 ? int64_t(offsets(r0)) : k1;
    if (head_end > k0) {
      const scalar_type head = team_sum(team, k0, head_end);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { head_sum(b) = head; });
    }

    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, r0, r1), [&](const ordinal_type row) {
      const int64_t begin = int64_t(offsets(row));
      const int64_t end = int64_t(offsets(row + 1)) < k1 ? int64_t(offsets(row + 1)) : k1;
      if (end - begin >= team_row_min) {
        Kokkos::single(Kokkos::PerThread(team), [&]() {
          const int64_t slot = Kokkos::atomic_fetch_add(&long_rows(0), int64_t(1));
          long_rows(1 + slot) = row;
        });
        return;
      }
      scalar_type sum = 0;
      Kokkos::parallel_reduce(
          Kokkos::ThreadVectorRange(team, begin, end),
          [&](const int64_t k, scalar_type& s) { s += vals(k) * x(cols(k)); }, sum);
      Kokkos::single(Kokkos::PerThread(team), [&]() { finish_row(b, k1, row, sum); });
    });
    team.team_barrier();

    // Long rows, one after the other, each by the whole team (their order changes no result).
    const int64_t count = long_rows(0);
    for (int64_t i = 0; i < count; ++i) {
      const ordinal_type row = ordinal_type(long_rows(1 + i));
      const int64_t begin = int64_t(offsets(row));
      const int64_t end = int64_t(offsets(row + 1)) < k1 ? int64_t(offsets(row + 1)) : k1;
      const scalar_type sum = team_sum(team, begin, end);
      Kokkos::single(Kokkos::PerTeam(team), [&]() { finish_row(b, k1, row, sum); });
    }
  }
};

// Completes the last row of block b if it spilled past the block: its own partial plus the heads
// of the blocks it covers, reduced by a team in a fixed order. One team per block, most of which
// find nothing to do: cheaper than building a list of spilling blocks in every partition.
template <class ExecSpace, class Matrix, class YView, bool BetaIsZero>
struct CsrBalancedCarryFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using ordinal_type = typename Matrix::ordinal_type;
  using member_type = typename Kokkos::TeamPolicy<ExecSpace>::member_type;
  typename CsrMatrix<typename Matrix::value_type, ordinal_type, typename Matrix::offset_type,
                     typename Matrix::device_type>::row_offsets_type offsets;
  typename Matrix::index_view block_first_row;
  YView y;
  Kokkos::View<scalar_type*, typename Matrix::device_type> head_sum, tail_sum;
  scalar_type alpha, beta;
  int64_t block;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int64_t b = team.league_rank();
    if (block_first_row(b + 1) == block_first_row(b)) return;  // owns no row
    const ordinal_type row = block_first_row(b + 1) - 1;
    const int64_t row_end = int64_t(offsets(row + 1));
    if (row_end <= (b + 1) * block) return;  // ends in its block
    const int64_t last_block = (row_end - 1) / block;
    scalar_type heads = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(team, b + 1, last_block + 1), [&](const int64_t d, scalar_type& s) { s += head_sum(d); },
        heads);
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      const scalar_type total = tail_sum(b) + heads;
      y(row) = BetaIsZero ? alpha * total : beta * y(row) + alpha * total;
    });
  }
};

// The workspace of A's partial sums in the type of y's sums: A's own, or its wide view (mixed
// precision).
template <class Sum, class Matrix>
auto balanced_partial_sums(const Matrix& A) {
  if constexpr (std::is_same<Sum, typename Matrix::value_type>::value) {
    return A.partial_sums;
  } else {
    static_assert(std::is_same<Sum, typename widened<typename Matrix::value_type>::type>::value,
                  "partial sums in the matrix's scalar or its widened one");
    return A.wide_partial_sums;
  }
}

template <class ExecSpace, class Matrix, class XView, class YView, bool BetaIsZero>
void launch_csr_balanced(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
                         typename YView::non_const_value_type beta, const YView& y) {
  using scalar_type = typename YView::non_const_value_type;
  const BalancedShape shape = balanced_shape<ExecSpace>(double(A.nnz()) / double(A.num_rows()), A.nnz());
  const int64_t blocks = A.num_blocks();
  // Head and tail partial of every block, in the matrix's workspace.
  const auto workspace = balanced_partial_sums<scalar_type>(A);
  const auto head_sum = Kokkos::subview(workspace, std::make_pair(int64_t(0), blocks));
  const auto tail_sum = Kokkos::subview(workspace, std::make_pair(blocks, 2 * blocks));
  using Functor = CsrBalancedFunctor<ExecSpace, Matrix, XView, YView, BetaIsZero>;
  const Functor f{A.csr.row_offsets, A.csr.col_indices, A.csr.values, A.block_first_row, x, y, head_sum, tail_sum,
                  alpha, beta, int64_t(A.nnz()), A.entries_per_block(), shape.team_row_min, A.lanes()};
  // Teams of the same number of lanes as the shape, split as the matrix's lanes per row.
  Kokkos::TeamPolicy<ExecSpace> policy(space, int(blocks), shape.team_size * shape.lanes / A.lanes(), A.lanes());
  policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(A.entries_per_block(), shape.team_row_min)));
  Kokkos::parallel_for("kspmv::spmv[csr_balanced]", policy, f);
  if (blocks > 1) {
    Kokkos::parallel_for(
        "kspmv::spmv[csr_balanced_carry]",
        Kokkos::TeamPolicy<ExecSpace>(space, int(blocks), is_gpu_space<ExecSpace>() ? 64 : 1, 1),
        CsrBalancedCarryFunctor<ExecSpace, Matrix, YView, BetaIsZero>{A.csr.row_offsets, A.block_first_row, y, head_sum,
                                                                       tail_sum, alpha, beta, A.entries_per_block()});
  }
}

template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_balanced(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
                       typename YView::non_const_value_type beta, const YView& y) {
  if (beta == 0) {
    launch_csr_balanced<ExecSpace, Matrix, XView, YView, true>(space, alpha, A, x, beta, y);
  } else {
    launch_csr_balanced<ExecSpace, Matrix, XView, YView, false>(space, alpha, A, x, beta, y);
  }
}

/// Storage for the balanced partition of A on ExecSpace, in the shape balanced_shape gives, left
/// unwritten: block_first_row must be written and arrivals zeroed before any spmv.
template <class ExecSpace, class S, class O, class Off, class D>
BalancedCsrMatrix<S, O, Off, D> balanced_storage(const CsrMatrix<S, O, Off, D>& A) {
  const BalancedShape shape =
      balanced_shape<ExecSpace>(A.num_rows() > 0 ? double(A.nnz()) / double(A.num_rows()) : 0.0, A.nnz(),
                                raw_available<ExecSpace, S, O, Off>());
  const int64_t block = shape.entries_per_block, nnz = A.nnz();
  if ((nnz + block - 1) / block > int64_t(std::numeric_limits<int>::max())) {
    refuse("BalancedCsrMatrix", "too many blocks for one launch");
  }
  return BalancedCsrMatrix<S, O, Off, D>(A, block, shape.lanes);
}

/// The partition of CSR row offsets into blocks of `block` entries: first_row[b] = first row
/// starting at or after entry b*block (one binary search per block), rows for b == blocks; the
/// same kernel zeroes the arrival counters. One kernel, nothing back to the host.
template <class ExecSpace, class S, class O, class Off, class D>
void write_balanced_partition(const ExecSpace& space, const CsrMatrix<S, O, Off, D>& A, int64_t block, int64_t blocks,
                              const Kokkos::View<O*, D>& first_row, const Kokkos::View<int*, D>& arrivals) {
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>;
  const int64_t m = A.num_rows();
  if constexpr (raw_available<ExecSpace, S, O, Off>()) {
    // One raw launch: a Kokkos launch costs several microseconds more on the host, which the
    // first automatic spmv of a cache-resident matrix would pay.
    raw::balanced_partition<O, Off>(native_stream(space), m, A.row_offsets.data(), block, blocks, first_row.data(),
                                    arrivals.data());
  } else {
    const auto offsets = A.row_offsets;
    Kokkos::parallel_for(
        "kspmv::convert[csr_balanced_rows]", Policy(space, 0, blocks + 1), KOKKOS_LAMBDA(const int64_t b) {
          if (b == blocks) {
            first_row(b) = O(m);
            return;
          }
          arrivals(b) = 0;
          int64_t lo = 0, hi = m;  // first row r with offsets(r) >= b*block
          while (lo < hi) {
            const int64_t mid = (lo + hi) / 2;
            if (int64_t(offsets(mid)) < b * block) lo = mid + 1; else hi = mid;
          }
          first_row(b) = O(lo);
        });
  }
}

/// The analysis (write_balanced_partition) in storage of balanced_shape: one allocation, one
/// kernel, nothing back to the host: on a cache-resident matrix the partition costs a few SpMVs.
template <class ExecSpace, class S, class O, class Off, class D>
BalancedCsrMatrix<S, O, Off, D> balanced_from_csr(const ExecSpace& space, const CsrMatrix<S, O, Off, D>& A) {
  BalancedCsrMatrix<S, O, Off, D> balanced = balanced_storage<ExecSpace>(A);
  write_balanced_partition(space, A, balanced.entries_per_block(), balanced.num_blocks(), balanced.block_first_row,
                           balanced.arrivals);
  return balanced;
}
template <class S, class O, class Off, class D>
BalancedCsrMatrix<S, O, Off, D> balanced_from_csr(const CsrMatrix<S, O, Off, D>& A) {
  return balanced_from_csr(typename D::execution_space(), A);
}

}  // namespace impl
}  // namespace kspmv
