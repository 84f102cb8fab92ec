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

}  // namespace
}  // namespace kspmv_test
