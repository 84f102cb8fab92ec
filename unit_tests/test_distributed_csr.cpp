// kspmv::DistributedCsrMatrix as make_distributed_csr builds it (distributed_csr.hpp): the two
// blocks hold each rank's rows exactly, the ghost columns and the communication pattern are
// those the rows call for (checked by an exchange), and bad input throws on every rank. Run
// under mpirun with 1 to 4 ranks (ctest: distributed_np1 ... distributed_np4), every backend.
#include <kspmv/distributed.hpp>

#include "mpi_cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class DistributedCsr : public ::testing::Test {};
TYPED_TEST_SUITE(DistributedCsr, Backends, BackendName);

TEST(DistributedCsrPartition, ContiguousBlocksDifferByAtMostOne) {
  EXPECT_EQ(kspmv::contiguous_partition(10, 4), (std::vector<int64_t>{0, 3, 6, 8, 10}));
  EXPECT_EQ(kspmv::contiguous_partition(2, 4), (std::vector<int64_t>{0, 1, 2, 2, 2}));
  EXPECT_EQ(kspmv::contiguous_partition(0, 3), (std::vector<int64_t>{0, 0, 0, 0}));
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { kspmv::contiguous_partition(5, 0); }, "5 items over 0 parts"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { kspmv::contiguous_partition(-1, 2); }, "-1 items over 2 parts"));
}

// Each rank's rows, rebuilt from its local and ghost blocks, are A's rows with the owned columns
// first (entries in stored order otherwise); ghost rows are exactly the rows with a column owned
// elsewhere; ghost columns are those columns, sorted, once each; an exchange brings each ghost
// entry of x from its owner.
template <class ExecSpace>
void expect_blocks_and_exchange(const kspmv::HostCsr& A, const std::vector<int64_t>& rows,
                                const std::vector<int64_t>& cols) {
  using Device = DeviceOf<ExecSpace>;
  const int rank = world_rank();
  const auto D = kspmv::make_distributed_csr<int, int>(MPI_COMM_WORLD, my_rows<double, Device>(A, rows), cols);
  const std::vector<int64_t> expected_cols = cols.empty() ? (A.num_rows == A.num_cols ? rows
                                                                 : kspmv::contiguous_partition(A.num_cols, world_size()))
                                                          : cols;
  EXPECT_EQ(D.row_partition(), rows);
  EXPECT_EQ(D.col_partition(), expected_cols);
  EXPECT_EQ(D.global_rows(), A.num_rows);
  EXPECT_EQ(D.global_cols(), A.num_cols);
  EXPECT_EQ(D.num_ranks(), world_size());
  EXPECT_EQ(D.rank(), rank);
  const int64_t col_begin = expected_cols[size_t(rank)], col_end = expected_cols[size_t(rank) + 1];
  EXPECT_EQ(D.num_local_cols(), col_end - col_begin);
  D.local_block.validate();
  D.ghost_block.validate();

  const kspmv::HostCsr mine = host_rows(A, rows[size_t(rank)], rows[size_t(rank) + 1]);
  const kspmv::HostCsr expected = owned_first(mine, col_begin, col_end);
  const kspmv::HostCsr rebuilt = reassembled_rows(D);
  EXPECT_EQ(rebuilt.row_offsets, expected.row_offsets);
  EXPECT_EQ(rebuilt.col_indices, expected.col_indices);
  EXPECT_EQ(rebuilt.values, expected.values);

  std::vector<int64_t> ghost_rows, ghost_cols;
  for (int64_t i = 0; i < mine.num_rows; ++i) {
    bool any = false;
    for (int64_t k = mine.row_offsets[size_t(i)]; k < mine.row_offsets[size_t(i) + 1]; ++k) {
      const int64_t c = mine.col_indices[size_t(k)];
      if (c < col_begin || c >= col_end) {
        any = true;
        ghost_cols.push_back(c);
      }
    }
    if (any) ghost_rows.push_back(i);
  }
  std::sort(ghost_cols.begin(), ghost_cols.end());
  ghost_cols.erase(std::unique(ghost_cols.begin(), ghost_cols.end()), ghost_cols.end());
  const auto got_rows = to_std_vector(D.ghost_rows);
  EXPECT_EQ(std::vector<int64_t>(got_rows.begin(), got_rows.end()), ghost_rows);
  EXPECT_EQ(to_std_vector(D.ghost_cols), ghost_cols);
  for (const int q : D.recv_ranks) EXPECT_NE(q, rank);
  for (const int q : D.send_ranks) EXPECT_NE(q, rank);

  // x[c] = c + 0.5 everywhere: after an exchange, ghost_x[j] must be ghost_cols[j] + 0.5.
  Kokkos::View<double*, Device> x("x", size_t(col_end - col_begin));
  Kokkos::parallel_for(
      "fill x", Kokkos::RangePolicy<ExecSpace>(0, x.extent(0)),
      KOKKOS_LAMBDA(const int i) { x(i) = double(col_begin + i) + 0.5; });
  auto halo = kspmv::impl::start_halo_exchange(ExecSpace(), D, x);
  kspmv::impl::finish_halo_receives(ExecSpace(), D, halo);
  kspmv::impl::finish_halo_sends(halo);
  ExecSpace().fence();
  const auto ghost_x = to_std_vector(D.impl_shared().ghost_x);
  ASSERT_EQ(ghost_x.size(), ghost_cols.size());
  for (size_t j = 0; j < ghost_cols.size(); ++j) EXPECT_EQ(ghost_x[j], double(ghost_cols[j]) + 0.5) << "ghost " << j;
}

