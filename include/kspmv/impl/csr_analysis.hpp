#pragma once
// The analysis behind the automatic kspmv::spmv on a CsrMatrix. The first call measures the
// structure on the device (the longest row; for a matrix beyond the cache on a GPU with the raw
// kernels, how far a sample of rows gathers x), chooses a CSR kernel (launch.hpp:
// choose_csr_kernel) and builds what that kernel needs: the balanced partition on GPUs (on a
// cache-resident matrix, by the same launch that measures: see analyse_csr), the row chunks on
// host backends. The result lives in the matrix's AnalysisCache, shared by its copies,
// one entry per execution space type; later calls find it and launch the SpMV alone. On a
// cache-resident matrix with the raw kernels, the first call's SpMV is queued with the
// partition right behind the statistics, before the host waits for them (analyse_csr).
//
// What it keeps is small next to the matrix: the balanced partition is an ordinal and, per
// execution space instance, two partial sums and a counter per block of 2048 entries (256 or
// more on latency-bound matrices), under 0.2% of the CSR arrays (0.8% at the smallest blocks);
// the host chunks are a few dozen integers.

#include <Kokkos_Core.hpp>

#include "../csr.hpp"
#include "../csr_balanced.hpp"
#include "convert_common.hpp"
#include "csr_balanced.hpp"
#include "csr_host_rows.hpp"
#include "launch.hpp"
#include "raw.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>
#include <utility>
#include <vector>

namespace kspmv {
namespace impl {

/// Rows between the rows a sampling pass reads (the Plan's diagonals): about 65536 rows in all,
/// enough to meet every diagonal of a stencil or a band, few enough to cost microseconds.
inline int64_t sample_stride(int64_t rows) { return std::max<int64_t>(1, rows / 65536); }

/// Windows of consecutive rows the analysis samples for the lines of x they gather (2048 windows
/// of 32 rows: 65536 rows, spread over the matrix).
constexpr int64_t analysis_windows = 2048;

/// For sampled rows r (every sample_stride rows), the entries of row r + 1 whose column is one of
/// row r's plus one (a merge of the two rows' columns in order: unsorted rows count fewer), or
/// (all) every entry of row r + 1.
template <class Offsets, class Indices>
struct ShiftedEntries {
  Offsets offsets;
  Indices cols;
  int64_t stride;
  bool all;
  KOKKOS_INLINE_FUNCTION void operator()(const int64_t sample, int64_t& count) const {
    const int64_t r = sample * stride;
    int64_t i = int64_t(offsets(r)), j = int64_t(offsets(r + 1));
    const int64_t i_end = j, j_end = int64_t(offsets(r + 2));
    if (all) {
      count += j_end - j;
      return;
    }
    while (i < i_end && j < j_end) {
      const int64_t shifted = int64_t(cols(i)) + 1, c = int64_t(cols(j));
      if (shifted == c) {
        ++count;
        ++i;
        ++j;
      } else if (shifted < c) {
        ++i;
      } else {
        ++j;
      }
    }
  }
};

/// The share of entries (of about 65536 sampled row pairs) that repeat the row before them one
/// column to the right: near 1 for stencils and bands (launch.hpp: transpose_lanes).
template <class ExecSpace, class S, class O, class Off, class D>
double shifted_entry_fraction(const ExecSpace& space, const CsrMatrix<S, O, Off, D>& A) {
  const int64_t rows = A.num_rows();
  if (rows < 2) return 0.0;
  const int64_t stride = sample_stride(rows - 1), samples = (rows - 2) / stride + 1;
  using Functor = ShiftedEntries<decltype(A.row_offsets), decltype(A.col_indices)>;
  const Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>> policy(space, 0, samples);
  int64_t shifted = 0, entries = 0;
  Kokkos::parallel_reduce("kspmv::analysis[shifted_entries]", policy, Functor{A.row_offsets, A.col_indices, stride, false}, shifted);
  Kokkos::parallel_reduce("kspmv::analysis[shifted_entries]", policy, Functor{A.row_offsets, A.col_indices, stride, true}, entries);
  return entries > 0 ? double(shifted) / double(entries) : 0.0;
}

/// What the automatic spmv on a CsrMatrix learned on its first call on ExecSpace: the kernel
/// and what it needs. Immutable once made, but for the balanced kernel's workspace, of which
/// each execution space instance (each stream) gets its own on its first call, so calls on
/// different instances may overlap.
template <class ExecSpace, class S, class O, class Off, class D>
class CsrAnalysis {
 public:
  using csr_type = CsrMatrix<S, O, Off, D>;
  using balanced_type = BalancedCsrMatrix<S, O, Off, D>;

  CsrStructure structure;
  CsrChoice choice;
  HostRowChunks host_chunks;  // host_rows only

