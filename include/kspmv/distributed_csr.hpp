#pragma once
/// \file distributed_csr.hpp
/// A CSR matrix whose rows are spread over the ranks of an MPI communicator. Data only: the
/// construction (make_distributed_csr, read_matrix_market_distributed, poisson_3d_distributed)
/// and the SpMV live in distributed.hpp. Needs MPI: link kspmv::distributed (CMake option
/// KSPMV_ENABLE_MPI).

#include <Kokkos_Core.hpp>

#include "csr.hpp"
#include "impl/mpi.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kspmv {

/// Whether the distributed SpMV hands device pointers to MPI (GPU-aware MPI) or stages the halo
/// through host memory. Host memory spaces always hand their own pointers.
///  - automatic: device pointers if kspmv was built with -DKSPMV_MPI_GPU_AWARE=ON, or if the
///    MPI library says at run time that it is CUDA-aware (Open MPI's MPIX_Query_cuda_support)
///    or ROCm-aware (MPIX_Query_rocm_support); host staging otherwise;
///  - on: device pointers (the MPI library must be GPU-aware, or MPI fails or crashes);
///  - off: host staging.
enum class GpuAwareMpi { automatic, on, off };

/// Options of the distributed constructions.
struct DistributedOptions {
  GpuAwareMpi gpu_aware_mpi = GpuAwareMpi::automatic;
  /// How spmv sums each row.
  ///  - false (default): the local block's SpMV overlaps the exchange, then the ghost block's
  ///    product is added: a row's sum is its owned part plus its ghost part, which may differ
  ///    from a one-rank product in the last bits.
  ///  - true: the rows are also kept whole (DistributedCsrMatrix::ordered_rows, entries in their
  ///    stored order, columns into [owned x | received x]); spmv waits for the exchange and runs
  ///    one SpMV over them, so each row is summed as a one-rank SpMV with the same options sums
  ///    it. With a kernel whose sums depend on the row alone (Algorithm::csr_scalar), the result
  ///    is then the one-rank result bit for bit, on any number of ranks and any partition.
  ///    Costs a second copy of the rows (indices and values) and the overlap.
  bool keep_row_order = false;
};

namespace impl {

// Host memory for the halo's copies where MPI gets no device pointers: page-locked where the
// device has such a space, so that the copies run at the link's speed and are truly
// asynchronous; plain host memory otherwise.
template <class MemorySpace>
struct halo_staging_space {
  using type = Kokkos::HostSpace;
};
#if defined(KOKKOS_ENABLE_CUDA)
template <>
struct halo_staging_space<Kokkos::CudaSpace> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif
#if defined(KOKKOS_ENABLE_HIP)
#if KOKKOS_VERSION >= 40000
template <>
struct halo_staging_space<Kokkos::HIPSpace> {
  using type = Kokkos::HIPHostPinnedSpace;
};
#else
template <>
struct halo_staging_space<Kokkos::Experimental::HIPSpace> {
  using type = Kokkos::Experimental::HIPHostPinnedSpace;
};
#endif
#endif

// What every copy of a distributed matrix shares: the communicator, the partitions and the
// buffers of the halo exchange (one set, so one SpMV at a time on a matrix and its copies).
template <class Scalar, class Device>
struct DistributedShared {
  std::shared_ptr<OwnedCommunicator> comm;
  int rank = 0;
  int num_ranks = 1;
  std::vector<int64_t> row_partition{0, 0};
  std::vector<int64_t> col_partition{0, 0};
  bool device_pointers_to_mpi = false;
  bool keep_row_order = false;
  Kokkos::View<Scalar*, Device> send_buffer;        // packed owned x entries, by destination
  Kokkos::View<Scalar*, Device> ghost_x;            // received x entries, by ghost column
  Kokkos::View<Scalar*, Device> ordered_x;          // keep_row_order: [owned x | ghost_x], ghost_x its tail
  Kokkos::View<Scalar*, Device> ghost_product;      // ghost block times ghost_x, by ghost row
  using staging_space = typename halo_staging_space<typename Device::memory_space>::type;
  Kokkos::View<Scalar*, staging_space> send_host;  // staging where device pointers are not handed to MPI
  Kokkos::View<Scalar*, staging_space> recv_host;
  // The staging copies' own instance of the device's execution space (a stream of its own), so
  // that they run beside the local block's SpMV instead of before and after it: on the two H100s
  // of perf_tests/results/h100x2_distributed_b451ae4 they added 2-10% to the call on one stream.
  // Empty on host backends, with GPU-aware MPI, and where Kokkos lacks partition_space.
  std::optional<typename Device::execution_space> staging_copies;
};

}  // namespace impl