TYPED_TEST(DistributedCsr, BlocksHoldTheRowsAndTheExchangeBringsTheGhosts) {
  const uint64_t seed = shared_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (KSPMV_TEST_SEED replays it)");
  std::mt19937_64 rng(seed);
  const int p = world_size();
  // Rectangular, with empty rows and one row reaching every column twice over.
  RandomShape shape;
  shape.rows = 37 * p + 3;
  shape.cols = 53;
  shape.max_row_length = 12;
  shape.long_row_length = 2 * shape.cols;
  const kspmv::HostCsr A = random_csr(shape, rng);
  expect_blocks_and_exchange<TypeParam>(A, kspmv::contiguous_partition(A.num_rows, p), {});
  expect_blocks_and_exchange<TypeParam>(A, random_partition(A.num_rows, rng), random_partition(A.num_cols, rng));
  // Square: x split like the rows by default.
  shape.cols = shape.rows;
  const kspmv::HostCsr S = random_csr(shape, rng);
  expect_blocks_and_exchange<TypeParam>(S, random_partition(S.num_rows, rng), {});
  // No rows, no columns.
  shape.rows = 0;
  shape.cols = 7;
  expect_blocks_and_exchange<TypeParam>(random_csr(shape, rng), kspmv::contiguous_partition(0, p), {});
  shape.rows = 9;
  shape.cols = 0;
  expect_blocks_and_exchange<TypeParam>(random_csr(shape, rng), kspmv::contiguous_partition(9, p), {});
}