  /// partition: the balanced partition that the analysis made on `space`, if it made one: that
  /// instance's from now on (kept unused if the choice is another kernel).
  CsrAnalysis(const ExecSpace& space, const csr_type& A, const CsrStructure& s, const CsrChoice& c,
              std::unique_ptr<balanced_type> partition)
      : structure(s), choice(c), m_offsets(A.row_offsets.data()), m_indices(A.col_indices.data()),
        m_rows(A.num_rows()), m_cols(A.num_cols()), m_nnz(int64_t(A.nnz())) {
    if (partition) m_balanced.emplace_back(instance_key(space), kept(std::move(partition)));
  }

  /// Whether this analysis was made for A's present Views and sizes (values may differ).
  bool describes(const csr_type& A) const {
    return A.row_offsets.data() == m_offsets && A.col_indices.data() == m_indices && A.num_rows() == m_rows &&
           A.num_cols() == m_cols && int64_t(A.nnz()) == m_nnz;
  }

  /// The balanced partition of A with a workspace for `space`'s instance: the one made with the
  /// partition for the first instance, a new one (allocated here, once) for each other. Returned
  /// as a copy (Views: no data is copied) holding A's present values.
  balanced_type balanced(const ExecSpace& space, const csr_type& A) const {
    const void* instance = instance_key(space);
    std::lock_guard<std::mutex> lock(m_mutex);
    // describes() does not look at the values: A may have been given a new values View since.
    // Set on the copy, not on the kept partition, which other threads may be reading.
    auto with_values = [&](const balanced_type& kept_partition) {
      balanced_type out = kept_partition;
      out.csr.values = A.values;
      return out;
    };
    if (m_balanced.empty()) {
      m_balanced.emplace_back(instance, kept(std::make_unique<balanced_type>(balanced_from_csr(space, A))));
      return with_values(*m_balanced.back().second);
    }
    for (const auto& b : m_balanced) {
      if (b.first != instance) continue;
      return with_values(*b.second);
    }
    // Another instance: the partition, built on the first instance's stream, must be complete
    // before this one reads it (a first call on a new instance may wait).
    Kokkos::fence();
    const balanced_type& first = *m_balanced.front().second;
    m_balanced.emplace_back(instance, kept(std::make_unique<balanced_type>(A, first.entries_per_block(), first.lanes(),
                                                                           first.block_first_row)));
    return with_values(*m_balanced.back().second);
  }

  /// shifted_entry_fraction(A), measured on the first call that asks (mode T's automatic kernel).
  double shifted_fraction(const ExecSpace& space, const csr_type& A) const {
    std::lock_guard<std::mutex> lock(m_mutex);
    if (m_shifted_fraction < 0) m_shifted_fraction = shifted_entry_fraction(space, A);
    return m_shifted_fraction;
  }

  /// Mode T's kernel where several apply (launch.hpp: transpose_candidates): `time()`
  /// (csr_transpose.hpp: time_transpose_kernels) on the first call that asks, kept. `time` must
  /// not call back into this analysis.
  template <class Time>
  TransposeKernel timed_transpose_kernel(Time&& time) const {
    std::lock_guard<std::mutex> lock(m_timing_mutex);  // not m_mutex: timing takes a while
    if (m_transpose_kernel < 0) m_transpose_kernel = int(time());
    return TransposeKernel(m_transpose_kernel);
  }

  /// How the plain call runs several vectors (a launch.hpp MultivectorWay's number) with
  /// `num_vectors` vectors in the layouts `layout` stands for: `time()` (the fastest of
  /// launch.hpp's multivector_ways) on the first call that asks, kept. `time` must not call back
  /// into this analysis but for staging() and release_staging().
  template <class Time>
  int timed_multivector_way(int64_t num_vectors, int layout, Time&& time) const {
    std::lock_guard<std::mutex> lock(m_timing_mutex);
    for (const auto& t : m_multivector_ways) {
      if (t.first.first == num_vectors && t.first.second == layout) return t.second;
    }
    const int way = time();
    m_multivector_ways.push_back({{num_vectors, layout}, way});
    return way;
  }

