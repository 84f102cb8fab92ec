#pragma once
/// \file distributed.hpp
/// SpMV over MPI: building a DistributedCsrMatrix (from each rank's rows, from a Matrix Market
/// file read on rank 0, or from the 3D Poisson generator, each rank building its own rows) and
///   y = alpha*A*x + beta*y
/// on it, with x and y partitioned like A's columns and rows. Needs MPI: link kspmv::distributed
/// (CMake option KSPMV_ENABLE_MPI, on where CMake finds MPI). Every function here is collective:
/// every rank of the communicator calls it, with the same scalars and options. Bad input found on
/// any rank makes every rank throw the same exception (std::invalid_argument,
/// std::overflow_error, MatrixMarketError), so no rank is left waiting for the others.

#include "distributed_csr.hpp"
#include "generate.hpp"
#include "impl/distributed_halo.hpp"
#include "impl/distributed_setup.hpp"
#include "io.hpp"
#include "spmv.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace kspmv {

/// num_parts + 1 offsets splitting n rows into contiguous blocks whose sizes differ by at most
/// one (the larger first): part r is [p[r], p[r+1]). The default partition of the constructions
/// below. Throws std::invalid_argument for n < 0 or num_parts < 1.
inline std::vector<int64_t> contiguous_partition(int64_t n, int num_parts) {
  if (n < 0 || num_parts < 1) {
    throw std::invalid_argument("kspmv::contiguous_partition: " + std::to_string(n) + " items over " +
                                std::to_string(num_parts) + " parts (needs n >= 0 and at least one part)");
  }
  return impl::contiguous_blocks(n, num_parts);
}

/// Builds a distributed matrix from the rows each rank owns: `my_rows` holds this rank's rows of
/// A with global column numbers (num_cols: A's number of columns, the same on every rank). Rank
/// r owns the rows after those of ranks 0..r-1, in order. x is split by `col_partition`
/// (num_ranks + 1 offsets from 0 to A's columns; empty: the row partition for a square A,
/// contiguous_partition otherwise). The local blocks use Ordinal and Offset.
/// Throws std::invalid_argument for broken row offsets, a column outside A, ranks that disagree
/// on the columns or the column partition, or a partition that is not one, and
/// std::overflow_error where a rank's rows, columns, entries or ghost columns do not fit in
/// Ordinal or Offset, or two ranks would exchange more than 2^31 - 1 entries of x.
template <class Ordinal = int, class Offset = Ordinal, class Scalar, class Device>
DistributedCsrMatrix<Scalar, Ordinal, Offset, Device> make_distributed_csr(
    MPI_Comm comm, const CsrMatrix<Scalar, int64_t, int64_t, Device>& my_rows,
    const std::vector<int64_t>& col_partition = {}, const DistributedOptions& options = DistributedOptions()) {
  return impl::build_distributed<Scalar, Ordinal, Offset, Device>(comm, my_rows, col_partition, options,
                                                                 "kspmv::make_distributed_csr");
}

