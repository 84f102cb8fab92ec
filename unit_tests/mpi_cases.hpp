#pragma once
// What the distributed tests share: the world's rank and size, a seed the same on every rank,
// partitions with empty parts, and a rank's rows of a host matrix as the CsrMatrix (global
// column numbers) that make_distributed_csr takes.
#include <kspmv/distributed.hpp>

#include <mpi.h>

#include "backends.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

namespace kspmv_test {

inline int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

inline int world_size() {
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

// test_seed() of rank 0, on every rank: every rank draws the same random matrices.
inline uint64_t shared_seed() {
  uint64_t seed = test_seed();
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return seed;
}

// A random partition of n over the world's ranks (the same on every rank for the same rng
// state), with rank 1's part empty where there are two ranks or more.
inline std::vector<int64_t> random_partition(int64_t n, std::mt19937_64& rng) {
  const int p = world_size();
  std::vector<int64_t> cuts(size_t(p) + 1, 0);
  std::uniform_int_distribution<int64_t> at(0, n);
  for (int r = 1; r < p; ++r) cuts[size_t(r)] = at(rng);
  cuts[size_t(p)] = n;
  std::sort(cuts.begin(), cuts.end());
  if (p >= 2) cuts[1] = cuts[2];
  return cuts;
}

// Rows [begin, end) of A as a host CSR of (end - begin) x A.num_cols.
inline kspmv::HostCsr host_rows(const kspmv::HostCsr& A, int64_t begin, int64_t end) {
  kspmv::HostCsr h;
  h.num_rows = end - begin;
  h.num_cols = A.num_cols;
  const int64_t first = A.row_offsets[size_t(begin)], last = A.row_offsets[size_t(end)];
  h.row_offsets.clear();
  for (int64_t i = begin; i <= end; ++i) h.row_offsets.push_back(A.row_offsets[size_t(i)] - first);
  h.col_indices.assign(A.col_indices.begin() + first, A.col_indices.begin() + last);
  h.values.assign(A.values.begin() + first, A.values.begin() + last);
  if (!A.imaginary.empty()) h.imaginary.assign(A.imaginary.begin() + first, A.imaginary.begin() + last);
  h.complex_field = A.complex_field;
  return h;
}

// This rank's rows of A under `partition`, on Device, global columns.
template <class Scalar, class Device>
kspmv::CsrMatrix<Scalar, int64_t, int64_t, Device> my_rows(const kspmv::HostCsr& A, const std::vector<int64_t>& partition) {
  const int r = world_rank();
  return kspmv::to_device<Scalar, int64_t, int64_t, Device>(host_rows(A, partition[size_t(r)], partition[size_t(r) + 1]));
}

// The rows of a distributed matrix put back together on the host: each local row's entries of
// both blocks, with global columns, local ones first then ghost ones (each in stored order).
template <class Matrix>
kspmv::HostCsr reassembled_rows(const Matrix& A) {
  const kspmv::HostCsr local = kspmv::to_host(A.local_block), ghost = kspmv::to_host(A.ghost_block);
  const auto ghost_rows = to_std_vector(A.ghost_rows);
  const auto ghost_cols = to_std_vector(A.ghost_cols);
  kspmv::HostCsr h;
  h.num_rows = local.num_rows;
  h.num_cols = A.global_cols();
  h.complex_field = local.complex_field;
  size_t g = 0;
  for (int64_t i = 0; i < local.num_rows; ++i) {
    for (int64_t k = local.row_offsets[size_t(i)]; k < local.row_offsets[size_t(i) + 1]; ++k) {
      h.col_indices.push_back(local.col_indices[size_t(k)] + A.first_col());
      h.values.push_back(local.values[size_t(k)]);
      if (local.complex_field) h.imaginary.push_back(local.imaginary[size_t(k)]);
    }
    if (g < ghost_rows.size() && ghost_rows[g] == i) {
      for (int64_t k = ghost.row_offsets[g]; k < ghost.row_offsets[g + 1]; ++k) {
        h.col_indices.push_back(ghost_cols[size_t(ghost.col_indices[size_t(k)])]);
        h.values.push_back(ghost.values[size_t(k)]);
        if (ghost.complex_field) h.imaginary.push_back(ghost.imaginary[size_t(k)]);
      }
      ++g;
    }
    h.row_offsets.push_back(int64_t(h.col_indices.size()));
  }
  return h;
}

// A's rows with each row's entries reordered as reassembled_rows orders them: the entries whose
// column lies in [col_begin, col_end) first, then the others, each group in stored order.
inline kspmv::HostCsr owned_first(const kspmv::HostCsr& A, int64_t col_begin, int64_t col_end) {
  kspmv::HostCsr h = A;
  h.col_indices.clear();
  h.values.clear();
  h.imaginary.clear();
  for (int64_t i = 0; i < A.num_rows; ++i) {
    for (int pass = 0; pass < 2; ++pass) {
      for (int64_t k = A.row_offsets[size_t(i)]; k < A.row_offsets[size_t(i) + 1]; ++k) {
        const int64_t c = A.col_indices[size_t(k)];
        const bool owned = c >= col_begin && c < col_end;
        if (owned != (pass == 0)) continue;
        h.col_indices.push_back(c);
        h.values.push_back(A.values[size_t(k)]);
        if (!A.imaginary.empty()) h.imaginary.push_back(A.imaginary[size_t(k)]);
      }
    }
  }
  return h;
}

}  // namespace kspmv_test
