// kspmv::CsrMatrix: construction without copies, from host arrays, and validate().
#include <kspmv/csr.hpp>

#include "backends.hpp"
#include "reference.hpp"

#include <string>
#include <vector>

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Csr : public ::testing::Test {
 public:
  using Device = DeviceOf<ExecSpace>;
  using Matrix = kspmv::CsrMatrix<double, int, int, Device>;
};
TYPED_TEST_SUITE(Csr, Backends, BackendName);

// Expects validate() to throw std::invalid_argument whose message contains `needle`.
template <class Matrix>
void expect_invalid(const Matrix& A, const std::string& needle) {
  try {
    A.validate();
    ADD_FAILURE() << "validate() accepted a matrix that should fail with '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TYPED_TEST(Csr, FromHostCopiesAndReportsSizes) {
  using Matrix = typename TestFixture::Matrix;
  const std::vector<int> offsets{0, 2, 2, 3};
  const std::vector<int> indices{0, 3, 1};
  const std::vector<double> values{1.5, -2, 4};
  const Matrix A = Matrix::from_host(3, 4, offsets.data(), indices.data(), values.data());
  EXPECT_EQ(A.num_rows(), 3);
  EXPECT_EQ(A.num_cols(), 4);
  EXPECT_EQ(A.nnz(), 3);
  EXPECT_NO_THROW(A.validate());
  EXPECT_EQ(to_std_vector(A.values), values);
  EXPECT_EQ(to_std_vector(A.col_indices), indices);
  EXPECT_EQ(to_std_vector(A.row_offsets), offsets);
}

TYPED_TEST(Csr, WrapsViewsWithoutCopy) {
  using Device = typename TestFixture::Device;
  using Matrix = typename TestFixture::Matrix;
  Kokkos::View<int*, Device> offsets("offsets", 3);
  Kokkos::View<int*, Device> indices("indices", 0);
  Kokkos::View<double*, Device> values("values", 0);
  const Matrix A(2, 5, offsets, indices, values);
  EXPECT_EQ(A.row_offsets.data(), offsets.data());
  EXPECT_EQ(A.values.data(), values.data());
  EXPECT_NO_THROW(A.validate());
}

TYPED_TEST(Csr, EmptyShapes) {
  using Matrix = typename TestFixture::Matrix;
  EXPECT_NO_THROW(Matrix().validate());
  const int zero = 0;
  const Matrix no_rows = Matrix::from_host(0, 7, &zero, nullptr, nullptr);
  EXPECT_EQ(no_rows.nnz(), 0);
  EXPECT_NO_THROW(no_rows.validate());
  const std::vector<int> offsets(4, 0);
  const Matrix no_cols = Matrix::from_host(3, 0, offsets.data(), nullptr, nullptr);
  EXPECT_NO_THROW(no_cols.validate());
}

TYPED_TEST(Csr, ExtentMismatchThrowsAtConstruction) {
  using Device = typename TestFixture::Device;
  using Matrix = typename TestFixture::Matrix;
  Kokkos::View<int*, Device> offsets("offsets", 3), indices("indices", 4);
  Kokkos::View<double*, Device> values("values", 4), short_values("values", 3);
  EXPECT_THROW(Matrix(3, 3, offsets, indices, values), std::invalid_argument);   // needs 4 offsets
  EXPECT_THROW(Matrix(2, 3, offsets, indices, short_values), std::invalid_argument);
  EXPECT_THROW(Matrix(-1, 3, offsets, indices, values), std::invalid_argument);
}

TYPED_TEST(Csr, ValidateNamesTheViolation) {
  using Matrix = typename TestFixture::Matrix;
  const std::vector<double> values{1, 2, 3};
  {
    const std::vector<int> offsets{1, 2, 3}, indices{0, 1, 2};
    expect_invalid(Matrix::from_host(2, 3, offsets.data(), indices.data(), values.data()), "row_offsets[0] is 1");
  }
  {
    const std::vector<int> offsets{0, 2, 1, 3}, indices{0, 1, 2};
    expect_invalid(Matrix::from_host(3, 3, offsets.data(), indices.data(), values.data()),
                   "row_offsets decrease at row 1");
  }
  {
    const std::vector<int> offsets{0, 1, 3}, indices{0, 3, 1};
    expect_invalid(Matrix::from_host(2, 3, offsets.data(), indices.data(), values.data()),
                   "column index 3 in row 1 (entry 1) is out of range [0, 3)");
  }
  {
    const std::vector<int> offsets{0, 1, 3}, indices{0, -1, 1};
    expect_invalid(Matrix::from_host(2, 3, offsets.data(), indices.data(), values.data()), "column index -1");
  }
}

}  // namespace
}  // namespace kspmv_test
