// kspmv::spmv on a DistributedCsrMatrix and the distributed constructions (distributed.hpp):
// the product equals the one-rank product (the plain kspmv::spmv on the whole matrix: bitwise
// on one rank from the second call on, within 1e-12 of each row's magnitude on several and on a
// first call) and the host reference, on
// random matrices with every edge the single-device tests have; Poisson rows built per rank and
// Matrix Market rows read on rank 0 equal the one-rank matrices'. Run under mpirun with 1 to 4
// ranks (ctest: distributed_np1 ... distributed_np4), every backend.
#include <kspmv/distributed.hpp>

#include "mpi_cases.hpp"

#include <cstring>
#include <limits>

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Distributed : public ::testing::Test {};
TYPED_TEST_SUITE(Distributed, Backends, BackendName);

// y = alpha*A*x + beta*y0 on the distributed A (rows and columns by the partitions given)
// against the plain call on the whole A on this rank's device and against the host reference.
template <class ExecSpace>
::testing::AssertionResult check_distributed_spmv(const kspmv::HostCsr& A, const std::vector<int64_t>& rows,
                                                  const std::vector<int64_t>& cols, double alpha, double beta,
                                                  bool nan_in_y, std::mt19937_64& rng) {
  using Device = DeviceOf<ExecSpace>;
  const int rank = world_rank();
  const auto D = kspmv::make_distributed_csr<int, int>(MPI_COMM_WORLD, my_rows<double, Device>(A, rows), cols);
  const auto x = random_vector(size_t(A.num_cols), rng);
  auto y0 = random_vector(size_t(A.num_rows), rng);
  if (nan_in_y) std::fill(y0.begin(), y0.end(), std::numeric_limits<double>::quiet_NaN());

  // One rank's product: the plain call on the whole matrix (a second call: the first may sum
  // in another order while the analysis finishes; see kspmv::spmv).
  const auto whole = kspmv::to_device<double, int, int, Device>(A);
  const auto x_whole = to_device_vector<double, Device>(x, "x");
  auto y_whole = to_device_vector<double, Device>(y0, "y");
  kspmv::spmv(ExecSpace(), alpha, whole, x_whole, beta, y_whole);
  y_whole = to_device_vector<double, Device>(y0, "y");
  kspmv::spmv(ExecSpace(), alpha, whole, x_whole, beta, y_whole);
  const auto one_rank = to_std_vector(y_whole);

  const int64_t row_begin = rows[size_t(rank)], row_end = rows[size_t(rank) + 1];
  const int64_t col_begin = D.first_col(), col_end = col_begin + D.num_local_cols();
  const auto x_mine = to_device_vector<double, Device>(std::vector<double>(x.begin() + col_begin, x.begin() + col_end), "x");
  const std::vector<double> y0_mine(y0.begin() + row_begin, y0.begin() + row_end);
  std::vector<double> y;
  for (int call = 0; call < 2; ++call) {  // the first call analyses the blocks; both must be right
    auto y_mine = to_device_vector<double, Device>(y0_mine, "y");
    kspmv::spmv(ExecSpace(), alpha, D, x_mine, beta, y_mine);
    ExecSpace().fence();
    y = to_std_vector(y_mine);
    const Reference full = reference_spmv(alpha, A, x, beta, y0);
    Reference r;
    r.y.assign(full.y.begin() + row_begin, full.y.begin() + row_end);
    r.magnitude.assign(full.magnitude.begin() + row_begin, full.magnitude.begin() + row_end);
    r.row_length.assign(full.row_length.begin() + row_begin, full.row_length.begin() + row_end);
    auto against_reference = matches_reference(y, r);
    if (!against_reference) return against_reference << "\n  (call " << call << ")";
    for (size_t i = 0; i < y.size(); ++i) {
      const double expected = one_rank[size_t(row_begin) + i];
      const bool same_bits = std::memcmp(&y[i], &expected, sizeof(double)) == 0;
      // On a GPU the plain call's first call on a new matrix may sum with another kernel while
      // its analysis finishes (see kspmv::spmv): bitwise from the second call on.
      const bool bitwise = world_size() == 1 && call > 0;
      if (bitwise ? !same_bits : !(std::abs(y[i] - expected) <= 1e-12 * r.magnitude[i])) {
        return ::testing::AssertionFailure() << "call " << call << ": y[" << row_begin + i << "] = " << y[i]
                                             << ", the one-rank product " << expected << " (magnitude "
                                             << r.magnitude[i] << ", " << world_size() << " ranks)";
      }
    }
  }
  return ::testing::AssertionSuccess();
}