/// The 3D Poisson operator of poisson_3d (generate.hpp) on an nx x ny x nz grid, distributed:
/// each rank builds its own rows on its device (rank r: rows [row_partition[r],
/// row_partition[r+1]); empty: contiguous_partition of the nx*ny*nz rows), x split like the rows.
/// Throws std::invalid_argument for points other than 7 and 27, negative sizes or a partition
/// that is not one, std::overflow_error where the grid's rows exceed int64_t or a rank's part
/// exceeds Ordinal or Offset.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
DistributedCsrMatrix<Scalar, Ordinal, Offset, Device> poisson_3d_distributed(
    MPI_Comm comm, int64_t nx, int64_t ny, int64_t nz, int points, std::vector<int64_t> row_partition = {},
    const DistributedOptions& options = DistributedOptions()) {
  const char* who = "kspmv::poisson_3d_distributed";
  const int num_ranks = impl::mpi_size(comm), rank = impl::mpi_rank(comm);
  CsrMatrix<Scalar, int64_t, int64_t, Device> rows;
  impl::on_every_rank(comm, [&] {
    impl::check_poisson_arguments(who, nx, ny, nz, points);
    impl::check_poisson_count(who, nx, ny, nz, "rows", impl::poisson_rows(nx, ny, nz),
                              double(std::numeric_limits<int64_t>::max()), "int64_t");
    const int64_t m = nx * ny * nz;
    if (row_partition.empty()) row_partition = impl::contiguous_blocks(m, num_ranks);
    const std::string problem = impl::partition_problem(row_partition, num_ranks, m);
    if (!problem.empty()) throw std::invalid_argument(std::string(who) + ": the row partition " + problem);
    const int64_t begin = row_partition[size_t(rank)], end = row_partition[size_t(rank) + 1];
    // This rank's part must fit the local blocks' types: checked before anything is built (its
    // entries counted only where rows * points might not fit).
    const impl::Grid3d<int64_t> grid{nx, ny, nz, points};
    int64_t entries = (end - begin) * points;
    if (impl::fits<Ordinal>(end - begin) && !impl::fits<Offset>(entries)) {
      Kokkos::parallel_reduce(
          "kspmv::poisson_3d_distributed[count]",
          Kokkos::RangePolicy<typename Device::execution_space, Kokkos::IndexType<int64_t>>(begin, end),
          KOKKOS_LAMBDA(const int64_t r, int64_t& count) { grid.for_each_neighbour(r, [&](int64_t, bool) { ++count; }); },
          entries);
    }
    if (!impl::fits<Ordinal>(end - begin) || !impl::fits<Offset>(entries)) {
      throw std::overflow_error(std::string(who) + ": rank " + std::to_string(rank) + "'s " +
                                std::to_string(end - begin) + " rows (at most " + std::to_string((end - begin) * points) +
                                " entries) do not fit in the local blocks' Ordinal and Offset types");
    }
    rows = impl::poisson_3d_rows<Scalar, int64_t, int64_t, Device>(grid, m, begin, end);
  });
  return impl::build_distributed<Scalar, Ordinal, Offset, Device>(comm, rows, {}, options, who);
}

/// Reads a Matrix Market file on rank 0 (read_matrix_market: every format and check of io.hpp)
/// and distributes its rows: rank r gets rows [row_partition[r], row_partition[r+1]) (empty:
/// contiguous_partition), x split by col_partition (as make_distributed_csr). Only rank 0
/// opens the file and holds the whole matrix, on the host. A file that cannot be read throws
/// MatrixMarketError on every rank; a complex file into a real Scalar, a partition that is not
/// one, std::invalid_argument.
template <class Scalar, class Ordinal = int, class Offset = Ordinal,
          class Device = Kokkos::DefaultExecutionSpace::device_type>
