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
    EXPECT_NE(std::string(e.what()).find("more occupied diagonals than max_diagonals 1024"), std::string::npos) << e.what();
  }
  kspmv::ConvertOptions few;
  few.max_diagonals = 5;
  EXPECT_TRUE(throws_with<std::invalid_argument>(
      [&] { kspmv::convert<kspmv::DiaMatrix>(kspmv::poisson_3d<double, int, int, Device>(4, 4, 4, 7), few); },
      "kspmv::convert<DiaMatrix>: more occupied diagonals than max_diagonals 5"));
  kspmv::ConvertOptions tight;
  tight.max_fill_ratio = 1.0;  // boundary rows leave stored zeros: fill > 1
  try {
    kspmv::convert<kspmv::DiaMatrix>(kspmv::poisson_3d<double, int, int, Device>(4, 4, 4, 7), tight);
    ADD_FAILURE() << "fill limit ignored";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("exceed max_fill_ratio 1"), std::string::npos) << e.what();
  }
}

TYPED_TEST(Dia, CountsTheDiagonalsOfEveryRow) {
  // A tridiagonal matrix of 100,000 rows with one more diagonal in rows 1 and 256 (after their
  // band) and one in row 99,999 (before it): the count skips only what the row above occupies.
  using Device = DeviceOf<TypeParam>;
  const int64_t n = 100000;
  kspmv::HostCsr h;
  h.num_rows = h.num_cols = n;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = std::max<int64_t>(0, i - 1); j <= std::min<int64_t>(n - 1, i + 1); ++j) h.col_indices.push_back(j);
    if (i == 1) h.col_indices.push_back(50000);
    if (i == 256) h.col_indices.push_back(300);
    if (i == n - 1) h.col_indices.insert(h.col_indices.begin() + h.row_offsets.back(), 7);
    h.row_offsets.push_back(int64_t(h.col_indices.size()));
  }
  h.values.assign(h.col_indices.size(), 1.0);
  const auto A = kspmv::to_device<double, int, int, Device>(h);
  EXPECT_EQ(to_std_vector(kspmv::impl::occupied_diagonals(A, 1024)),
            (std::vector<int>{-(int(n) - 1 - 7), -1, 0, 1, 44, 49999}));
  EXPECT_THROW(kspmv::impl::occupied_diagonals(A, 5), std::invalid_argument);
  EXPECT_EQ(kspmv::impl::occupied_diagonals(A, 6).extent(0), 6u);
}

TYPED_TEST(Dia, FillOfSortedUnsortedDuplicatedAndLongRows) {
  // Rows 0-99 hold 150 entries (diagonals 0-149): more than a GPU team of this matrix stages
  // (its average row is 9), so those teams read from global memory; the others are staged.
  // Row 300 repeats a column (summed), row 301 lists its columns descending (looked up), row 302
  // is empty; the values hold no zeros, so every entry must land in its slot.
  std::mt19937_64 rng(test_seed());
  kspmv::HostCsr h;
  h.num_rows = 2000;
  h.num_cols = 2100;
  for (int64_t i = 0; i < h.num_rows; ++i) {
    if (i < 100) {
      for (int64_t j = i; j < i + 150; ++j) h.col_indices.push_back(j);
    } else if (i == 300) {
      h.col_indices.insert(h.col_indices.end(), {299, 300, 300, 301});
    } else if (i == 301) {
      h.col_indices.insert(h.col_indices.end(), {302, 301, 300});
    } else if (i != 302) {
      h.col_indices.insert(h.col_indices.end(), {i - 1, i, i + 1, i + 100});
    }
    h.row_offsets.push_back(int64_t(h.col_indices.size()));
  }
  for (size_t k = 0; k < h.col_indices.size(); ++k) h.values.push_back(0.5 + double(rng() % 1000) / 1000.0);
  const auto x = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::DiaMatrix>(h, 1.5, x, 0.5, y0, {}, unlimited())));
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::convert<kspmv::DiaMatrix>(kspmv::to_device<double, int, int, Device>(h), unlimited());
  EXPECT_EQ(A.num_diagonals(), 151);  // -1 and 0-149 (100 among them)
  const auto values = to_std_vector(A.values);
  const auto offsets = to_std_vector(A.diagonal_offsets);
  const int64_t main = std::find(offsets.begin(), offsets.end(), 0) - offsets.begin();
  EXPECT_DOUBLE_EQ(values[size_t(main * 2000 + 300)], h.values[h.row_offsets[300] + 1] + h.values[h.row_offsets[300] + 2]);
  EXPECT_DOUBLE_EQ(values[size_t(main * 2000 + 301)], h.values[h.row_offsets[301] + 1]);
  for (int64_t d = 0; d < A.num_diagonals(); ++d) EXPECT_EQ(values[size_t(d * 2000 + 302)], 0.0);
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

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// The wrapping constructor: 3 rows, 2 diagonals (6 slots). The conversion's limits:
// RefusesTooManyDiagonalsOrTooMuchFill. Default backend.
TEST(DiaBadArgument, Constructor) {
  using Dia = kspmv::DiaMatrix<double, int, int, DefaultDevice>;
  const auto offsets = zeros<int>(2);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Dia(3, -3, 0, offsets, zeros<double>(6)); },
                                                 "kspmv::DiaMatrix (3 x -3): negative size"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Dia(3, 3, -4, offsets, zeros<double>(6)); },
                                                 "kspmv::DiaMatrix (3 x 3): negative nnz"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Dia(3, 3, 4, offsets, zeros<double>(5)); },
                                                 "kspmv::DiaMatrix (3 x 3): values has 5 entries, expected 6"));
}

}  // namespace
}  // namespace kspmv_test
