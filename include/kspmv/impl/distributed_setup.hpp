#pragma once
// Building a DistributedCsrMatrix from the rows a rank owns (global column numbers): checks,
// the split into the local and the ghost block on the device, the ghost columns, and the
// communication pattern, computed once. Collective over the communicator; every check that can
// fail on one rank alone goes through on_every_rank, so that all ranks throw together.

#include "../distributed_csr.hpp"
#include "mpi.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // MPIX_Query_cuda_support, MPIX_Query_rocm_support
#endif
#endif

namespace kspmv {
namespace impl {

// The tag of the messages that set up the halo pattern, on the matrix's own communicator.
constexpr int pattern_tag = 0x5350;

// num_parts + 1 offsets splitting n items into contiguous blocks whose sizes differ by at most
// one, the larger ones first.
inline std::vector<int64_t> contiguous_blocks(int64_t n, int num_parts) {
  std::vector<int64_t> p(size_t(num_parts) + 1, 0);
  const int64_t base = n / num_parts, extra = n % num_parts;
  for (int r = 0; r < num_parts; ++r) p[size_t(r) + 1] = p[size_t(r)] + base + (r < extra ? 1 : 0);
  return p;
}

// Empty if p is a partition of `total` items over num_parts ranks, else what is wrong with it.
inline std::string partition_problem(const std::vector<int64_t>& p, int num_parts, int64_t total) {
  if (p.size() != size_t(num_parts) + 1) {
    return "has " + std::to_string(p.size()) + " entries; it needs the number of ranks + 1 = " +
           std::to_string(num_parts + 1);
  }
  if (p.front() != 0) return "starts at " + std::to_string(p.front()) + ", not 0";
  for (int r = 0; r < num_parts; ++r) {
    if (p[size_t(r) + 1] < p[size_t(r)]) {
      return "decreases at rank " + std::to_string(r) + " (" + std::to_string(p[size_t(r)]) + " then " +
             std::to_string(p[size_t(r) + 1]) + ")";
    }
  }
  if (p.back() != total) return "ends at " + std::to_string(p.back()) + ", not at " + std::to_string(total);
  return "";
}

template <class T>
bool fits(int64_t value) {
  return value >= 0 && static_cast<unsigned long long>(value) <=
                           static_cast<unsigned long long>(std::numeric_limits<T>::max());
}

// Whether the exchange hands MPI the device Views' own pointers: always where the host can read
// the memory space; on a GPU as GpuAwareMpi says (see distributed_csr.hpp).
template <class MemorySpace>
bool hand_device_pointers(GpuAwareMpi choice) {
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible) return true;
  if (choice != GpuAwareMpi::automatic) return choice == GpuAwareMpi::on;
#if defined(KSPMV_MPI_GPU_AWARE)
  return true;
#else
#if defined(KOKKOS_ENABLE_CUDA) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  if (MPIX_Query_cuda_support() == 1) return true;
#endif
#if defined(KOKKOS_ENABLE_HIP) && defined(MPIX_ROCM_AWARE_SUPPORT) && MPIX_ROCM_AWARE_SUPPORT
  if (MPIX_Query_rocm_support() == 1) return true;
#endif
  return false;
#endif
}

// The first index of the sorted `sorted[0, n)` not less than `value` (n if none).
template <class View>
KOKKOS_INLINE_FUNCTION int64_t lower_bound_in(const View& sorted, int64_t n, int64_t value) {
  int64_t low = 0, high = n;
  while (low < high) {
    const int64_t mid = low + (high - low) / 2;
    if (sorted(mid) < value) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low;
}

// `rows`: this rank's rows of A with global column numbers (num_cols: A's global columns).
// col_partition empty: the row partition for a square A, contiguous blocks otherwise.
template <class Scalar, class Ordinal, class Offset, class Device>
DistributedCsrMatrix<Scalar, Ordinal, Offset, Device> build_distributed(
    MPI_Comm user_comm, const CsrMatrix<Scalar, int64_t, int64_t, Device>& rows, std::vector<int64_t> col_partition,
    const DistributedOptions& options, const std::string& who) {
  using execution_space = typename Device::execution_space;
  using range = Kokkos::RangePolicy<execution_space, Kokkos::IndexType<int64_t>>;
  auto shared = std::make_shared<DistributedShared<Scalar, Device>>();
  shared->comm = std::make_shared<OwnedCommunicator>(user_comm, sizeof(Scalar));
  const MPI_Comm comm = shared->comm->comm();
  const int rank = mpi_rank(comm), num_ranks = mpi_size(comm);
  shared->rank = rank;
  shared->num_ranks = num_ranks;

  // The row partition follows the ranks' row counts in rank order; every rank must give the
  // same number of columns and, if it gives one, the same column partition.
  int64_t mine[2] = {int64_t(rows.num_rows()), int64_t(rows.num_cols())};
  std::vector<int64_t> everyone(2 * size_t(num_ranks));
  mpi_check(MPI_Allgather(mine, 2, MPI_INT64_T, everyone.data(), 2, MPI_INT64_T, comm), "MPI_Allgather");
  std::vector<int64_t> root_cols = col_partition;
  int64_t root_cols_size = int64_t(root_cols.size());
  mpi_check(MPI_Bcast(&root_cols_size, 1, MPI_INT64_T, 0, comm), "MPI_Bcast");
  root_cols.resize(size_t(root_cols_size));
  if (root_cols_size > 0) {
    mpi_check(MPI_Bcast(root_cols.data(), int(root_cols_size), MPI_INT64_T, 0, comm), "MPI_Bcast");
  }
  std::vector<int64_t>& row_partition = shared->row_partition;
  row_partition.assign(size_t(num_ranks) + 1, 0);
  for (int r = 0; r < num_ranks; ++r) row_partition[size_t(r) + 1] = row_partition[size_t(r)] + everyone[2 * size_t(r)];
  const int64_t global_rows = row_partition.back(), global_cols = everyone[1];
  on_every_rank(comm, [&] {
    for (int r = 0; r < num_ranks; ++r) {
      if (everyone[2 * size_t(r) + 1] != global_cols) {
        throw std::invalid_argument(who + ": the ranks' matrices disagree on the number of columns (rank 0: " +
                                    std::to_string(global_cols) + ", rank " + std::to_string(r) + ": " +
                                    std::to_string(everyone[2 * size_t(r) + 1]) + ")");
      }
    }
    if (col_partition != root_cols) {
      throw std::invalid_argument(who + ": the column partition differs from rank 0's");
    }
    if (col_partition.empty()) {
      col_partition = global_rows == global_cols ? row_partition : contiguous_blocks(global_cols, num_ranks);
    }
    const std::string problem = partition_problem(col_partition, num_ranks, global_cols);
    if (!problem.empty()) throw std::invalid_argument(who + ": the column partition " + problem);
    const int64_t my_cols = col_partition[size_t(rank) + 1] - col_partition[size_t(rank)];
    if (!fits<Ordinal>(rows.num_rows()) || !fits<Ordinal>(my_cols) || !fits<Offset>(int64_t(rows.nnz()))) {
      throw std::overflow_error(who + ": rank " + std::to_string(rank) + "'s " + std::to_string(rows.num_rows()) +
                                " rows, " + std::to_string(my_cols) + " columns and " + std::to_string(rows.nnz()) +
                                " entries do not fit in the local blocks' Ordinal and Offset types");
    }
  });
  shared->col_partition = col_partition;
  const int64_t m = rows.num_rows(), col_begin = col_partition[size_t(rank)],
                col_end = col_partition[size_t(rank) + 1];

  // The rows themselves: offsets from 0, never decreasing, to nnz; columns inside A.
  const auto offsets = rows.row_offsets;
  const auto indices = rows.col_indices;
  const auto values = rows.values;
  const int64_t nnz = rows.nnz();
  on_every_rank(comm, [&] {
    int64_t first_bad_row = m + 1, first_bad_entry = nnz;
    if (m > 0 || offsets.extent(0) > 0) {
      Kokkos::parallel_reduce(
          "kspmv::distributed[check rows]", range(0, m + 1),
          KOKKOS_LAMBDA(const int64_t i, int64_t& first) {
            const bool bad = (i == 0 && offsets(0) != 0) || (i > 0 && offsets(i) < offsets(i - 1)) ||
                             (i == m && offsets(m) != nnz);
            if (bad && i < first) first = i;
          },
          Kokkos::Min<int64_t>(first_bad_row));
    }
    if (first_bad_row <= m) {
      throw std::invalid_argument(who + ": rank " + std::to_string(rank) + "'s row offsets are broken at row " +
                                  std::to_string(first_bad_row) + " (they must start at 0, never decrease and end at " +
                                  std::to_string(nnz) + ")");
    }
    Kokkos::parallel_reduce(
        "kspmv::distributed[check columns]", range(0, nnz),
        KOKKOS_LAMBDA(const int64_t k, int64_t& first) {
          if ((indices(k) < 0 || indices(k) >= global_cols) && k < first) first = k;
        },
        Kokkos::Min<int64_t>(first_bad_entry));
    if (first_bad_entry < nnz) {
      int64_t column = 0;
      Kokkos::deep_copy(column, Kokkos::subview(indices, first_bad_entry));
      throw std::invalid_argument(who + ": rank " + std::to_string(rank) + "'s entry " +
                                  std::to_string(first_bad_entry) + " has column " + std::to_string(column) +
                                  ", outside [0, " + std::to_string(global_cols) + ")");
    }
  });

  // Entries per row in each block, then their offsets.
  Kokkos::View<Offset*, Device> local_offsets("kspmv::distributed::local::row_offsets", size_t(m) + 1);
  Kokkos::View<int64_t*, Device> ghost_offsets_all("kspmv::distributed::ghost_offsets_all", size_t(m) + 1);
  Kokkos::View<int64_t*, Device> ghost_row_at("kspmv::distributed::ghost_row_at", size_t(m) + 1);
  Kokkos::parallel_scan(
      "kspmv::distributed[count blocks]", range(0, m + 1),
      KOKKOS_LAMBDA(const int64_t i, int64_t& running, const bool final) {
        // Ghost entries before row i (a scan carries one count: the local entries and the ghost
        // rows follow from it in the two scans below).
        if (final) ghost_offsets_all(i) = running;
        if (i < m) {
          for (int64_t k = offsets(i); k < offsets(i + 1); ++k) running += (indices(k) < col_begin || indices(k) >= col_end);
        }
      });
  Kokkos::parallel_scan(
      "kspmv::distributed[count local]", range(0, m + 1),
      KOKKOS_LAMBDA(const int64_t i, int64_t& running, const bool final) {
        if (final) local_offsets(i) = static_cast<Offset>(running);
        if (i < m) running += (offsets(i + 1) - offsets(i)) - (ghost_offsets_all(i + 1) - ghost_offsets_all(i));
      });
  Kokkos::parallel_scan(
      "kspmv::distributed[count ghost rows]", range(0, m + 1),
      KOKKOS_LAMBDA(const int64_t i, int64_t& running, const bool final) {
        if (final) ghost_row_at(i) = running;
        if (i < m) running += ghost_offsets_all(i + 1) > ghost_offsets_all(i) ? 1 : 0;
      });
  int64_t ghost_nnz = 0, num_ghost_rows = 0;
  Kokkos::deep_copy(ghost_nnz, Kokkos::subview(ghost_offsets_all, m));
  Kokkos::deep_copy(num_ghost_rows, Kokkos::subview(ghost_row_at, m));
  const int64_t local_nnz = nnz - ghost_nnz;

  // The ghost columns: every entry's, sorted and made unique on the host (they are the matrix's
  // surface, few beside its entries).
  Kokkos::View<int64_t*, Device> ghost_entry_cols(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::ghost_entry_cols"),
                                                  size_t(ghost_nnz));
  Kokkos::parallel_for(
      "kspmv::distributed[gather ghost columns]", range(0, m), KOKKOS_LAMBDA(const int64_t i) {
        int64_t at = ghost_offsets_all(i);
        for (int64_t k = offsets(i); k < offsets(i + 1); ++k) {
          if (indices(k) < col_begin || indices(k) >= col_end) ghost_entry_cols(at++) = indices(k);
        }
      });
  std::vector<int64_t> ghost_cols_host(static_cast<size_t>(ghost_nnz));
  Kokkos::deep_copy(Kokkos::View<int64_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                        ghost_cols_host.data(), ghost_cols_host.size()),
                    ghost_entry_cols);
  ghost_entry_cols = Kokkos::View<int64_t*, Device>();
  std::sort(ghost_cols_host.begin(), ghost_cols_host.end());
  ghost_cols_host.erase(std::unique(ghost_cols_host.begin(), ghost_cols_host.end()), ghost_cols_host.end());
  const int64_t num_ghost_cols = int64_t(ghost_cols_host.size());

  // Who owns them: ghost columns are sorted, so each owner's are one range.
  std::vector<int64_t> recv_counts(size_t(num_ranks), 0), send_counts(size_t(num_ranks), 0);
  for (int q = 0; q < num_ranks; ++q) {
    const auto begin = std::lower_bound(ghost_cols_host.begin(), ghost_cols_host.end(), col_partition[size_t(q)]);
    const auto end = std::lower_bound(ghost_cols_host.begin(), ghost_cols_host.end(), col_partition[size_t(q) + 1]);
    recv_counts[size_t(q)] = int64_t(end - begin);
  }
  mpi_check(MPI_Alltoall(recv_counts.data(), 1, MPI_INT64_T, send_counts.data(), 1, MPI_INT64_T, comm),
            "MPI_Alltoall");
  DistributedCsrMatrix<Scalar, Ordinal, Offset, Device> A(shared);
  const bool keep_order = options.keep_row_order;
  on_every_rank(comm, [&] {
    if (!fits<Ordinal>(num_ghost_cols) || !fits<Ordinal>(num_ghost_rows) ||
        (keep_order && !fits<Ordinal>(col_end - col_begin + num_ghost_cols))) {
      throw std::overflow_error(who + ": rank " + std::to_string(rank) + "'s " + std::to_string(num_ghost_cols) +
                                " ghost columns do not fit in the local blocks' Ordinal type" +
                                (keep_order ? " (with its " + std::to_string(col_end - col_begin) + " own columns)" : ""));
    }
    for (int q = 0; q < num_ranks; ++q) {
      if (recv_counts[size_t(q)] > INT_MAX || send_counts[size_t(q)] > INT_MAX) {
        throw std::overflow_error(who + ": ranks " + std::to_string(rank) + " and " + std::to_string(q) +
                                  " would exchange more than 2^31 - 1 entries of x in one message");
      }
    }
  });
  for (int q = 0; q < num_ranks; ++q) {
    if (recv_counts[size_t(q)] > 0) {
      A.recv_ranks.push_back(q);
      A.recv_offsets.push_back(A.recv_offsets.back() + recv_counts[size_t(q)]);
    }
    if (send_counts[size_t(q)] > 0) {
      A.send_ranks.push_back(q);
      A.send_offsets.push_back(A.send_offsets.back() + send_counts[size_t(q)]);
    }
  }

  // Tell each owner which of its entries this rank needs.
  std::vector<int64_t> requested(size_t(A.send_offsets.back()));
  std::vector<MPI_Request> requests;
  for (size_t q = 0; q < A.send_ranks.size(); ++q) {
    requests.emplace_back();
    mpi_check(MPI_Irecv(requested.data() + A.send_offsets[q], int(A.send_offsets[q + 1] - A.send_offsets[q]),
                        MPI_INT64_T, A.send_ranks[q], pattern_tag, comm, &requests.back()),
              "MPI_Irecv");
  }
  for (size_t q = 0; q < A.recv_ranks.size(); ++q) {
    requests.emplace_back();
    mpi_check(MPI_Isend(ghost_cols_host.data() + A.recv_offsets[q], int(A.recv_offsets[q + 1] - A.recv_offsets[q]),
                        MPI_INT64_T, A.recv_ranks[q], pattern_tag, comm, &requests.back()),
              "MPI_Isend");
  }
  mpi_check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  std::vector<Ordinal> send_local(requested.size());
  for (size_t k = 0; k < requested.size(); ++k) send_local[k] = static_cast<Ordinal>(requested[k] - col_begin);

  using unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
  A.send_indices = Kokkos::View<Ordinal*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::send_indices"),
                                                  send_local.size());
  Kokkos::deep_copy(A.send_indices, Kokkos::View<const Ordinal*, Kokkos::HostSpace, unmanaged>(send_local.data(), send_local.size()));
  A.ghost_cols = Kokkos::View<int64_t*, Device>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::ghost_cols"),
                                                size_t(num_ghost_cols));
  Kokkos::deep_copy(A.ghost_cols, Kokkos::View<const int64_t*, Kokkos::HostSpace, unmanaged>(ghost_cols_host.data(),
                                                                                             ghost_cols_host.size()));

  // The two blocks, entries in their order within each row.
  Kokkos::View<Ordinal*, Device> local_indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::local::col_indices"),
                                               size_t(local_nnz));
  Kokkos::View<Scalar*, Device> local_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::local::values"),
                                             size_t(local_nnz));
  Kokkos::View<Offset*, Device> ghost_offsets("kspmv::distributed::ghost::row_offsets", size_t(num_ghost_rows) + 1);
  Kokkos::View<Ordinal*, Device> ghost_indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::ghost::col_indices"),
                                               size_t(ghost_nnz));
  Kokkos::View<Scalar*, Device> ghost_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::ghost::values"),
                                             size_t(ghost_nnz));
  Kokkos::View<Ordinal*, Device> ghost_rows(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::ghost_rows"),
                                            size_t(num_ghost_rows));
  // keep_row_order: the rows whole as well, columns into [owned x | ghost x].
  const int64_t ordered_nnz = keep_order ? nnz : 0, ordered_rows_count = keep_order ? m : 0;
  Kokkos::View<Offset*, Device> ordered_offsets("kspmv::distributed::ordered::row_offsets", size_t(ordered_rows_count) + 1);
  Kokkos::View<Ordinal*, Device> ordered_indices(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::ordered::col_indices"),
                                                 size_t(ordered_nnz));
  Kokkos::View<Scalar*, Device> ordered_values(Kokkos::view_alloc(Kokkos::WithoutInitializing, "kspmv::distributed::ordered::values"),
                                               size_t(ordered_nnz));
  const int64_t my_cols = col_end - col_begin;
  const auto ghost_cols = A.ghost_cols;
  Kokkos::parallel_for(
      "kspmv::distributed[split blocks]", range(0, m), KOKKOS_LAMBDA(const int64_t i) {
        int64_t local_at = local_offsets(i), ghost_at = ghost_offsets_all(i);
        if (keep_order) ordered_offsets(i + 1) = static_cast<Offset>(offsets(i + 1));
        for (int64_t k = offsets(i); k < offsets(i + 1); ++k) {
          const int64_t c = indices(k);
          if (c >= col_begin && c < col_end) {
            local_indices(local_at) = static_cast<Ordinal>(c - col_begin);
            local_values(local_at++) = values(k);
            if (keep_order) ordered_indices(k) = static_cast<Ordinal>(c - col_begin);
          } else {
            const int64_t j = lower_bound_in(ghost_cols, num_ghost_cols, c);
            ghost_indices(ghost_at) = static_cast<Ordinal>(j);
            ghost_values(ghost_at++) = values(k);
            if (keep_order) ordered_indices(k) = static_cast<Ordinal>(my_cols + j);
          }
          if (keep_order) ordered_values(k) = values(k);
        }
        if (ghost_row_at(i + 1) > ghost_row_at(i)) {
          const int64_t g = ghost_row_at(i);
          ghost_rows(g) = static_cast<Ordinal>(i);
          ghost_offsets(g + 1) = static_cast<Offset>(ghost_offsets_all(i + 1));
        }
      });
  A.local_block = CsrMatrix<Scalar, Ordinal, Offset, Device>(static_cast<Ordinal>(m), static_cast<Ordinal>(col_end - col_begin),
                                                             local_offsets, local_indices, local_values);
  A.ghost_block = CsrMatrix<Scalar, Ordinal, Offset, Device>(static_cast<Ordinal>(num_ghost_rows),
                                                             static_cast<Ordinal>(num_ghost_cols), ghost_offsets,
                                                             ghost_indices, ghost_values);
  A.ghost_rows = ghost_rows;
  if (keep_order) {
    A.ordered_rows = CsrMatrix<Scalar, Ordinal, Offset, Device>(static_cast<Ordinal>(m),
                                                                static_cast<Ordinal>(my_cols + num_ghost_cols),
                                                                ordered_offsets, ordered_indices, ordered_values);
  }

  // The exchange's buffers.
  shared->device_pointers_to_mpi = hand_device_pointers<typename Device::memory_space>(options.gpu_aware_mpi);
  shared->send_buffer = Kokkos::View<Scalar*, Device>("kspmv::distributed::send_buffer", size_t(A.send_offsets.back()));
  shared->keep_row_order = keep_order;
  if (keep_order) {
    // The received entries land after the owned ones, where ordered_rows' ghost columns point.
    shared->ordered_x = Kokkos::View<Scalar*, Device>("kspmv::distributed::ordered_x", size_t(my_cols + num_ghost_cols));
    shared->ghost_x = Kokkos::subview(shared->ordered_x, Kokkos::make_pair(size_t(my_cols), size_t(my_cols + num_ghost_cols)));
  } else {
    shared->ghost_x = Kokkos::View<Scalar*, Device>("kspmv::distributed::ghost_x", size_t(num_ghost_cols));
  }
  shared->ghost_product = Kokkos::View<Scalar*, Device>("kspmv::distributed::ghost_product", size_t(num_ghost_rows));
  if (!shared->device_pointers_to_mpi) {
    using staging_space = typename DistributedShared<Scalar, Device>::staging_space;
    shared->send_host = Kokkos::View<Scalar*, staging_space>("kspmv::distributed::send_host", size_t(A.send_offsets.back()));
    shared->recv_host = Kokkos::View<Scalar*, staging_space>("kspmv::distributed::recv_host", size_t(num_ghost_cols));
#if KOKKOS_VERSION >= 40000
    if constexpr (!std::is_same<staging_space, Kokkos::HostSpace>::value) {
      shared->staging_copies = Kokkos::Experimental::partition_space(execution_space(), 1)[0];
    }
#endif
  }
  execution_space().fence();
  return A;
}

}  // namespace impl
}  // namespace kspmv