// Bad input found on one rank throws on every rank: the rank that found it names the problem,
// the others add which rank it was.
TYPED_TEST(DistributedCsr, BadInputThrowsOnEveryRank) {
  using Device = DeviceOf<TypeParam>;
  const int p = world_size(), rank = world_rank(), last = p - 1;
  RandomShape shape;
  shape.rows = 5 * p;
  shape.cols = 11;
  std::mt19937_64 rng(shared_seed());
  kspmv::HostCsr A = random_csr(shape, rng);
  const auto rows = kspmv::contiguous_partition(A.num_rows, p);
  const std::string on_last = rank == last ? "" : " (on MPI rank " + std::to_string(last) + ")";

  // A column outside A on the last rank alone: its rows replaced by one entry in column 11.
  const auto good = kspmv::to_device<double, int64_t, int64_t, Device>(host_rows(A, rows[size_t(rank)], rows[size_t(rank) + 1]));
  const int64_t my_count = good.num_rows();
  auto with_bad_column = good;
  auto broken = good;
  if (rank == last) {
    std::vector<int64_t> offsets(size_t(my_count) + 1, 0);
    offsets.back() = 1;
    with_bad_column = kspmv::CsrMatrix<double, int64_t, int64_t, Device>(
        my_count, 11, to_device_vector<int64_t, Device>(std::vector<double>(offsets.begin(), offsets.end()), "offsets"),
        to_device_vector<int64_t, Device>({11.0}, "indices"), to_device_vector<double, Device>({1.0}, "values"));
    // Row offsets that decrease (a CsrMatrix wrapping Views checks only their extents).
    Kokkos::View<int64_t*, Device> decreasing("offsets", good.row_offsets.extent(0));
    Kokkos::deep_copy(decreasing, good.row_offsets);
    Kokkos::deep_copy(Kokkos::subview(decreasing, 0), int64_t(3));
    broken = kspmv::CsrMatrix<double, int64_t, int64_t, Device>(good.num_rows(), good.num_cols(), decreasing,
                                                                 good.col_indices, good.values);
  }
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::make_distributed_csr(MPI_COMM_WORLD, with_bad_column); },
                                                 "rank " + std::to_string(last) +
                                                     "'s entry 0 has column 11, outside [0, 11)" + on_last));
  int64_t last_nnz = good.nnz();
  MPI_Bcast(&last_nnz, 1, MPI_INT64_T, last, MPI_COMM_WORLD);
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::make_distributed_csr(MPI_COMM_WORLD, broken); },
      "rank " + std::to_string(last) + "'s row offsets are broken at row 0 (they must start at 0, never decrease and end at " +
          std::to_string(last_nnz) + ")" + on_last));

  // Column partitions that are not one.
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::make_distributed_csr(MPI_COMM_WORLD, good, kspmv::contiguous_partition(11, p + 1)); },
      "the column partition has " + std::to_string(p + 2) + " entries; it needs the number of ranks + 1 = " +
          std::to_string(p + 1)));
  std::vector<int64_t> not_from_zero = kspmv::contiguous_partition(11, p);
  not_from_zero[0] = 1;
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::make_distributed_csr(MPI_COMM_WORLD, good, not_from_zero); },
                                                 "the column partition starts at 1, not 0"));
  std::vector<int64_t> decreasing = kspmv::contiguous_partition(11, p);
  decreasing[1] = 12;
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::make_distributed_csr(MPI_COMM_WORLD, good, decreasing); },
      p == 1 ? "the column partition ends at 12, not at 11" : "the column partition decreases at rank 1"));
  if (p == 1) return;
  // Ranks that disagree on the columns or on the column partition.
  auto wider = kspmv::to_device<double, int64_t, int64_t, Device>(host_rows(A, rows[size_t(rank)], rows[size_t(rank) + 1]));
  if (rank == last) {
    kspmv::HostCsr h = host_rows(A, rows[size_t(rank)], rows[size_t(rank) + 1]);
    h.num_cols = 12;
    wider = kspmv::to_device<double, int64_t, int64_t, Device>(h);
  }
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::make_distributed_csr(MPI_COMM_WORLD, wider); },
      "the ranks' matrices disagree on the number of columns (rank 0: 11, rank " + std::to_string(last) + ": 12)"));
  std::vector<int64_t> mine_only = kspmv::contiguous_partition(11, p);
  if (rank == last) mine_only = {0, 11};
  mine_only.resize(size_t(p) + 1, 11);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::make_distributed_csr(MPI_COMM_WORLD, good, mine_only); },
                                                 "the column partition differs from rank 0's"));
}

}  // namespace
}  // namespace kspmv_test
