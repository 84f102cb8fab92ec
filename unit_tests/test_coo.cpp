// kspmv::CooMatrix: the common format suite with both kernels, and the deterministic kernel's
// bits compared across runs on rows that cross many chunks.
#include <kspmv/coo.hpp>

#include "cases.hpp"

#include <cstring>

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Coo : public ::testing::Test {};
TYPED_TEST_SUITE(Coo, Backends, BackendName);

TYPED_TEST(Coo, FormatSuiteBothKernels) {
  run_format_suite<TypeParam, kspmv::CooMatrix>(
      {{kspmv::Algorithm::automatic}, {kspmv::Algorithm::coo_atomic}, {kspmv::Algorithm::coo_deterministic}},
      kspmv::ConvertOptions(), all_real_matrices);
}

TYPED_TEST(Coo, SharesColumnsAndValuesWithCsr) {
  using Device = DeviceOf<TypeParam>;
  const auto csr = kspmv::to_device<double, int, int, Device>(golden_5x5());
  const auto A = kspmv::convert<kspmv::CooMatrix>(csr);
  EXPECT_EQ(A.values.data(), csr.values.data());
  EXPECT_EQ(to_std_vector(A.row_indices), (std::vector<int>{0, 0, 0, 1, 1, 1, 2, 2, 3, 3, 4, 4}));
  EXPECT_EQ(A.bytes(), 12u * (2 * sizeof(int) + sizeof(double)));
}

TYPED_TEST(Coo, DeterministicKernelGivesTheSameBitsEveryRun) {
  using Device = DeviceOf<TypeParam>;
  std::mt19937_64 rng(test_seed());
  // Rows of up to 30,000 entries cross many chunks (16 entries on GPUs, 4096 on hosts).
  const kspmv::HostCsr h = random_csr({300, 5000, 30000, 0.3, 100000}, rng);
  const auto A = kspmv::convert<kspmv::CooMatrix>(kspmv::to_device<double, int, int, Device>(h));
  const auto x_host = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  auto x = to_device_vector<double, Device>(x_host, "x");
  std::vector<double> first;
  for (int run = 0; run < 5; ++run) {
    auto y = to_device_vector<double, Device>(y0, "y");
    kspmv::spmv(1.0, A, x, 0.5, y, {kspmv::Algorithm::coo_deterministic});
    const auto result = to_std_vector(y);
    if (run == 0) {
      first = result;
      EXPECT_TRUE(matches_reference(result, reference_spmv(1.0, h, x_host, 0.5, y0)));
    } else {
      EXPECT_EQ(std::memcmp(first.data(), result.data(), first.size() * sizeof(double)), 0) << "run " << run;
    }
  }
}

TYPED_TEST(Coo, ValidateRejectsUnsortedRows) {
  using Device = DeviceOf<TypeParam>;
  auto rows = to_device_vector<int, Device>({1, 0}, "rows");
  auto cols = to_device_vector<int, Device>({0, 0}, "cols");
  auto vals = to_device_vector<double, Device>({1, 1}, "vals");
  const kspmv::CooMatrix<double, int, int, Device> A(2, 2, rows, cols, vals);
  EXPECT_THROW(A.validate(), std::invalid_argument);
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// The wrapping constructor: 3 triples. Unsorted rows: ValidateRejectsUnsortedRows (validate()'s).
// Default backend.
TEST(CooBadArgument, Constructor) {
  using Coo = kspmv::CooMatrix<double, int, int, DefaultDevice>;
  const auto rows = zeros<int>(3), cols = zeros<int>(3);
  const auto values = zeros<double>(3);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Coo(-1, 4, rows, cols, values); },
                                                 "kspmv::CooMatrix (-1 x 4): negative size"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Coo(4, 4, rows, zeros<int>(2), values); },
                                                 "kspmv::CooMatrix (4 x 4): col_indices has 2 entries, expected 3"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Coo(4, 4, rows, cols, zeros<double>(4)); },
                                                 "kspmv::CooMatrix (4 x 4): values has 4 entries, expected 3"));
}

}  // namespace
}  // namespace kspmv_test