DistributedCsrMatrix<Scalar, Ordinal, Offset, Device> read_matrix_market_distributed(
    MPI_Comm comm, const std::string& path, std::vector<int64_t> row_partition = {},
    const std::vector<int64_t>& col_partition = {}, const DistributedOptions& options = DistributedOptions()) {
  const std::string who = "kspmv::read_matrix_market_distributed";
  const int num_ranks = impl::mpi_size(comm), rank = impl::mpi_rank(comm);
  HostCsr whole;
  impl::on_every_rank(comm, [&] {
    if (rank == 0) whole = read_matrix_market(path);
  });
  int64_t sizes[3] = {whole.num_rows, whole.num_cols, whole.is_complex() ? 1 : 0};
  impl::mpi_check(MPI_Bcast(sizes, 3, MPI_INT64_T, 0, comm), "MPI_Bcast");
  impl::on_every_rank(comm, [&] {
    if (sizes[2] && !impl::is_complex<Scalar>::value) {
      throw std::invalid_argument(who + ": " + path +
                                  " is complex; read it into Kokkos::complex<double> or Kokkos::complex<float>, "
                                  "not a real Scalar");
    }
    if (row_partition.empty()) row_partition = impl::contiguous_blocks(sizes[0], num_ranks);
    const std::string problem = impl::partition_problem(row_partition, num_ranks, sizes[0]);
    if (!problem.empty()) throw std::invalid_argument(who + ": the row partition " + problem);
  });

  // Rank 0 sends each rank its rows: offsets from 0, global columns, values in Scalar.
  const auto rows_of = [&](int q, std::vector<int64_t>& offsets, std::vector<int64_t>& cols,
                           std::vector<Scalar>& vals) {
    const int64_t begin = row_partition[size_t(q)], end = row_partition[size_t(q) + 1];
    const int64_t first = whole.row_offsets[size_t(begin)], last = whole.row_offsets[size_t(end)];
    offsets.resize(size_t(end - begin) + 1);
    for (int64_t i = begin; i <= end; ++i) offsets[size_t(i - begin)] = whole.row_offsets[size_t(i)] - first;
    cols.assign(whole.col_indices.begin() + first, whole.col_indices.begin() + last);
    vals.resize(size_t(last - first));
    for (int64_t k = first; k < last; ++k) {
      if constexpr (impl::is_complex<Scalar>::value) {
        using Real = typename impl::is_complex<Scalar>::real_type;
        vals[size_t(k - first)] = Scalar(Real(whole.values[size_t(k)]),
                                         whole.imaginary.empty() ? Real(0) : Real(whole.imaginary[size_t(k)]));
      } else {
        vals[size_t(k - first)] = Scalar(whole.values[size_t(k)]);
      }
    }
  };
  const MPI_Comm c = comm;
  constexpr int tag = 0x5352;
  std::vector<int64_t> offsets, cols;
  std::vector<Scalar> vals;
  if (rank == 0) {
    for (int q = 1; q < num_ranks; ++q) {
      rows_of(q, offsets, cols, vals);
      int64_t nnz = int64_t(cols.size());
      impl::send_bytes(&nnz, sizeof(nnz), q, tag, c);
      impl::send_bytes(offsets.data(), offsets.size() * sizeof(int64_t), q, tag, c);
      impl::send_bytes(cols.data(), cols.size() * sizeof(int64_t), q, tag, c);
      impl::send_bytes(vals.data(), vals.size() * sizeof(Scalar), q, tag, c);
    }
    rows_of(0, offsets, cols, vals);
    whole = HostCsr();
  } else {
    int64_t nnz = 0;
    offsets.resize(size_t(row_partition[size_t(rank) + 1] - row_partition[size_t(rank)]) + 1);
    impl::recv_bytes(&nnz, sizeof(nnz), 0, tag, c);
    cols.resize(size_t(nnz));
    vals.resize(size_t(nnz));
    impl::recv_bytes(offsets.data(), offsets.size() * sizeof(int64_t), 0, tag, c);
    impl::recv_bytes(cols.data(), cols.size() * sizeof(int64_t), 0, tag, c);
    impl::recv_bytes(vals.data(), vals.size() * sizeof(Scalar), 0, tag, c);
  }
  const auto rows = CsrMatrix<Scalar, int64_t, int64_t, Device>::from_host(
      int64_t(offsets.size()) - 1, sizes[1], offsets.data(), cols.data(), vals.data());
  return impl::build_distributed<Scalar, Ordinal, Offset, Device>(comm, rows, col_partition, options, who);
}