  /// Device memory of at least `bytes` bytes for `space`'s instance, kept and reused by its later
  /// calls: the row-major copy of a column-major X (spmv.hpp, launch.hpp: stage_x_row_major).
  /// Allocated on every call (a Kokkos View of n*k values), the plain call at 8 vectors in
  /// LayoutLeft took 792 and 888 us longer than the same copy and kernel on a kept buffer on
  /// heavy_rows and uniform random (H100, 8-16M rows: 8-10% of the call). Grown when a call
  /// needs more, after the instance's queued work (which may read the old one) is done.
  /// `slot` 1 and 2: the row-major Y of a column-major Y staged with X (launch.hpp:
  /// MultivectorWay::staged), and the scratch Y of the first call's timing.
  void* staging(const ExecSpace& space, size_t bytes, int slot = 0) const {
    const std::pair<const void*, int> instance{instance_key(space), slot};
    std::lock_guard<std::mutex> lock(m_mutex);
    auto grown = [&] {
      return staging_type(Kokkos::view_alloc(space, Kokkos::WithoutInitializing, "kspmv::spmv[row_major]"), bytes);
    };
    for (auto& s : m_staging) {
      if (s.first != instance) continue;
      if (s.second.extent(0) < bytes) {
        space.fence();
        s.second = staging_type();
        s.second = grown();
      }
      return s.second.data();
    }
    m_staging.emplace_back(instance, grown());
    return m_staging.back().second.data();
  }

  /// Frees `space`'s staging memory of `slot` (after the instance's queued work, which may read
  /// it): the first call's scratch Y once timed, the row-major Y where staging lost.
  void release_staging(const ExecSpace& space, int slot) const {
    const std::pair<const void*, int> instance{instance_key(space), slot};
    std::lock_guard<std::mutex> lock(m_mutex);
    for (size_t i = 0; i < m_staging.size(); ++i) {
      if (m_staging[i].first != instance) continue;
      space.fence();
      m_staging.erase(m_staging.begin() + i);
      return;
    }
  }

  /// Bytes kept besides the matrix: the partition and every instance's workspace, the chunks,
  /// the staging buffers.
  size_t bytes() const {
    std::lock_guard<std::mutex> lock(m_mutex);
    size_t total = host_chunks.bytes();
    for (const auto& s : m_staging) total += s.second.extent(0);
    for (size_t i = 0; i < m_balanced.size(); ++i) {
      const balanced_type& b = *m_balanced[i].second;
      total += i == 0 ? b.bytes() : b.bytes() - b.block_first_row.extent(0) * sizeof(O);  // the partition is shared
    }
    return total;
  }

 private:
  // A stream is the unit of ordering on GPUs; host instances cannot be told apart, and the host
  // kernel chosen automatically needs no workspace.
  static const void* instance_key(const ExecSpace& space) { return native_stream(space); }

  // A partition as the cache keeps it: its copy of A must not share A's cache, which holds this
  // analysis (a cycle of shared pointers that would never free A's Views).
  static std::unique_ptr<balanced_type> kept(std::unique_ptr<balanced_type> b) {
    b->csr = b->csr.impl_without_analysis();
    return b;
  }

