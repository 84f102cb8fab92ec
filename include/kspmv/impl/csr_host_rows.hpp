#pragma once
// Host backends (OpenMP, Serial): the rows in chunks of about equal work, counting a row as its
// entries plus launch.hpp's host_row_cost, each thread taking one share of as many consecutive
// chunks as the others (one iteration a thread, so its rows are consecutive whatever the
// backend's scheduling of iterations). A thread sums a row of host_unrolled_row_length entries
// or more with four running sums, so that on matrices held in cache the latency of dependent
// additions does not set the pace (shorter rows keep a plain loop). A row longer than a chunk's
// work would hold up one thread while the others wait: each such row is reduced by all threads
// instead, one reduction a row, after the chunks (there are fewer such rows than chunks).

#include <Kokkos_Core.hpp>

#include "../csr.hpp"
#include "launch.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace kspmv {
namespace impl {

/// The partition: chunk c holds rows [first_row[c], first_row[c+1]) but for the long rows,
/// those longer than long_row_length entries, which are listed apart.
struct HostRowChunks {
  std::vector<int64_t> first_row;
  int64_t long_row_length = 0;  // rows longer than this are in long_rows; 0 with one chunk (none)
  std::vector<int64_t> long_rows;
  int64_t chunks_per_share = 1;  // consecutive chunks a thread takes (host_chunks_per_thread)
  int64_t num_chunks() const { return first_row.empty() ? 0 : int64_t(first_row.size()) - 1; }
  int64_t num_shares() const { return (num_chunks() + chunks_per_share - 1) / chunks_per_share; }
  size_t bytes() const { return (first_row.size() + long_rows.size()) * sizeof(int64_t); }
};

/// Cuts the rows of A (host-accessible) into host_chunks(concurrency) chunks: chunk c starts at
/// the first row whose work before it, offsets[r] + host_row_cost * r, reaches c/chunks of the
/// total. A row longer than a chunk's work spans such a cut, so checking the row at each cut
/// finds every long row. O(chunks log rows), on the host.
template <class S, class O, class Off, class D>
HostRowChunks host_row_chunks(const CsrMatrix<S, O, Off, D>& A, int concurrency) {
  HostRowChunks p;
  const int64_t m = A.num_rows();
  const int64_t chunks = m > 0 ? std::min<int64_t>(host_chunks(concurrency), m) : 0;
  p.first_row.assign(size_t(chunks) + 1, m);
  if (chunks == 0) return p;
  const Off* offsets = A.row_offsets.data();
  auto work = [&](int64_t r) { return int64_t(offsets[r]) + host_row_cost * r; };
  const int64_t total = work(m);
  p.first_row[0] = 0;
  int64_t row = 0;
  for (int64_t c = 1; c < chunks; ++c) {
    const int64_t target = int64_t(double(total) * double(c) / double(chunks));
    int64_t lo = row, hi = m;  // first r >= row with work(r) >= target
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (work(mid) < target) lo = mid + 1; else hi = mid;
    }
    p.first_row[size_t(c)] = row = lo;
  }
  if (chunks == 1) return p;
  p.chunks_per_share = host_chunks_per_thread;
  // Cuts are at most total/chunks + 1 apart, so a row of more entries spans one.
  p.long_row_length = total / chunks + 2;
  for (int64_t c = 1; c < chunks; ++c) {
    const int64_t r = p.first_row[size_t(c)] - 1;
    if (r < 0 || int64_t(offsets[r + 1]) - int64_t(offsets[r]) <= p.long_row_length) continue;
    if (p.long_rows.empty() || p.long_rows.back() != r) p.long_rows.push_back(r);
  }
  return p;
}

// The loop over a run of rows is a function of its own: inlined into the loop over runs, GCC 12
// kept the row's length on the stack, a load more an entry (7-9% slower on the large matrices).
#if defined(__GNUC__)
#define KSPMV_HOST_NOINLINE __attribute__((noinline))
#else
#define KSPMV_HOST_NOINLINE
#endif