/// y = alpha*A*x + beta*y on a distributed matrix: x holds this rank's entries of x
/// (A.num_local_cols(), by A.col_partition()), y this rank's rows (A.num_local_rows()). Rank r
/// posts its receives, packs on the device the entries of x other ranks need and sends them
/// (from host copies unless A.device_pointers_to_mpi()), runs the local block's SpMV (the plain
/// kspmv::spmv on A.local_block, analysed on its first call, or the kernel `options` name) while
/// the messages travel (and, with host staging on a GPU, while they are copied through host
/// memory on a stream of their own), then adds alpha*(ghost block times the received entries) into its ghost
/// rows. Each row's sum is then the local block's plus the ghost block's, so the result may
/// differ from a one-rank product in the last bits (by a relative 1e-12 or so in double; on one
/// rank it is the plain call's exactly, but for a first call, which on a GPU may sum with
/// another kernel while the local block's analysis finishes, as kspmv::spmv's does). A matrix built with DistributedOptions::keep_row_order
/// instead waits for the exchange and runs one SpMV over A.ordered_rows, each row summed in its
/// stored order as a one-rank SpMV with the same options sums it: with Algorithm::csr_scalar,
/// the one-rank result bit for bit. Collective; alpha and beta the same on every rank: alpha == 0
/// scales y by beta without reading A or x and sends nothing, beta == 0 overwrites y (NaN in y
/// never leaks). Like kspmv::spmv it may return before its last kernels on `space` finish (fence
/// before reading y on the host); every message of the exchange has completed. x and y must hold
/// A's Scalar. Throws std::invalid_argument, on the ranks whose x or y have the wrong length,
/// naming the sizes, and as kspmv::spmv does for options that do not apply to CSR. One call at a
/// time on a matrix and its copies (they share the exchange's buffers).
template <class ExecSpace, class Scalar, class Ordinal, class Offset, class Device, class XView, class YView>
std::enable_if_t<Kokkos::is_execution_space<ExecSpace>::value> spmv(
    const ExecSpace& space, typename DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>::value_type alpha,
    const DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>& A, const XView& x,
    typename DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>::value_type beta, const YView& y,
    const SpmvOptions& options = SpmvOptions()) {
  static_assert(Kokkos::is_view<XView>::value && Kokkos::is_view<YView>::value && XView::rank == 1 && YView::rank == 1,
                "kspmv::spmv on a DistributedCsrMatrix: x and y must be rank-1 Kokkos Views");
  static_assert(std::is_same<typename XView::non_const_value_type, Scalar>::value &&
                    std::is_same<typename YView::value_type, Scalar>::value,
                "kspmv::spmv on a DistributedCsrMatrix: x and y must hold the matrix's Scalar (y not const)");
  if (int64_t(x.extent(0)) != int64_t(A.num_local_cols()) || int64_t(y.extent(0)) != int64_t(A.num_local_rows())) {
    throw std::invalid_argument("kspmv::spmv: on MPI rank " + std::to_string(A.rank()) + ", the distributed A has " +
                                std::to_string(A.num_local_rows()) + " rows and " + std::to_string(A.num_local_cols()) +
                                " entries of x here, but x has " + std::to_string(x.extent(0)) + " and y " +
                                std::to_string(y.extent(0)));
  }
  if (alpha == Scalar(0)) {
    spmv(space, alpha, A.local_block, x, beta, y, options);  // scales y, reads neither A nor x
    return;
  }
  impl::HaloRequests halo = impl::start_halo_exchange(space, A, x);
  if (A.keeps_row_order()) {
    impl::finish_halo_receives(space, A, halo);
    const auto& s = A.impl_shared();
    Kokkos::deep_copy(space, Kokkos::subview(s.ordered_x, Kokkos::make_pair(size_t(0), size_t(x.extent(0)))), x);
    spmv(space, alpha, A.ordered_rows, s.ordered_x, beta, y, options);
  } else {
    spmv(space, alpha, A.local_block, x, beta, y, options);
    impl::post_halo_sends(A, halo);  // after the SpMV is queued: the staging copy runs beside it
    impl::finish_halo_receives(space, A, halo);
    impl::add_ghost_block(space, alpha, A, y, options);
  }
  impl::finish_halo_sends(halo);
}

/// y = alpha*A*x + beta*y on a distributed matrix, on a default instance of its execution
/// space; see the overload above.
template <class Scalar, class Ordinal, class Offset, class Device, class XView, class YView>
void spmv(typename DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>::value_type alpha,
          const DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>& A, const XView& x,
          typename DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>::value_type beta, const YView& y,
          const SpmvOptions& options = SpmvOptions()) {
  spmv(typename Device::execution_space(), alpha, A, x, beta, y, options);
}

}  // namespace kspmv