  const void* m_offsets;
  const void* m_indices;
  int64_t m_rows, m_cols, m_nnz;
  mutable std::mutex m_mutex;
  mutable std::vector<std::pair<const void*, std::unique_ptr<balanced_type>>> m_balanced;
  using staging_type = Kokkos::View<char*, D>;
  mutable std::vector<std::pair<std::pair<const void*, int>, staging_type>> m_staging;
  mutable double m_shifted_fraction = -1;  // not measured yet
  mutable std::mutex m_timing_mutex;
  mutable int m_transpose_kernel = -1;  // a TransposeKernel, once timed
  // (vectors, layout) and the way timed fastest (timed_multivector_way)
  mutable std::vector<std::pair<std::pair<int64_t, int>, int>> m_multivector_ways;
};

/// What analyse_csr learned, the balanced partition if it made one, and whether it ran the
/// caller's first product with it.
template <class S, class O, class Off, class D>
struct CsrAnalysisOutcome {
  CsrStructure structure;
  CsrChoice choice;
  std::unique_ptr<BalancedCsrMatrix<S, O, Off, D>> partition;
  bool product_done = false;
};

/// The first call's SpMV with the balanced partition, queued by the analysis (see analyse_csr).
template <class S, class O, class Off, class D>
using FirstProduct = std::function<void(const BalancedCsrMatrix<S, O, Off, D>&)>;

/// Measures A's structure on `space` and chooses its kernel. A's sizes are known on the host; on
/// GPUs the device answers with one pass over the rows, waited for: raw::row_statistics with the
/// raw kernels (one launch, its answer written to host memory; windows of rows only beyond the
/// latency bound, where the choice uses them), the longest row by a Kokkos reduction otherwise.
/// Host backends measure nothing: their kernel is always the same.
///
/// On a latency-bound matrix with room for a row too long for the vector kernel, that launch
/// also writes the balanced partition, before the choice is known, into storage that costs no
/// runtime call (raw::small_storage_allocate): a launch and an allocation after the choice
/// added a third to a first call (measured on the H200, arrow: 37-43 us with them, 29.7 us
/// without). If another kernel is chosen, the partition is kept unused: a few kilobytes, under
/// 1% of the CSR arrays' bytes. There, first_product (if given) is queued with that partition
/// right behind the statistics, before the host waits for them: the balanced kernel is right
/// whatever the choice, so the first call's SpMV overlaps the wait and no launch follows it.
template <class ExecSpace, class S, class O, class Off, class D>
CsrAnalysisOutcome<S, O, Off, D> analyse_csr(const ExecSpace& space, const CsrMatrix<S, O, Off, D>& A,
                                             const FirstProduct<S, O, Off, D>& first_product = nullptr) {
  CsrAnalysisOutcome<S, O, Off, D> out;
  CsrStructure& s = out.structure;
  s.rows = A.num_rows();
  s.cols = A.num_cols();
  s.nnz = int64_t(A.nnz());
  s.x_bytes = double(s.cols) * sizeof(S);
  s.bytes = double(s.nnz) * (sizeof(S) + sizeof(O)) + double(s.rows + 1) * sizeof(Off) + s.x_bytes + double(s.rows) * sizeof(S);
  CsrBackend b;
  b.wave = warp_width<ExecSpace>();
  b.raw = raw_available<ExecSpace, S, O, Off>();
  if constexpr (raw_available<ExecSpace, S, O, Off>()) {
    b.cache_bytes = double(raw::l2_cache_bytes());
    b.resident_threads = raw::resident_threads();
    // A latency-bound matrix's choice needs the row lengths alone: no windows.
    const bool latency_bound = s.bytes <= latency_bound_bytes(b.cache_bytes);
    raw::PartitionTarget<O> target;
    if (latency_bound && s.rows > 0 && s.nnz > latency_bound_vector_max_row(b.wave)) {
      out.partition = std::make_unique<BalancedCsrMatrix<S, O, Off, D>>(balanced_storage<ExecSpace>(A));
      target = {out.partition->entries_per_block(), out.partition->num_blocks(), out.partition->block_first_row.data(),
                out.partition->arrivals.data()};
    }
    std::function<void()> after_launch;
    if (out.partition && first_product) {
      after_launch = [&] {
        first_product(*out.partition);
        out.product_done = true;
      };
    }
    const raw::RowStatistics r =
        raw::row_statistics<O, Off>(native_stream(space), s.rows, A.row_offsets.data(), A.col_indices.data(),
                                    latency_bound ? 0 : analysis_windows, int(sizeof(S)), target, after_launch);
    s.longest_row = r.longest_row;
    s.length_squares = r.length_squares;
    s.window_lines_per_entry = r.window_lines_per_entry;
    s.window_reach_bytes = r.window_reach_bytes;
    s.crowded_run = r.crowded_run;
  } else if (is_gpu_space<ExecSpace>()) {
    s.longest_row = longest_row(A, space, "kspmv::analysis[longest_row]");
  }
  out.choice = choose_csr_kernel(s, b);
  return out;
}

/// Analyses made in this process, counted so that tests can tell a reused analysis from a new one.
inline std::atomic<int64_t>& csr_analysis_count() {
  static std::atomic<int64_t> count{0};
  return count;
}

/// The analysis of A for ExecSpace: found in A's cache, or made now (on `space`) and kept there.
/// If this call makes it, first_product may run with the partition (analyse_csr), and
/// *product_done tells whether it did.
template <class ExecSpace, class S, class O, class Off, class D>
std::shared_ptr<const CsrAnalysis<ExecSpace, S, O, Off, D>> csr_analysis(
    const ExecSpace& space, const CsrMatrix<S, O, Off, D>& A, const FirstProduct<S, O, Off, D>& first_product = nullptr,
    bool* product_done = nullptr) {
  using Analysis = CsrAnalysis<ExecSpace, S, O, Off, D>;
  return A.impl_analysis_cache().template find_or_build<Analysis>(
      [&](const Analysis& a) { return a.describes(A); },
      [&] {
        ++csr_analysis_count();
        auto outcome = analyse_csr(space, A, first_product);
        if (product_done) *product_done = outcome.product_done;
        const CsrChoice choice = outcome.choice;
        auto analysis = std::make_shared<Analysis>(space, A, outcome.structure, choice, std::move(outcome.partition));
        if (choice.kernel == CsrKernel::host_rows) {
          if constexpr (!is_gpu_space<ExecSpace>()) {
            space.fence();  // the offsets are read on the host
            analysis->host_chunks = host_row_chunks(A, ExecSpace().concurrency());  // all threads, not a partition's
          }
        }
        // The partition and the first instance's workspace, now, so later calls allocate nothing.
        if (choice.kernel == CsrKernel::balanced || choice.kernel == CsrKernel::raw_balanced) analysis->balanced(space, A);
        return std::shared_ptr<const Analysis>(std::move(analysis));
      });
}

}  // namespace impl
}  // namespace kspmv
