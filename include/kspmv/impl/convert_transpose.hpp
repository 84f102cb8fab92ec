#pragma once
// The structure of A^T for the deterministic mode T (Algorithm::csr_transposed): for each column
// j of A, its entries in order of increasing row, as indices into A's arrays, and their rows.
// Structure only, so A's values may change between calls (as CsrMatrix promises); kept in A's
// analysis cache and rebuilt when the structure changes, as the analysis is. The same structure,
// with A's values gathered into it, is A^T formed explicitly (kspmv::transpose, and a Plan's
// explicit transpose).

#include <Kokkos_Core.hpp>
#if KOKKOS_VERSION >= 40100
#include <Kokkos_NestedSort.hpp>
#endif

#include "../csr.hpp"
#include "launch.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>

namespace kspmv {
namespace impl {

/// Entries of A by column: column j's are [offsets(j), offsets(j+1)) of `entries` (positions in
/// A's col_indices and values) and `rows` (their rows), by increasing row.
template <class ExecSpace, class S, class O, class Off, class D>
struct CsrTransposeStructure {
  using csr_type = CsrMatrix<S, O, Off, D>;
  Kokkos::View<Off*, D> offsets;  // num_cols + 1
  Kokkos::View<Off*, D> entries;  // nnz
  Kokkos::View<O*, D> rows;       // nnz

  CsrTransposeStructure(const ExecSpace& space, const csr_type& A)
      : m_offsets(A.row_offsets.data()), m_indices(A.col_indices.data()), m_rows(A.num_rows()),
        m_cols(A.num_cols()), m_nnz(int64_t(A.nnz())) {
    build(space, A);
  }
  bool describes(const csr_type& A) const {
    return A.row_offsets.data() == m_offsets && A.col_indices.data() == m_indices && A.num_rows() == m_rows &&
           A.num_cols() == m_cols && int64_t(A.nnz()) == m_nnz;
  }