TYPED_TEST(Distributed, SpmvEqualsTheOneRankProduct) {
  const uint64_t seed = shared_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (KSPMV_TEST_SEED replays it)");
  std::mt19937_64 rng(seed);
  const int p = world_size();
  struct Case {
    int64_t rows, cols, max_row_length, long_row_length;
    double alpha, beta;
    bool nan_in_y;
  };
  const Case cases[] = {
      {300, 300, 12, 0, 1.5, -0.5, false},   // square, x split like the rows
      {211, 97, 9, 0, -1.0, 1.0, false},     // rectangular, more rows
      {64, 310, 20, 0, 2.0, 0.0, true},      // rectangular, more columns; beta = 0 with NaN in y
      {150, 150, 6, 2000, 1.0, 0.25, false}, // one row of 2000 entries (columns repeat: summed)
      {120, 80, 8, 0, 0.0, -2.0, false},     // alpha = 0 scales y
      {120, 80, 8, 0, 0.0, 0.0, true},       // alpha = beta = 0 zeroes y, NaN included
      {0, 40, 5, 0, 1.0, 1.0, false},        // no rows
      {40, 0, 5, 0, 1.0, 3.0, false},        // no columns: y = beta*y
  };
  for (const Case& c : cases) {
    RandomShape shape;
    shape.rows = c.rows;
    shape.cols = c.cols;
    shape.max_row_length = c.max_row_length;
    shape.long_row_length = c.long_row_length;
    shape.empty_row_fraction = 0.15;
    const kspmv::HostCsr A = random_csr(shape, rng);
    SCOPED_TRACE("A " + std::to_string(c.rows) + " x " + std::to_string(c.cols) + ", alpha " + std::to_string(c.alpha) +
                 ", beta " + std::to_string(c.beta));
    EXPECT_TRUE(check_distributed_spmv<TypeParam>(A, kspmv::contiguous_partition(c.rows, p), {}, c.alpha, c.beta,
                                                  c.nan_in_y, rng));
    const auto rows = random_partition(c.rows, rng);
    const auto cols = random_partition(c.cols, rng);
    EXPECT_TRUE(check_distributed_spmv<TypeParam>(A, rows, cols, c.alpha, c.beta, c.nan_in_y, rng));
  }
}