// The distance between consecutive entries of a rank-1 View: 1, known at compile time, unless its
// layout is LayoutStride.
template <class View>
KOKKOS_INLINE_FUNCTION int64_t stride_of(const View& v) {
  if constexpr (std::is_same<typename View::array_layout, Kokkos::LayoutStride>::value) {
    return int64_t(v.stride_0());
  } else {
    (void)v;
    return 1;
  }
}

template <class Matrix, class XView, class YView, bool BetaIsZero>
struct CsrHostRowsFunctor {
  using scalar_type = typename YView::non_const_value_type;
  using ordinal_type = typename Matrix::ordinal_type;
  using offset_type = typename Matrix::offset_type;

  const offset_type* offsets;
  const ordinal_type* cols;
  const typename Matrix::value_type* vals;
  XView x;
  YView y;
  const int64_t* first_row;
  int64_t num_chunks, chunks_per_share;
  const int64_t* long_rows;  // ascending; left to the long-row reductions
  int64_t num_long_rows;
  scalar_type alpha, beta;

  // One share: the rows of chunks_per_share consecutive chunks but for the long rows, as runs of
  // rows between them, so the loop over a run's rows tests nothing but its end. Host code only:
  // host backends run this functor.
  void operator()(const int64_t share) const {
    const int64_t end_chunk = (share + 1) * chunks_per_share < num_chunks ? (share + 1) * chunks_per_share : num_chunks;
    const int64_t first = first_row[share * chunks_per_share], last = first_row[end_chunk];
    int64_t l = 0;
    while (l < num_long_rows && long_rows[l] < first) ++l;
    for (int64_t begin = first; begin < last; ++l) {
      const int64_t end = l < num_long_rows && long_rows[l] < last ? long_rows[l] : last;
      rows(begin, end);
      begin = end + 1;  // past the long row
    }
  }

  // Rows [r0, r1): a plain loop for a row shorter than host_unrolled_row_length, four running
  // sums otherwise, so that on matrices held in cache the latency of dependent additions does
  // not set the pace (bcsstk13, wiki-Vote, mbeacxc: 1.3-1.5x faster than one sum, 2 OpenMP
  // threads). A row's only branches are the choice of loop and the loop's exit.
  KSPMV_HOST_NOINLINE void rows(const int64_t r0, const int64_t r1) const {
    // Locals, not members: a store to y could alias a member, which the compiler would then
    // reload at every row (12% of a cache-resident SpMV with 7 entries a row, 2 OpenMP threads).
    // Raw pointers for x and y too: with View copies GCC 12 kept x's pointer and the row's
    // length on the stack, two more loads an entry (10% slower on the large matrices).
    const offset_type* const row_offsets = offsets;
    const ordinal_type* const col_indices = cols;
    const typename Matrix::value_type* const values = vals;
    const typename XView::value_type* const xp = x.data();
    scalar_type* const yp = y.data();
    const int64_t xs = stride_of(x), ys = stride_of(y);
    const scalar_type a = alpha, b = beta;
    for (int64_t row = r0; row < r1; ++row) {
      // A base pointer and a count from zero, as in csr_scalar.hpp.
      const offset_type begin = row_offsets[row];
      const offset_type length = row_offsets[row + 1] - begin;
      const typename Matrix::value_type* const v = values + begin;
      const ordinal_type* const c = col_indices + begin;
      scalar_type sum = 0;
      if (length < offset_type(host_unrolled_row_length)) {
        for (offset_type k = 0; k < length; ++k) sum += v[k] * xp[int64_t(c[k]) * xs];
      } else {
        scalar_type s0 = 0, s1 = 0, s2 = 0, s3 = 0;
        offset_type k = 0;
        for (; k + 3 < length; k += 4) {
          s0 += v[k] * xp[int64_t(c[k]) * xs];
          s1 += v[k + 1] * xp[int64_t(c[k + 1]) * xs];
          s2 += v[k + 2] * xp[int64_t(c[k + 2]) * xs];
          s3 += v[k + 3] * xp[int64_t(c[k + 3]) * xs];
        }
        // The last 0-3 entries without a branch: a slot past the row's end loads the entry before
        // k (k >= 4 here) and adds 0 * 0, never 0 * x (an Inf in x would turn into NaN). A loop
        // or a test there is a second branch a row, mispredicted as often as lengths vary: on 2
        // OpenMP threads 3-12% slower on the large memory-bound matrices.
        const offset_type rest = length - k;
        const offset_type k0 = rest > 0 ? k : k - 1, k1 = rest > 1 ? k + 1 : k - 1, k2 = rest > 2 ? k + 2 : k - 1;
        const scalar_type x0 = xp[int64_t(c[k0]) * xs], x1 = xp[int64_t(c[k1]) * xs], x2 = xp[int64_t(c[k2]) * xs];
        const scalar_type zero = 0;
        s0 += (rest > 0 ? scalar_type(v[k0]) : zero) * (rest > 0 ? x0 : zero);
        s1 += (rest > 1 ? scalar_type(v[k1]) : zero) * (rest > 1 ? x1 : zero);
        s2 += (rest > 2 ? scalar_type(v[k2]) : zero) * (rest > 2 ? x2 : zero);
        sum = (s0 + s1) + (s2 + s3);
      }
      if (BetaIsZero) {
        yp[row * ys] = a * sum;  // y is not read: NaN in y must not leak
      } else {
        yp[row * ys] = b * yp[row * ys] + a * sum;
      }
    }
  }
};

