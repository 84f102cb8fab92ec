#pragma once
/// \file csr.hpp
/// Compressed sparse row storage held as Kokkos Views. Data only: the kernels live in
/// impl/, the entry point in spmv.hpp.

#include <Kokkos_Core.hpp>

#include "impl/analysis_cache.hpp"
#include "impl/matrix_base.hpp"

#include <cstdint>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace kspmv {

/// A sparse matrix A (num_rows x num_cols) in CSR form:
///   for row i, the stored entries are A(i, col_indices[k]) = values[k]
///   for k in [row_offsets[i], row_offsets[i+1]).
/// row_offsets has num_rows + 1 entries, row_offsets[0] == 0 and row_offsets[num_rows] == nnz.
/// Column indices within a row need not be sorted; duplicates are summed by spmv.
///
/// The first kspmv::spmv with the default Algorithm::automatic analyses the structure on the
/// device (row lengths and, for the kernels that need one, a partition of the nonzeros into
/// blocks of equal size) and keeps the result with the matrix, as KokkosKernels' SPMVHandle keeps
/// its analysis: copies of a CsrMatrix share it as they share the Views, and later calls reuse it
/// without allocating or launching anything but the SpMV (the first call's own product may
/// differ from theirs in the last bits: see kspmv::spmv). Calls with several vectors whose
/// column-major X the GPU kernels read from a row-major copy keep that copy's memory here too
/// (n*k values for each stream, allocated by the first such call, grown by a larger one). It
/// depends on the structure alone:
///  - values may change between calls;
///  - assigning other Views (or another size) to the matrix is noticed: the next call analyses
///    again;
///  - changing the contents of row_offsets or col_indices in place is not: call
///    structure_changed() before the next spmv. Stale row offsets give wrong results (the
///    partition no longer matches the rows); stale column indices only a slower kernel.
/// A CsrMatrix wrapping a KokkosSparse::CrsMatrix behaves the same; wrap it once and keep the
/// CsrMatrix, since each new wrapper analyses again on its first call.
///
/// \tparam Scalar  value type (float, double, Kokkos::complex<float>, Kokkos::complex<double>)
/// \tparam Ordinal row/column index type (int, int64_t)
/// \tparam Offset  row offset type; must hold nnz
/// \tparam Device  Kokkos device (execution space + memory space) the Views live in
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class CsrMatrix {
  static_assert(impl::CheckMatrixTypes<Scalar, Ordinal, Offset>::value, "");

 public:
  using format_tag = impl::csr_tag;
  using value_type = Scalar;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  // Offsets are const so that a KokkosSparse::CrsMatrix (whose row map is const) can be
  // wrapped without a copy.
  using row_offsets_type = Kokkos::View<const Offset*, Device>;
  using col_indices_type = Kokkos::View<Ordinal*, Device>;
  using values_type = Kokkos::View<Scalar*, Device>;

  row_offsets_type row_offsets;
  col_indices_type col_indices;
  values_type values;

  /// An empty 0 x 0 matrix.
  CsrMatrix() = default;

  /// Wraps existing Views without copying. Throws std::invalid_argument if the extents do
  /// not fit the sizes (row_offsets must have num_rows + 1 entries, col_indices and values
  /// the same length). Call validate() to also check the contents.
  CsrMatrix(Ordinal num_rows, Ordinal num_cols, const row_offsets_type& offsets,
            const col_indices_type& indices, const values_type& vals)
      : row_offsets(offsets), col_indices(indices), values(vals), m_num_rows(num_rows), m_num_cols(num_cols) {
    check_extents();
  }

  /// Wraps a KokkosSparse::CrsMatrix without copying (its row map, entries and values Views
  /// are shared). Any type with the same members (graph.row_map, graph.entries, values,
  /// numRows(), numCols()) works, so this header does not need KokkosKernels. The KokkosKernels
  /// matrix's scalar, ordinal, size type and device must match this CsrMatrix's.
  template <class KokkosKernelsCrs, class = decltype(std::declval<const KokkosKernelsCrs&>().graph.row_map),
            class = decltype(std::declval<const KokkosKernelsCrs&>().numCols())>
  explicit CsrMatrix(const KokkosKernelsCrs& kk)
      : CsrMatrix(kk.numRows(), kk.numCols(), kk.graph.row_map, kk.graph.entries, kk.values) {}

  /// Copies a CSR matrix given as host arrays (row_offsets: num_rows + 1 entries,
  /// col_indices and values: row_offsets[num_rows] entries) into new Views on Device; a null
  /// host_offsets is num_rows empty rows. The arrays are checked on the host first, as
  /// validate() checks a matrix's Views, before anything is allocated: throws
  /// std::invalid_argument for a negative size, a null host_indices or host_values with entries,
  /// row_offsets not starting at 0 or decreasing, or a column index outside [0, num_cols).
  static CsrMatrix from_host(Ordinal num_rows, Ordinal num_cols, const Offset* host_offsets,
                             const Ordinal* host_indices, const Scalar* host_values) {
    const std::string who = "kspmv::CsrMatrix::from_host";
    if (num_rows < 0 || num_cols < 0) throw std::invalid_argument(size_message(who, "negative size", num_rows, num_cols));
    const Offset nnz = host_offsets ? host_offsets[num_rows] : Offset(0);
    if (host_offsets) check_offsets(who, num_rows, num_cols, host_offsets);  // then nnz >= 0
    if (nnz > Offset(0) && (host_indices == nullptr || host_values == nullptr)) {
      throw std::invalid_argument(size_message(who, "row_offsets[num_rows] is " + std::to_string(nnz) +
                                                        " but host_indices or host_values is null", num_rows, num_cols));
    }
    if (host_offsets) check_indices(who, num_rows, num_cols, host_offsets, host_indices);
    using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    Kokkos::View<Offset*, Device> offsets(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::row_offsets"),
                                          static_cast<size_t>(num_rows) + 1);
    Kokkos::View<Ordinal*, Device> indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::col_indices"),
                                           static_cast<size_t>(nnz));
    Kokkos::View<Scalar*, Device> vals(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::csr::values"),
                                       static_cast<size_t>(nnz));
    if (host_offsets) {
      Kokkos::deep_copy(offsets, Kokkos::View<const Offset*, Kokkos::HostSpace, unmanaged>(host_offsets, num_rows + 1));
    } else {
      Kokkos::deep_copy(offsets, Offset(0));
    }
    if (nnz > 0) {
      Kokkos::deep_copy(indices, Kokkos::View<const Ordinal*, Kokkos::HostSpace, unmanaged>(host_indices, nnz));
      Kokkos::deep_copy(vals, Kokkos::View<const Scalar*, Kokkos::HostSpace, unmanaged>(host_values, nnz));
    }
    return CsrMatrix(num_rows, num_cols, offsets, indices, vals);
  }

  Ordinal num_rows() const { return m_num_rows; }
  Ordinal num_cols() const { return m_num_cols; }
  /// Number of stored entries (explicit zeros included).
  Offset nnz() const { return static_cast<Offset>(col_indices.extent(0)); }

  /// Tells kspmv that row_offsets or col_indices were changed in place: every copy of this
  /// matrix forgets its analysis, and the next automatic spmv analyses the structure again.
  void structure_changed() const { m_analysis->clear(); }

  /// Where the analysis of the automatic spmv is kept (see the class comment); shared by copies.
  impl::AnalysisCache& impl_analysis_cache() const { return *m_analysis; }

  /// A copy sharing the Views but with an empty analysis cache of its own: what the cache itself
  /// keeps, since a copy sharing the cache would keep the cache, and with it the Views, alive
  /// after the last of the user's copies is gone.
  CsrMatrix impl_without_analysis() const {
    CsrMatrix copy(*this);
    copy.m_analysis = std::make_shared<impl::AnalysisCache>();
    return copy;
  }

  /// Checks the invariants on the data itself (copies it to the host): row_offsets[0] == 0,
  /// offsets non-decreasing, row_offsets[num_rows] == nnz, every column index in
  /// [0, num_cols). Throws std::invalid_argument naming the first violation.
  void validate() const {
    check_extents();
    if (row_offsets.extent(0) == 0) {  // 0 rows without an offsets array
      if (nnz() != 0) throw std::invalid_argument(message("no rows but " + std::to_string(nnz()) + " entries"));
      return;
    }
    auto offsets = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), row_offsets);
    auto indices = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), col_indices);
    if (static_cast<Offset>(offsets(m_num_rows)) != nnz()) {
      throw std::invalid_argument(message("row_offsets[num_rows] is " + std::to_string(offsets(m_num_rows)) +
                                          " but there are " + std::to_string(nnz()) + " column indices"));
    }
    check_offsets("kspmv::CsrMatrix", m_num_rows, m_num_cols, offsets.data());
    check_indices("kspmv::CsrMatrix", m_num_rows, m_num_cols, offsets.data(), indices.data());
  }

 private:
  Ordinal m_num_rows = 0;
  Ordinal m_num_cols = 0;
  // Created with the matrix, so that copies made before the first spmv share it too.
  std::shared_ptr<impl::AnalysisCache> m_analysis = std::make_shared<impl::AnalysisCache>();

  static std::string size_message(const std::string& who, const std::string& what, Ordinal m, Ordinal n) {
    std::ostringstream s;
    s << who << ": " << what << " (" << m << " x " << n << ")";
    return s.str();
  }
  std::string message(const std::string& what) const {
    return size_message("kspmv::CsrMatrix", what, m_num_rows, m_num_cols);
  }

  // The invariants on host copies of the arrays (validate) or the caller's host arrays
  // (from_host), `who` naming the function in the message: offsets from 0, never decreasing;
  // then, over offsets that passed, every column index in [0, n).
  static void check_offsets(const std::string& who, Ordinal m, Ordinal n, const Offset* offsets) {
    if (offsets[0] != 0) fail_contents(who, m, n, "row_offsets[0] is " + std::to_string(offsets[0]) + ", not 0");
    for (Ordinal i = 0; i < m; ++i) {
      if (offsets[i + 1] < offsets[i]) {
        fail_contents(who, m, n, "row_offsets decrease at row " + std::to_string(i) + " (" + std::to_string(offsets[i]) +
                                     " then " + std::to_string(offsets[i + 1]) + ")");
      }
    }
  }
  static void check_indices(const std::string& who, Ordinal m, Ordinal n, const Offset* offsets, const Ordinal* indices) {
    for (Ordinal i = 0; i < m; ++i) {
      for (Offset k = offsets[i]; k < offsets[i + 1]; ++k) {
        if (indices[k] < 0 || indices[k] >= n) {
          fail_contents(who, m, n, "column index " + std::to_string(indices[k]) + " in row " + std::to_string(i) +
                                       " (entry " + std::to_string(k) + ") is out of range [0, " + std::to_string(n) + ")");
        }
      }
    }
  }
  [[noreturn]] static void fail_contents(const std::string& who, Ordinal m, Ordinal n, const std::string& what) {
    throw std::invalid_argument(size_message(who, what, m, n));
  }

  void check_extents() const {
    if (m_num_rows < 0 || m_num_cols < 0) throw std::invalid_argument(message("negative size"));
    // A 0-row matrix may come with an unallocated row_offsets View.
    const bool offsets_ok = row_offsets.extent(0) == static_cast<size_t>(m_num_rows) + 1 ||
                            (m_num_rows == 0 && row_offsets.extent(0) == 0);
    if (!offsets_ok) {
      throw std::invalid_argument(message("row_offsets has " + std::to_string(row_offsets.extent(0)) +
                                          " entries, expected num_rows + 1 = " + std::to_string(m_num_rows + 1)));
    }
    if (col_indices.extent(0) != values.extent(0)) {
      throw std::invalid_argument(message("col_indices has " + std::to_string(col_indices.extent(0)) +
                                          " entries but values has " + std::to_string(values.extent(0))));
    }
    if (col_indices.extent(0) > static_cast<size_t>(std::numeric_limits<Offset>::max())) {
      throw std::invalid_argument(message("nnz does not fit in the Offset type"));
    }
  }
};

}  // namespace kspmv
