// kspmv::BalancedCsrMatrix: the common suite, rows spilling over many blocks, rows long enough
// for the team-wide path, and the same bits on every run.
#include <kspmv/csr_balanced.hpp>

#include "cases.hpp"

#include <algorithm>
#include <cstring>

namespace kspmv_test {
namespace {

template <class ExecSpace>
class CsrBalanced : public ::testing::Test {};
TYPED_TEST_SUITE(CsrBalanced, Backends, BackendName);

// Automatic runs the raw kernel where one exists (GPU builds); csr_balanced is always the Kokkos one.
TYPED_TEST(CsrBalanced, FormatSuite) {
  run_format_suite<TypeParam, kspmv::BalancedCsrMatrix>({kspmv::SpmvOptions(), {kspmv::Algorithm::csr_balanced}},
                                                        kspmv::ConvertOptions(), all_real_matrices);
}

TYPED_TEST(CsrBalanced, AlgorithmOptionOnCsr) {
  run_format_suite<TypeParam, kspmv::CsrMatrix>({{kspmv::Algorithm::csr_balanced}}, kspmv::ConvertOptions(),
                                                {"arrow.mtx", "rajat01.mtx"});
}

TYPED_TEST(CsrBalanced, LongAndSpillingRowsSameBitsEveryRun) {
  using Device = DeviceOf<TypeParam>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  // Short rows, empty rows, rows of up to 600 entries (team-wide on GPUs) and one of 50,000
  // (spilling over many blocks on every backend).
  for (const RandomShape shape : {RandomShape{3000, 4000, 600, 0.2, 50000}, RandomShape{20000, 500, 6, 0.3, 0}}) {
    const kspmv::HostCsr h = random_csr(shape, rng);
    const auto A = kspmv::convert<kspmv::BalancedCsrMatrix>(kspmv::to_device<double, int, int, Device>(h));
    EXPECT_NO_THROW(A.validate());
    expect_same_bits_every_run<TypeParam>(A, h, rng, {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_balanced});
  }
}

TYPED_TEST(CsrBalanced, PartitionSharesTheCsr) {
  using Device = DeviceOf<TypeParam>;
  const auto csr = kspmv::read_csr<double, int, int, Device>(data_dir() + "/arrow.mtx");
  const auto A = kspmv::convert<kspmv::BalancedCsrMatrix>(csr);
  EXPECT_EQ(A.csr.values.data(), csr.values.data());
  EXPECT_EQ(A.num_blocks(), (139498 + A.entries_per_block() - 1) / A.entries_per_block());
  // The full row of 46,500 spans blocks: some own no row at all.
  const auto first = to_std_vector(A.block_first_row);
  EXPECT_NE(std::adjacent_find(first.begin(), first.end()), first.end());
  EXPECT_LT(A.bytes(), csr.nnz() * sizeof(double) / 50);
  // A partition given by the caller (a copy of this one) gets its own zeroed workspace, and a
  // copy of the matrix shares the storage the original's Views point into.
  Kokkos::View<int*, Device> rows("rows", A.block_first_row.extent(0));
  Kokkos::deep_copy(rows, A.block_first_row);
  const kspmv::BalancedCsrMatrix<double, int, int, Device> given(csr, A.entries_per_block(), A.lanes(), rows);
  EXPECT_EQ(given.block_first_row.data(), rows.data());
  EXPECT_NE(given.partial_sums.data(), A.partial_sums.data());
  EXPECT_EQ(to_std_vector(given.arrivals), std::vector<int>(size_t(A.num_blocks()), 0));
  EXPECT_EQ(to_std_vector(A.arrivals), std::vector<int>(size_t(A.num_blocks()), 0));
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = kspmv::read_matrix_market(data_dir() + "/arrow.mtx");
  const auto x_host = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  auto x = to_device_vector<double, Device>(x_host, "x");
  for (const auto* M : {&A, &given}) {
    const auto copy = *M;
    auto y = to_device_vector<double, Device>(y0, "y");
    kspmv::spmv(1.5, copy, x, 0.5, y);
    EXPECT_TRUE(matches_reference(to_std_vector(y), reference_spmv(1.5, h, x_host, 0.5, y0)));
  }
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// The constructor taking a partition: golden_5x5's 12 entries in blocks of 4 (3 blocks, 4 first
// rows). Default backend.
TEST(CsrBalancedBadArgument, Constructor) {
  using Balanced = kspmv::BalancedCsrMatrix<double, int, int, DefaultDevice>;
  const auto A = kspmv::to_device<double, int, int, DefaultDevice>(golden_5x5());
  const auto first_rows = zeros<int>(4);
  const auto refuses = [](const std::function<void()>& make, const std::string& needle) {
    return throws_with<std::invalid_argument>(make, "kspmv::BalancedCsrMatrix (5 x 5): " + needle);
  };
  EXPECT_TRUE(refuses([&] { Balanced(A, 0, 1, first_rows); }, "entries_per_block = 0 must be positive"));
  EXPECT_TRUE(refuses([&] { Balanced(A, 4, 3, first_rows); }, "lanes = 3 must be a power of two"));
  EXPECT_TRUE(refuses([&] { Balanced(A, 4, 0, first_rows); }, "lanes = 0 must be a power of two"));
  EXPECT_TRUE(refuses([&] { Balanced(A, 4, 1, zeros<int>(3)); }, "block_first_row has 3 entries, expected 4"));
}

}  // namespace
}  // namespace kspmv_test