// With keep_row_order, every rank's rows are summed in their stored order in one pass: with
// csr_scalar the product is the one-rank csr_scalar product bit for bit, on every rank count and
// partition; ordered_rows holds the rows exactly, columns into [owned x | ghost x].
TYPED_TEST(Distributed, KeepRowOrderGivesTheOneRankBits) {
  using Device = DeviceOf<TypeParam>;
  const uint64_t seed = shared_seed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (KSPMV_TEST_SEED replays it)");
  std::mt19937_64 rng(seed);
  const int rank = world_rank(), p = world_size();
  kspmv::DistributedOptions keep;
  keep.keep_row_order = true;
  kspmv::SpmvOptions scalar;
  scalar.algorithm = kspmv::Algorithm::csr_scalar;
  struct Case {
    int64_t rows, cols, long_row_length;
    double alpha, beta;
    bool nan_in_y;
  };
  const Case cases[] = {{300, 300, 0, 1.5, -0.5, false}, {64, 310, 0, 2.0, 0.0, true}, {150, 150, 3000, 1.0, 0.25, false},
                        {211, 97, 0, -1.0, 1.0, false},  {0, 40, 0, 1.0, 1.0, false},  {40, 0, 0, 1.0, 3.0, false}};
  for (const Case& c : cases) {
    RandomShape shape;
    shape.rows = c.rows;
    shape.cols = c.cols;
    shape.max_row_length = 14;
    shape.long_row_length = c.long_row_length;
    shape.empty_row_fraction = 0.15;
    const kspmv::HostCsr A = random_csr(shape, rng);
    for (int partition = 0; partition < 2; ++partition) {
      const auto rows = partition == 0 ? kspmv::contiguous_partition(c.rows, p) : random_partition(c.rows, rng);
      const auto cols = partition == 0 ? std::vector<int64_t>() : random_partition(c.cols, rng);
      SCOPED_TRACE("A " + std::to_string(c.rows) + " x " + std::to_string(c.cols) + ", partition " +
                   std::to_string(partition));
      const auto D = kspmv::make_distributed_csr<int, int>(MPI_COMM_WORLD, my_rows<double, Device>(A, rows), cols, keep);
      ASSERT_TRUE(D.keeps_row_order());
      // ordered_rows: this rank's rows, entry for entry.
      const kspmv::HostCsr ordered = kspmv::to_host(D.ordered_rows);
      const kspmv::HostCsr mine = host_rows(A, rows[size_t(rank)], rows[size_t(rank) + 1]);
      const auto ghost_cols = to_std_vector(D.ghost_cols);
      std::vector<int64_t> global;
      for (const int64_t col : ordered.col_indices) {
        global.push_back(col < D.num_local_cols() ? D.first_col() + col : ghost_cols[size_t(col - D.num_local_cols())]);
      }
      EXPECT_EQ(ordered.num_cols, D.num_local_cols() + D.num_ghost_cols());
      EXPECT_EQ(ordered.row_offsets, mine.row_offsets);
      EXPECT_EQ(global, mine.col_indices);
      EXPECT_EQ(ordered.values, mine.values);

      const auto x = random_vector(size_t(A.num_cols), rng);
      auto y0 = random_vector(size_t(A.num_rows), rng);
      if (c.nan_in_y) std::fill(y0.begin(), y0.end(), std::numeric_limits<double>::quiet_NaN());
      const auto whole = kspmv::to_device<double, int, int, Device>(A);
      auto y_whole = to_device_vector<double, Device>(y0, "y");
      kspmv::spmv(TypeParam(), c.alpha, whole, to_device_vector<double, Device>(x, "x"), c.beta, y_whole, scalar);
      const auto one_rank = to_std_vector(y_whole);
      const int64_t col_begin = D.first_col(), row_begin = rows[size_t(rank)];
      const auto x_mine = to_device_vector<double, Device>(
          std::vector<double>(x.begin() + col_begin, x.begin() + col_begin + D.num_local_cols()), "x");
      for (int call = 0; call < 2; ++call) {
        auto y = to_device_vector<double, Device>(
            std::vector<double>(y0.begin() + row_begin, y0.begin() + row_begin + D.num_local_rows()), "y");
        kspmv::spmv(TypeParam(), c.alpha, D, x_mine, c.beta, y, scalar);
        TypeParam().fence();
        const auto got = to_std_vector(y);
        for (size_t i = 0; i < got.size(); ++i) {
          const double expected = one_rank[size_t(row_begin) + i];
          ASSERT_EQ(std::memcmp(&got[i], &expected, sizeof(double)), 0)
              << "call " << call << ": y[" << row_begin + int64_t(i) << "] = " << got[i] << ", the one-rank csr_scalar "
              << expected << " (" << p << " ranks)";
        }
      }
    }
  }
}

template <class ExecSpace, class View>
void double_values(const View& values) {
  Kokkos::parallel_for(
      "double values", Kokkos::RangePolicy<ExecSpace>(0, values.extent(0)), KOKKOS_LAMBDA(const int k) { values(k) *= 2; });
}