  // Public: nvcc refuses the device lambdas of a private member function.
  void build(const ExecSpace& space, const csr_type& A) {
    const int64_t n = int64_t(A.num_cols()), nnz = m_nnz;
    offsets = Kokkos::View<Off*, D>("kspmv::transpose::offsets", n + 1);
    entries = Kokkos::View<Off*, D>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::transpose::entries"), nnz);
    rows = Kokkos::View<O*, D>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::transpose::rows"), nnz);
    if constexpr (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename D::memory_space>::accessible) {
      // Host memory: a counting sort by column, rows in order by construction.
      space.fence();
      const auto ro = A.row_offsets;
      const auto ci = A.col_indices;
      for (int64_t k = 0; k < nnz; ++k) ++offsets(int64_t(ci(k)) + 1);
      for (int64_t j = 0; j < n; ++j) offsets(j + 1) += offsets(j);
      std::unique_ptr<Off[]> next(new Off[size_t(n > 0 ? n : 1)]);
      for (int64_t j = 0; j < n; ++j) next[size_t(j)] = offsets(j);
      for (int64_t i = 0; i < int64_t(A.num_rows()); ++i) {
        for (Off k = ro(i); k < ro(i + 1); ++k) {
          const Off p = next[size_t(ci(k))]++;
          entries(p) = k;
          rows(p) = O(i);
        }
      }
    } else {
#if KOKKOS_VERSION >= 40100
      build_on_device(space, A);
#else
      throw std::invalid_argument(
          "kspmv: the transposed structure of a matrix on a device (Algorithm::csr_transposed, kspmv::transpose) "
          "needs Kokkos 4.1 or later");
#endif
    }
  }

#if KOKKOS_VERSION >= 40100
  // Device memory: counts by column and their offsets, the entries placed with atomics (in no
  // fixed order), then each column sorted by entry position (= by row) by a team.
  void build_on_device(const ExecSpace& space, const csr_type& A) {
    using Range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>;
    const int64_t m = int64_t(A.num_rows()), n = int64_t(A.num_cols());
    const auto ro = A.row_offsets;
    const auto ci = A.col_indices;
    const auto counts = offsets;
    // A thread an entry, not a row: a thread walking a row of 10^5 entries made the placement
    // take 1.5 s on the suite's heavy_rows (H200), 480 of its mode-T calls.
    const int64_t nnz = m_nnz;
    Kokkos::parallel_for(
        "kspmv::convert[transpose_count]", Range(space, 0, nnz),
        KOKKOS_LAMBDA(const int64_t k) { Kokkos::atomic_inc(&counts(int64_t(ci(k)) + 1)); });
    Kokkos::parallel_scan(
        "kspmv::convert[transpose_offsets]", Range(space, 0, n + 1),
        KOKKOS_LAMBDA(const int64_t j, Off& running, const bool final) {
          running += counts(j);
          if (final) counts(j) = running;
        });
    Kokkos::View<Off*, D> next(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kspmv::transpose::next"), n);
    Kokkos::deep_copy(space, next, Kokkos::subview(counts, std::make_pair(int64_t(0), n)));
    const auto e = entries;
    const auto r = rows;
    // Each entry's row by a binary search of the row offsets (the last row starting at or before
    // it): neighbouring threads walk the same path, through the caches.
    Kokkos::parallel_for(
        "kspmv::convert[transpose_fill]", Range(space, 0, nnz), KOKKOS_LAMBDA(const int64_t k) {
          int64_t low = 0, high = m;  // ro(low) <= k < ro(high)
          while (high - low > 1) {
            const int64_t mid = low + (high - low) / 2;
            if (int64_t(ro(mid)) <= k) {
              low = mid;
            } else {
              high = mid;
            }
          }
          const Off p = Kokkos::atomic_fetch_add(&next(int64_t(ci(k))), Off(1));
          e(p) = Off(k);
          r(p) = O(low);
        });
    using Team = Kokkos::TeamPolicy<ExecSpace>;
    Kokkos::parallel_for(
        "kspmv::convert[transpose_sort]", Team(space, int(n), Kokkos::AUTO),
        KOKKOS_LAMBDA(const typename Team::member_type& team) {
          const int64_t j = team.league_rank();
          const auto range = Kokkos::make_pair(int64_t(counts(j)), int64_t(counts(j + 1)));
          Kokkos::Experimental::sort_by_key_team(team, Kokkos::subview(e, range), Kokkos::subview(r, range));
        });
  }
#endif

 private:
  const void* m_offsets;
  const void* m_indices;
  O m_rows, m_cols;
  int64_t m_nnz;
};

/// The transposed structure of A for ExecSpace: found in A's cache, or built now and kept there.
template <class ExecSpace, class S, class O, class Off, class D>
std::shared_ptr<const CsrTransposeStructure<ExecSpace, S, O, Off, D>> csr_transpose_structure(
    const ExecSpace& space, const CsrMatrix<S, O, Off, D>& A) {
  using Structure = CsrTransposeStructure<ExecSpace, S, O, Off, D>;
  return A.impl_analysis_cache().template find_or_build<Structure>(
      [&](const Structure& s) { return s.describes(A); },
      [&] { return std::make_shared<const Structure>(space, A); });
}

// conj(v) where asked and v is complex, else v. A function, not an if constexpr in the lambda
// below: nvcc refuses an extended lambda whose first capture of a variable is in one.
template <class S>
KOKKOS_INLINE_FUNCTION S conjugate_if(const S& v, bool conjugate) {
  if constexpr (is_complex<S>::value) {
    return conjugate ? Kokkos::conj(v) : v;
  } else {
    (void)conjugate;
    return v;
  }
}

// A^T (conjugate: A^H) as a new n x m CSR matrix on A's device: row j is column j of A, its
// entries by increasing row of A. The transposed structure is built for the call, not kept in
// A's cache: the result owns its arrays (its offsets and column indices are the structure's).
template <class ExecSpace, class S, class O, class Off, class D>
CsrMatrix<S, O, Off, D> transposed_csr(const ExecSpace& space, const CsrMatrix<S, O, Off, D>& A, bool conjugate) {
  const CsrTransposeStructure<ExecSpace, S, O, Off, D> structure(space, A);
  const int64_t nnz = int64_t(A.nnz());
  Kokkos::View<S*, D> values(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kspmv::transpose::values"), nnz);
  const auto entries = structure.entries;
  const auto source = A.values;
  Kokkos::parallel_for(
      "kspmv::convert[transpose_values]", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, nnz),
      KOKKOS_LAMBDA(const int64_t k) { values(k) = conjugate_if(source(entries(k)), conjugate); });
  return CsrMatrix<S, O, Off, D>(A.num_cols(), A.num_rows(), structure.offsets, structure.rows, values);
}

}  // namespace impl
}  // namespace kspmv
