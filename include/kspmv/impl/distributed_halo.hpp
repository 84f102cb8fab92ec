#pragma once
// The halo of the distributed SpMV: its exchange (receives posted first, x's owned entries that
// other ranks need packed on the device and sent; later, the receives completed and copied to
// the device where MPI gets host buffers; split so that the local block's SpMV runs while the
// messages travel, and, where the copies through host memory have a stream of their own, while
// they are copied) and the ghost block's product added into y.

#include "../distributed_csr.hpp"
#include "../spmv.hpp"
#include "mpi.hpp"

#include <Kokkos_Core.hpp>

#include <vector>

namespace kspmv {
namespace impl {

constexpr int halo_exchange_tag = 0x5351;

// Receive requests first, then send requests.
struct HaloRequests {
  std::vector<MPI_Request> requests;
  size_t num_receives = 0;
  bool sends_pending = false;  // the packed entries are being copied to the host: post_halo_sends sends them
};

template <class Scalar, class Ordinal, class Offset, class Device>
void post_sends(const DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>& A, HaloRequests& h, const Scalar* from) {
  const auto& s = A.impl_shared();
  for (size_t q = 0; q < A.send_ranks.size(); ++q) {
    h.requests.emplace_back();
    mpi_check(MPI_Isend(from + A.send_offsets[q], int(A.send_offsets[q + 1] - A.send_offsets[q]), s.comm->value_type(),
                        A.send_ranks[q], halo_exchange_tag, A.comm(), &h.requests.back()),
              "MPI_Isend");
  }
}

template <class ExecSpace, class Scalar, class Ordinal, class Offset, class Device, class XView>
HaloRequests start_halo_exchange(const ExecSpace& space, const DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>& A,
                                 const XView& x) {
  auto& s = A.impl_shared();
  const MPI_Comm comm = A.comm();
  HaloRequests h;
  h.requests.reserve(A.recv_ranks.size() + A.send_ranks.size());
  Scalar* receive_into = s.device_pointers_to_mpi ? s.ghost_x.data() : s.recv_host.data();
  // MPI may write the receive buffer as soon as a receive is posted, while the previous call's
  // reads of it (its copy of recv_host to the device, or its ghost SpMV reading ghost_x where MPI
  // writes device memory) may still be queued on `space`: let them finish first.
  if (!A.recv_ranks.empty()) space.fence();
  for (size_t q = 0; q < A.recv_ranks.size(); ++q) {
    h.requests.emplace_back();
    mpi_check(MPI_Irecv(receive_into + A.recv_offsets[q], int(A.recv_offsets[q + 1] - A.recv_offsets[q]),
                        s.comm->value_type(), A.recv_ranks[q], halo_exchange_tag, comm, &h.requests.back()),
              "MPI_Irecv");
  }
  h.num_receives = h.requests.size();
  if (A.send_ranks.empty()) return h;
  const auto send_buffer = s.send_buffer;
  const auto send_indices = A.send_indices;
  Kokkos::parallel_for(
      "kspmv::distributed[pack halo]",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, int64_t(send_buffer.extent(0))),
      KOKKOS_LAMBDA(const int64_t k) { send_buffer(k) = x(send_indices(k)); });
  if (s.device_pointers_to_mpi) {
    space.fence();  // MPI reads the buffer as soon as the send is posted
    post_sends(A, h, send_buffer.data());
  } else if (s.staging_copies) {
    // The copy to the host runs on its own stream, beside what the caller queues next (the local
    // block's SpMV); post_halo_sends waits for it and sends.
    space.fence();
    Kokkos::deep_copy(*s.staging_copies, s.send_host, send_buffer);
    h.sends_pending = true;
  } else {
    Kokkos::deep_copy(space, s.send_host, send_buffer);
    space.fence();
    post_sends(A, h, s.send_host.data());
  }
  return h;
}

// Sends the packed entries whose copy to the host start_halo_exchange left running, if any.
template <class Scalar, class Ordinal, class Offset, class Device>
void post_halo_sends(const DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>& A, HaloRequests& h) {
  if (!h.sends_pending) return;
  const auto& s = A.impl_shared();
  s.staging_copies->fence();
  post_sends(A, h, s.send_host.data());
  h.sends_pending = false;
}

// Sends what is still to be sent, then waits for the ghost entries of x; on return they are in
// ghost_x, or queued on `space` to be copied there (copied already where the staging copies have
// their own stream: on `space` the copy would wait for the local SpMV queued before it).
template <class ExecSpace, class Scalar, class Ordinal, class Offset, class Device>
void finish_halo_receives(const ExecSpace& space, const DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>& A,
                          HaloRequests& h) {
  post_halo_sends(A, h);
  auto& s = A.impl_shared();
  mpi_check(MPI_Waitall(int(h.num_receives), h.requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
  if (s.device_pointers_to_mpi || h.num_receives == 0) return;
  if (s.staging_copies) {
    Kokkos::deep_copy(*s.staging_copies, s.ghost_x, s.recv_host);
    s.staging_copies->fence();
  } else {
    Kokkos::deep_copy(space, s.ghost_x, s.recv_host);
  }
}

// Waits for the sends, so that the next exchange may overwrite their buffers.
inline void finish_halo_sends(HaloRequests& h) {
  const int sends = int(h.requests.size() - h.num_receives);
  mpi_check(MPI_Waitall(sends, h.requests.data() + h.num_receives, MPI_STATUSES_IGNORE), "MPI_Waitall");
}

// y(ghost_rows(i)) += alpha * (ghost_block * ghost_x)(i), after finish_halo_receives.
template <class ExecSpace, class Scalar, class Ordinal, class Offset, class Device, class YView>
void add_ghost_block(const ExecSpace& space, Scalar alpha, const DistributedCsrMatrix<Scalar, Ordinal, Offset, Device>& A,
                     const YView& y, const SpmvOptions& options = SpmvOptions()) {
  if (A.ghost_block.num_rows() == 0) return;
  const auto& s = A.impl_shared();
  spmv(space, alpha, A.ghost_block, s.ghost_x, Scalar(0), s.ghost_product, options);
  const auto product = s.ghost_product;
  const auto rows = A.ghost_rows;
  Kokkos::parallel_for(
      "kspmv::spmv[distributed ghost rows]",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<int64_t>>(space, 0, int64_t(rows.extent(0))),
      KOKKOS_LAMBDA(const int64_t i) { y(rows(i)) += product(i); });
}

}  // namespace impl
}  // namespace kspmv
