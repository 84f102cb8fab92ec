// kspmv::EllMatrix: the common format suite, the column-major padded layout, and the fill limit.
#include <kspmv/ell.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Ell : public ::testing::Test {};
TYPED_TEST_SUITE(Ell, Backends, BackendName);

kspmv::ConvertOptions unlimited() {
  kspmv::ConvertOptions o;
  o.max_fill_ratio = 1e12;  // the random cases include rows far longer than the rest
  return o;
}

TYPED_TEST(Ell, FormatSuite) {
  // arrow's full row would pad all 46,500 rows to 46,500 slots (2 billion).
  std::vector<const char*> real;
  for (const char* name : all_real_matrices)
    if (std::string(name) != "arrow.mtx") real.push_back(name);
  run_format_suite<TypeParam, kspmv::EllMatrix>({kspmv::SpmvOptions()}, unlimited(), real);
}

TYPED_TEST(Ell, ColumnMajorLayoutWithRepeatedLastColumnPadding) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::convert<kspmv::EllMatrix>(kspmv::to_device<double, int, int, Device>(four_rows_with_empty_row()));
  EXPECT_EQ(A.width(), 3);
  EXPECT_EQ(A.stored_entries(), 12u);
  EXPECT_DOUBLE_EQ(A.fill_ratio(), 2.0);
  EXPECT_EQ(A.bytes(), 12u * (sizeof(int) + sizeof(double)) + 4 * sizeof(int));
  // Rows: {0:1, 2:2}, {}, {1:3}, {0:-1, 1:1, 2:1}; slot k of row i at k*4 + i.
  EXPECT_EQ(to_std_vector(A.col_indices), (std::vector<int>{0, 0, 1, 0, 2, 0, 1, 1, 2, 0, 1, 2}));
  EXPECT_EQ(to_std_vector(A.values), (std::vector<double>{1, 0, 3, -1, 2, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(to_std_vector(A.row_lengths), (std::vector<int>{2, 0, 1, 3}));
}

TYPED_TEST(Ell, RefusesPaddingBeyondTheFillLimit) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::read_csr<double, int, int, Device>(data_dir() + "/arrow.mtx");
  try {
    kspmv::convert<kspmv::EllMatrix>(A);
    ADD_FAILURE() << "arrow converted to ELL with the default fill limit";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("kspmv::convert<EllMatrix>"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("exceed max_fill_ratio"), std::string::npos) << e.what();
  }
}

TYPED_TEST(Ell, RejectsCsrAlgorithms) {
  expect_csr_algorithm_and_wrong_x_refused<TypeParam, kspmv::EllMatrix>();
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// The wrapping constructor: one assertion per argument that can be out of range, on a 2 x 3 matrix
// of width 3 (6 slots). The conversion's limits: RefusesPaddingBeyondTheFillLimit. Default backend.
TEST(EllBadArgument, Constructor) {
  using Ell = kspmv::EllMatrix<double, int, int, DefaultDevice>;
  const auto refuses = [](const std::function<void()>& make, const std::string& needle) {
    return throws_with<std::invalid_argument>(make, "kspmv::EllMatrix (" + needle);
  };
  const auto i6 = zeros<int>(6), i5 = zeros<int>(5), lengths = zeros<int>(2);
  const auto v6 = zeros<double>(6), v5 = zeros<double>(5);
  EXPECT_TRUE(refuses([&] { Ell(-2, 3, 3, 0, i6, v6, lengths); }, "-2 x 3): negative size"));
  EXPECT_TRUE(refuses([&] { Ell(2, 3, 3, -1, i6, v6, lengths); }, "2 x 3): negative nnz"));
  EXPECT_TRUE(refuses([&] { Ell(2, 3, -3, 0, i6, v6, lengths); }, "2 x 3): negative width"));
  EXPECT_TRUE(refuses([&] { Ell(2, 3, 3, 0, i5, v6, lengths); }, "2 x 3): col_indices has 5 entries, expected 6"));
  EXPECT_TRUE(refuses([&] { Ell(2, 3, 3, 0, i6, v5, lengths); }, "2 x 3): values has 5 entries, expected 6"));
  EXPECT_TRUE(refuses([&] { Ell(2, 3, 3, 0, i6, v6, zeros<int>(3)); }, "2 x 3): row_lengths has 3 entries, expected 2"));
}

}  // namespace
}  // namespace kspmv_test