// The exchange's pattern is kept: repeated calls give the same bits, and new values (same
// structure) give the new product.
TYPED_TEST(Distributed, RepeatedCallsAndNewValues) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(shared_seed());
  RandomShape shape;
  shape.rows = shape.cols = 50 * world_size() + 7;
  shape.max_row_length = 15;
  const kspmv::HostCsr A = random_csr(shape, rng);
  const auto D = kspmv::make_distributed_csr(MPI_COMM_WORLD, my_rows<double, Device>(A, kspmv::contiguous_partition(A.num_rows, world_size())));
  const auto x = to_device_vector<double, Device>(random_vector(size_t(D.num_local_cols()), rng), "x");
  Kokkos::View<double*, Device> y("y", size_t(D.num_local_rows()));
  std::vector<double> first;
  for (int call = 0; call < 4; ++call) {
    kspmv::spmv(1.0, D, x, 0.0, y);
    TypeParam().fence();
    if (call == 1) first = to_std_vector(y);
    if (call > 1) EXPECT_EQ(to_std_vector(y), first) << "call " << call;
  }
  // Doubling every value doubles y exactly.
  double_values<TypeParam>(D.local_block.values);
  double_values<TypeParam>(D.ghost_block.values);
  kspmv::spmv(1.0, D, x, 0.0, y);
  TypeParam().fence();
  const auto doubled = to_std_vector(y);
  for (size_t i = 0; i < first.size(); ++i) EXPECT_EQ(doubled[i], 2 * first[i]) << "row " << i;
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Device::memory_space>::accessible) {
    EXPECT_TRUE(D.device_pointers_to_mpi());
  }
}

TYPED_TEST(Distributed, WrongVectorLengthsThrow) {
  using Device = DeviceOf<TypeParam>;
  const auto D = kspmv::poisson_3d_distributed<double, int, int, Device>(MPI_COMM_WORLD, 3, 3, 3, 7);
  Kokkos::View<double*, Device> x("x", size_t(D.num_local_cols())), y("y", size_t(D.num_local_rows()));
  Kokkos::View<double*, Device> longer("longer", size_t(D.num_local_rows()) + 1);
  const std::string sizes = "the distributed A has " + std::to_string(D.num_local_rows()) + " rows and " +
                            std::to_string(D.num_local_cols()) + " entries of x here, but x has ";
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, D, longer, 0.0, y); },
                                                 sizes + std::to_string(D.num_local_cols() + 1) + " and y " +
                                                     std::to_string(D.num_local_rows())));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, D, x, 0.0, longer); },
                                                 sizes + std::to_string(D.num_local_cols()) + " and y " +
                                                     std::to_string(D.num_local_rows() + 1)));
}

// Each rank's Poisson rows are the one-rank matrix's rows, and the product agrees.
TYPED_TEST(Distributed, PoissonRowsEqualTheOneRankMatrix) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(shared_seed());
  const int rank = world_rank();
  for (const int points : {7, 27}) {
    const int64_t nx = 5, ny = 4, nz = 6;
    const kspmv::HostCsr whole = kspmv::to_host(kspmv::poisson_3d<double, int, int, Device>(5, 4, 6, points));
    for (const auto& rows : {std::vector<int64_t>(), random_partition(nx * ny * nz, rng)}) {
      const auto D = kspmv::poisson_3d_distributed<double, int, int, Device>(MPI_COMM_WORLD, nx, ny, nz, points, rows);
      const auto partition = rows.empty() ? kspmv::contiguous_partition(nx * ny * nz, world_size()) : rows;
      EXPECT_EQ(D.row_partition(), partition);
      EXPECT_EQ(D.col_partition(), partition);
      const kspmv::HostCsr mine = host_rows(whole, partition[size_t(rank)], partition[size_t(rank) + 1]);
      const kspmv::HostCsr expected = owned_first(mine, D.first_col(), D.first_col() + D.num_local_cols());
      const kspmv::HostCsr rebuilt = reassembled_rows(D);
      EXPECT_EQ(rebuilt.row_offsets, expected.row_offsets) << points << " points";
      EXPECT_EQ(rebuilt.col_indices, expected.col_indices) << points << " points";
      EXPECT_EQ(rebuilt.values, expected.values) << points << " points";
      EXPECT_TRUE(check_distributed_spmv<TypeParam>(whole, partition, {}, 1.0, -1.0, false, rng));
    }
  }
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::poisson_3d_distributed<double, int, int, Device>(MPI_COMM_WORLD, 2, 2, 2, 5); },
      "kspmv::poisson_3d_distributed: points must be 7 or 27, not 5"));
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::poisson_3d_distributed<double, int, int, Device>(MPI_COMM_WORLD, 2, 2, 2, 7, {0, 9}); },
      world_size() == 1 ? "the row partition ends at 9, not at 8" : "the row partition has 2 entries"));
  EXPECT_TRUE(throws_with<std::overflow_error>(
      [&] { kspmv::poisson_3d_distributed<double, int, int, Device>(MPI_COMM_WORLD, 1 << 22, 1 << 22, 1 << 22, 7); },
      "grid has 73786976294838206464 rows, more than the int64_t type holds"));
  // One rank's part beyond int: a 2^31-row grid on one rank; checked before anything is built.
  if (world_size() == 1) {
    EXPECT_TRUE(throws_with<std::overflow_error>(
        [&] { kspmv::poisson_3d_distributed<double, int, int, Device>(MPI_COMM_WORLD, 1 << 11, 1 << 10, 1 << 10, 7); },
        "'s 2147483648 rows (at most 15032385536 entries) do not fit in the local blocks' Ordinal and Offset types"));
  }
}

