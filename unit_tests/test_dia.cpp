// kspmv::DiaMatrix: stencils and banded matrices, the random suite with the limits lifted, and
// the refusals with the default limits.
#include <kspmv/dia.hpp>
#include <kspmv/generate.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Dia : public ::testing::Test {};
TYPED_TEST_SUITE(Dia, Backends, BackendName);

kspmv::ConvertOptions unlimited() {
  kspmv::ConvertOptions o;
  o.max_fill_ratio = 1e12;
  o.max_diagonals = int64_t(1) << 40;
  return o;
}

TYPED_TEST(Dia, FormatSuite) {
  // DIA cannot keep explicit zeros or duplicates, so the random matrices' round trip is not exact;
  // spmv results are still checked on all of them. Real matrices: the ones of moderate size.
  run_format_suite<TypeParam, kspmv::DiaMatrix>({kspmv::SpmvOptions()}, unlimited(),
                                                {"lap3D_7pt_n20.mtx", "west0479.mtx", "bcsstk13.mtx", "mbeacxc.mtx"},
                                                /*exact_round_trip=*/false);
}

TYPED_TEST(Dia, StencilStoresOneDiagonalPerNeighbour) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::convert<kspmv::DiaMatrix>(kspmv::poisson_3d<double, int, int, Device>(6, 5, 4, 7));
  EXPECT_EQ(to_std_vector(A.diagonal_offsets), (std::vector<int>{-30, -6, -1, 0, 1, 6, 30}));
  EXPECT_LT(A.fill_ratio(), 1.3);
  EXPECT_EQ(A.bytes(), 7u * 120 * sizeof(double) + 7 * sizeof(int));
  const auto A27 = kspmv::convert<kspmv::DiaMatrix>(kspmv::poisson_3d<double, int, int, Device>(6, 5, 4, 27));
  EXPECT_EQ(A27.num_diagonals(), 27);
  EXPECT_NO_THROW(A27.validate());
}

TYPED_TEST(Dia, RefusesTooManyDiagonalsOrTooMuchFill) {
  using Device = DeviceOf<TypeParam>;
  const auto wiki = kspmv::read_csr<double, int, int, Device>(data_dir() + "/wiki-Vote.mtx");
  try {
    kspmv::convert<kspmv::DiaMatrix>(wiki);
    ADD_FAILURE() << "wiki-Vote converted to DIA";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("occupied diagonals exceed max_diagonals 1024"), std::string::npos) << e.what();
  }
  kspmv::ConvertOptions few;
  few.max_diagonals = 5;
  EXPECT_THROW(kspmv::convert<kspmv::DiaMatrix>(kspmv::poisson_3d<double, int, int, Device>(4, 4, 4, 7), few),
               std::invalid_argument);
  kspmv::ConvertOptions tight;
  tight.max_fill_ratio = 1.0;  // boundary rows leave stored zeros: fill > 1
  try {
    kspmv::convert<kspmv::DiaMatrix>(kspmv::poisson_3d<double, int, int, Device>(4, 4, 4, 7), tight);
    ADD_FAILURE() << "fill limit ignored";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("exceed max_fill_ratio 1"), std::string::npos) << e.what();
  }
}

TYPED_TEST(Dia, RectangularBanded) {
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr h;  // 50 x 70, entries on columns i-2 .. i+19 where they exist
  h.num_rows = 50;
  h.num_cols = 70;
  h.row_offsets = {0};
  for (int i = 0; i < 50; ++i) {
    for (int j = std::max(0, i - 2); j < std::min(70, i + 20); ++j) {
      h.col_indices.push_back(j);
      h.values.push_back(0.5 + double(rng() % 1000) / 1000.0);
    }
    h.row_offsets.push_back(int64_t(h.col_indices.size()));
  }
  const auto x = random_vector(70, rng);
  const auto y0 = random_vector(50, rng);
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::DiaMatrix>(h, 2.0, x, -1.0, y0, {})));
  EXPECT_TRUE((check_round_trip<TypeParam, kspmv::DiaMatrix>(h)));
}

}  // namespace
}  // namespace kspmv_test