/// y = alpha*A*x + beta*y on a host execution space with the partition `chunks` of A.
template <class ExecSpace, class Matrix, class XView, class YView>
void spmv_csr_host_rows(const ExecSpace& space, typename YView::non_const_value_type alpha, const Matrix& A, const XView& x,
                        typename YView::non_const_value_type beta, const YView& y, const HostRowChunks& chunks) {
  using scalar_type = typename YView::non_const_value_type;
  // A share a thread: its rows are consecutive, as much work as any other's.
  using Policy = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>, Kokkos::IndexType<int64_t>>;
  const auto* offsets = A.row_offsets.data();
  const auto* cols = A.col_indices.data();
  const auto* vals = A.values.data();
  const Policy policy(space, 0, chunks.num_shares());
  if (beta == scalar_type(0)) {
    Kokkos::parallel_for("kspmv::spmv[host_rows]", policy,
                         CsrHostRowsFunctor<Matrix, XView, YView, true>{offsets, cols, vals, x, y, chunks.first_row.data(),
                                                                        chunks.num_chunks(), chunks.chunks_per_share,
                                                                        chunks.long_rows.data(),
                                                                        int64_t(chunks.long_rows.size()), alpha, beta});
  } else {
    Kokkos::parallel_for("kspmv::spmv[host_rows]", policy,
                         CsrHostRowsFunctor<Matrix, XView, YView, false>{offsets, cols, vals, x, y, chunks.first_row.data(),
                                                                         chunks.num_chunks(), chunks.chunks_per_share,
                                                                         chunks.long_rows.data(),
                                                                         int64_t(chunks.long_rows.size()), alpha, beta});
  }
  for (const int64_t row : chunks.long_rows) {
    scalar_type sum = 0;
    Kokkos::parallel_reduce(
        "kspmv::spmv[host_rows_long]",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, int64_t(offsets[row]), int64_t(offsets[row + 1])),
        KOKKOS_LAMBDA(const int64_t k, scalar_type& s) { s += vals[k] * x(cols[k]); }, sum);
    // The reduction has fenced the instance; y is host memory.
    y(row) = beta == scalar_type(0) ? alpha * sum : beta * y(row) + alpha * sum;
  }
}

}  // namespace impl
}  // namespace kspmv