// A Matrix Market file read on rank 0 and distributed: each rank's rows are the file's, the
// product agrees; complex files into complex Scalars; a missing file throws on every rank.
TYPED_TEST(Distributed, MatrixMarketRowsEqualTheFile) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(shared_seed());
  const int rank = world_rank();
  const std::string path = data_dir() + "/west0479.mtx";
  const kspmv::HostCsr file = kspmv::read_matrix_market(path);
  for (const auto& rows : {std::vector<int64_t>(), random_partition(file.num_rows, rng)}) {
    const auto D = kspmv::read_matrix_market_distributed<double, int, int, Device>(MPI_COMM_WORLD, path, rows);
    const auto partition = rows.empty() ? kspmv::contiguous_partition(file.num_rows, world_size()) : rows;
    EXPECT_EQ(D.row_partition(), partition);
    const kspmv::HostCsr mine = host_rows(file, partition[size_t(rank)], partition[size_t(rank) + 1]);
    const kspmv::HostCsr expected = owned_first(mine, D.first_col(), D.first_col() + D.num_local_cols());
    const kspmv::HostCsr rebuilt = reassembled_rows(D);
    EXPECT_EQ(rebuilt.col_indices, expected.col_indices);
    EXPECT_EQ(rebuilt.values, expected.values);
    EXPECT_TRUE(check_distributed_spmv<TypeParam>(file, partition, {}, 1.0, 0.5, false, rng));
  }

  const std::string complex_path = data_dir() + "/young1c.mtx";
  const kspmv::HostCsr complex_file = kspmv::read_matrix_market(complex_path);
  const auto C = kspmv::read_matrix_market_distributed<Kokkos::complex<double>, int, int, Device>(MPI_COMM_WORLD, complex_path);
  const auto partition = kspmv::contiguous_partition(complex_file.num_rows, world_size());
  const kspmv::HostCsr complex_mine = host_rows(complex_file, partition[size_t(rank)], partition[size_t(rank) + 1]);
  const kspmv::HostCsr complex_rebuilt = reassembled_rows(C);
  const kspmv::HostCsr complex_expected = owned_first(complex_mine, C.first_col(), C.first_col() + C.num_local_cols());
  EXPECT_EQ(complex_rebuilt.col_indices, complex_expected.col_indices);
  EXPECT_EQ(complex_rebuilt.values, complex_expected.values);
  EXPECT_EQ(complex_rebuilt.imaginary, complex_expected.imaginary);
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::read_matrix_market_distributed<double, int, int, Device>(MPI_COMM_WORLD, complex_path); },
      "young1c.mtx is complex; read it into Kokkos::complex<double>"));

  const std::string missing = data_dir() + "/no_such_matrix.mtx";
  const std::string on_zero = rank == 0 ? "" : " (on MPI rank 0)";
  EXPECT_TRUE(throws_with<kspmv::MatrixMarketError>(
      [&] { kspmv::read_matrix_market_distributed<double, int, int, Device>(MPI_COMM_WORLD, missing); },
      "no_such_matrix.mtx"));
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::read_matrix_market_distributed<double, int, int, Device>(MPI_COMM_WORLD, path, {0, 1, 2, 3, 4, 5}); },
      "the row partition has 6 entries"));
}

}  // namespace
}  // namespace kspmv_test