/// A (global_rows x global_cols) sparse matrix A whose rows are partitioned over the ranks of
/// an MPI communicator: rank r owns rows [row_partition[r], row_partition[r+1]) of A and y, and
/// entries [col_partition[r], col_partition[r+1]) of x. Its rows are split at construction into
///  - local_block: the entries whose column this rank owns, column c stored as
///    c - col_partition[rank] (num_local_rows x num_local_cols);
///  - ghost_block: the other entries, in rows compressed to those that have any
///    (ghost_rows[i] is the local row of ghost_block's row i) and columns numbered by
///    increasing global column (ghost_cols[j] is the global column of ghost column j);
/// entries keep their order within a row in both. Rank r's part of the product is then
///   y_r = alpha*(local_block*x_r + scatter(ghost_rows, ghost_block*x_ghost)) + beta*y_r,
/// where x_ghost[j] = x[ghost_cols[j]] arrives from the ranks that own those entries. The
/// communication pattern is computed once: ghost entries [recv_offsets[q], recv_offsets[q+1])
/// come from rank recv_ranks[q], and owned entries send_indices[send_offsets[q] ...
/// send_offsets[q+1]) (local numbering) go to rank send_ranks[q], ranks in increasing order.
///
/// With DistributedOptions::keep_row_order, also
///  - ordered_rows: this rank's rows whole, entries in their stored order, column c <
///    num_local_cols() the owned column c, num_local_cols() + j the ghost column j (empty
///    without the option).
///
/// Copies share the Views, the communicator (a duplicate of the one given, freed with the last
/// copy) and the exchange's buffers: one spmv at a time on a matrix and its copies.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
class DistributedCsrMatrix {
 public:
  using value_type = Scalar;
  using ordinal_type = Ordinal;
  using offset_type = Offset;
  using device_type = Device;
  using execution_space = typename Device::execution_space;
  using memory_space = typename Device::memory_space;
  using local_matrix_type = CsrMatrix<Scalar, Ordinal, Offset, Device>;

  local_matrix_type local_block;
  local_matrix_type ghost_block;
  local_matrix_type ordered_rows;
  Kokkos::View<Ordinal*, Device> ghost_rows;
  Kokkos::View<int64_t*, Device> ghost_cols;
  std::vector<int> recv_ranks;
  std::vector<int64_t> recv_offsets{0};
  std::vector<int> send_ranks;
  std::vector<int64_t> send_offsets{0};
  Kokkos::View<Ordinal*, Device> send_indices;

  /// An empty matrix on no communicator; assign one from make_distributed_csr.
  DistributedCsrMatrix() : m_shared(std::make_shared<impl::DistributedShared<Scalar, Device>>()) {}
  /// Used by the constructions in distributed.hpp.
  explicit DistributedCsrMatrix(std::shared_ptr<impl::DistributedShared<Scalar, Device>> shared)
      : m_shared(std::move(shared)) {}

  /// The matrix's own duplicate of the communicator it was built on (MPI_COMM_NULL if none).
  MPI_Comm comm() const { return m_shared->comm ? m_shared->comm->comm() : MPI_COMM_NULL; }
  int rank() const { return m_shared->rank; }
  int num_ranks() const { return m_shared->num_ranks; }
  int64_t global_rows() const { return m_shared->row_partition.back(); }
  int64_t global_cols() const { return m_shared->col_partition.back(); }
  /// num_ranks + 1 offsets: rank r owns rows [row_partition()[r], row_partition()[r+1]).
  const std::vector<int64_t>& row_partition() const { return m_shared->row_partition; }
  /// num_ranks + 1 offsets: rank r owns entries [col_partition()[r], col_partition()[r+1]) of x.
  const std::vector<int64_t>& col_partition() const { return m_shared->col_partition; }
  int64_t first_row() const { return m_shared->row_partition[size_t(rank())]; }
  int64_t first_col() const { return m_shared->col_partition[size_t(rank())]; }
  /// Rows of A (and entries of y) on this rank.
  Ordinal num_local_rows() const { return local_block.num_rows(); }
  /// Entries of x on this rank.
  Ordinal num_local_cols() const { return local_block.num_cols(); }
  /// Entries of x this rank receives from others in each spmv.
  Ordinal num_ghost_cols() const { return ghost_block.num_cols(); }
  /// Whether spmv hands device pointers to MPI (GpuAwareMpi resolved at construction).
  bool device_pointers_to_mpi() const { return m_shared->device_pointers_to_mpi; }
  /// Whether it was built with DistributedOptions::keep_row_order (spmv over ordered_rows).
  bool keeps_row_order() const { return m_shared->keep_row_order; }

  /// The shared state (communicator, partitions, exchange buffers).
  impl::DistributedShared<Scalar, Device>& impl_shared() const { return *m_shared; }

 private:
  std::shared_ptr<impl::DistributedShared<Scalar, Device>> m_shared;
};

}  // namespace kspmv
