// kspmv::HybMatrix: the common format suite with the width rule and forced widths (everything in
// COO, nothing in COO), beta applied once, and the width rule itself.
#include <kspmv/hyb.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Hyb : public ::testing::Test {};
TYPED_TEST_SUITE(Hyb, Backends, BackendName);

kspmv::ConvertOptions width(int64_t w) {
  kspmv::ConvertOptions o;
  o.hyb_width = w;
  return o;
}

TYPED_TEST(Hyb, FormatSuiteWidthRuleBothKernels) {
  run_format_suite<TypeParam, kspmv::HybMatrix>({{kspmv::Algorithm::automatic}, {kspmv::Algorithm::coo_deterministic}},
                                                width(-1), all_real_matrices);
}

TYPED_TEST(Hyb, FormatSuiteForcedWidths) {
  // Width 0: every entry in COO, the ELL part only applies beta. Width 2: most rows split.
  run_format_suite<TypeParam, kspmv::HybMatrix>({kspmv::SpmvOptions()}, width(0), {"west0479.mtx"});
  run_format_suite<TypeParam, kspmv::HybMatrix>({kspmv::SpmvOptions()}, width(2), {"rajat01.mtx", "arrow.mtx"});
}

TYPED_TEST(Hyb, LongRowsGoToCoo) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::convert<kspmv::HybMatrix>(kspmv::read_csr<double, int, int, Device>(data_dir() + "/arrow.mtx"));
  // arrow: 46,499 rows of 2 or 3 entries and one row of 46,500.
  EXPECT_LE(A.ell.width(), 3);
  EXPECT_GE(A.coo.nnz(), 46500 - 3);
  EXPECT_LT(A.fill_ratio(), 1.6);
  EXPECT_EQ(A.nnz(), 139498);
  EXPECT_NO_THROW(A.validate());
}

TEST(HybWidthRule, MinimisesStoredBytes) {
  using kspmv::impl::hyb_width_minimizing_bytes;
  // 100 rows of length 4 and one of 1000: width 4 costs 100+1 rows x 4 slots plus 996 in COO.
  std::vector<int64_t> histogram(1001, 0);
  histogram[4] = 100;
  histogram[1000] = 1;
  EXPECT_EQ(hyb_width_minimizing_bytes(histogram, 101, 8, 4), 4);
  // All rows equal: plain ELL.
  EXPECT_EQ(hyb_width_minimizing_bytes({0, 0, 0, 50}, 50, 8, 4), 3);
  // A slot costs 12 bytes in ELL (every row pays it), an entry 16 in COO: with half the rows
  // empty, COO is cheaper (320 < 480 bytes); with none empty, ELL is (240 < 320).
  EXPECT_EQ(hyb_width_minimizing_bytes({10, 0, 10}, 20, 8, 4), 0);
  EXPECT_EQ(hyb_width_minimizing_bytes({0, 0, 10}, 10, 8, 4), 2);
  EXPECT_EQ(hyb_width_minimizing_bytes({}, 0, 8, 4), 0);
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// The constructor from two parts of different shapes. Default backend.
TEST(HybBadArgument, PartsOfDifferentShapes) {
  const kspmv::EllMatrix<double, int, int, DefaultDevice> ell(2, 3, 0, 0, zeros<int>(0), zeros<double>(0), zeros<int>(2));
  const kspmv::CooMatrix<double, int, int, DefaultDevice> coo(2, 4, zeros<int>(0), zeros<int>(0), zeros<double>(0));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::HybMatrix<double, int, int, DefaultDevice>(ell, coo); },
                                                 "kspmv::HybMatrix (2 x 3): ELL and COO shapes differ"));
}

}  // namespace
}  // namespace kspmv_test
