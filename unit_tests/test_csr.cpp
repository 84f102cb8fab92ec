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
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Matrix(3, 3, offsets, indices, values); },
                                                 "kspmv::CsrMatrix: row_offsets has 3 entries, expected num_rows + 1 = 4"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Matrix(2, 3, offsets, indices, short_values); },
                                                 "col_indices has 4 entries but values has 3"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Matrix(-1, 3, offsets, indices, values); },
                                                 "kspmv::CsrMatrix: negative size (-1 x 3)"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Matrix(2, -3, offsets, indices, values); },
                                                 "kspmv::CsrMatrix: negative size (2 x -3)"));
}

// Host arrays that break one invariant of the contents each: validate() finds it in a matrix's
// Views, from_host in the caller's arrays (the message names the function).
struct BadContents {
  const char* what;
  int rows, cols;
  std::vector<int> offsets, indices;
  const char* needle;
};
const std::vector<BadContents>& bad_contents() {
  static const std::vector<BadContents> cases = {
      {"offsets from 1", 2, 3, {1, 2, 3}, {0, 1, 2}, "row_offsets[0] is 1, not 0 (2 x 3)"},
      {"decreasing offsets", 3, 3, {0, 2, 1, 3}, {0, 1, 2}, "row_offsets decrease at row 1 (2 then 1) (3 x 3)"},
      {"column past the last", 2, 3, {0, 1, 3}, {0, 3, 1}, "column index 3 in row 1 (entry 1) is out of range [0, 3)"},
      {"negative column", 2, 3, {0, 1, 3}, {0, -1, 1}, "column index -1 in row 1 (entry 1) is out of range [0, 3)"},
  };
  return cases;
}

TYPED_TEST(Csr, ValidateNamesTheViolation) {
  using Device = typename TestFixture::Device;
  using Matrix = typename TestFixture::Matrix;
  for (const BadContents& c : bad_contents()) {
    SCOPED_TRACE(c.what);
    // Wrapped Views: the constructor checks the extents only.
    const auto to_view = [](const std::vector<int>& v) {
      return to_device_vector<int, Device>(std::vector<double>(v.begin(), v.end()), "v");
    };
    const Matrix A(c.rows, c.cols, to_view(c.offsets), to_view(c.indices),
                   to_device_vector<double, Device>(std::vector<double>(c.indices.size(), 1.0), "values"));
    expect_invalid(A, std::string("kspmv::CsrMatrix: ") + c.needle);
  }
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// CsrMatrix::from_host: one assertion per invalid argument, exact exception type and message.
// The wrapping constructor's extents: ExtentMismatchThrowsAtConstruction above. Default backend
// only: the checks run on the host before anything is allocated.
using HostMatrix = kspmv::CsrMatrix<double, int, int, DefaultDevice>;

TEST(CsrBadArgument, FromHostNegativeSize) {
  const std::vector<int> offsets{0, 0};
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { HostMatrix::from_host(-1, 3, offsets.data(), nullptr, nullptr); },
                                                 "kspmv::CsrMatrix::from_host: negative size (-1 x 3)"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { HostMatrix::from_host(1, -3, offsets.data(), nullptr, nullptr); },
                                                 "kspmv::CsrMatrix::from_host: negative size (1 x -3)"));
}

TEST(CsrBadArgument, FromHostContents) {
  for (const BadContents& c : bad_contents()) {
    const std::vector<double> values(c.indices.size(), 1.0);
    EXPECT_TRUE(throws_with<std::invalid_argument>(
        [&] { HostMatrix::from_host(c.rows, c.cols, c.offsets.data(), c.indices.data(), values.data()); },
        std::string("kspmv::CsrMatrix::from_host: ") + c.needle))
        << c.what;
  }
}

// Entries declared by the offsets, but no array to copy them from.
TEST(CsrBadArgument, FromHostNullIndicesOrValues) {
  const std::vector<int> offsets{0, 1, 2}, indices{0, 1};
  const std::vector<double> values{1, 2};
  const char* needle = "kspmv::CsrMatrix::from_host: row_offsets[num_rows] is 2 but host_indices or host_values is null";
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { HostMatrix::from_host(2, 2, offsets.data(), nullptr, values.data()); },
                                                 needle))
      << "host_indices null";
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { HostMatrix::from_host(2, 2, offsets.data(), indices.data(), nullptr); },
                                                 needle))
      << "host_values null";
}

// More entries than a 16-bit Offset counts: refused by the wrapping constructor.
TEST(CsrBadArgument, NnzBeyondTheOffsetType) {
  using Short = kspmv::CsrMatrix<double, int, short, DefaultDevice>;
  Kokkos::View<short*, DefaultDevice> offsets("offsets", 2);
  Kokkos::View<int*, DefaultDevice> indices("indices", 40000);
  Kokkos::View<double*, DefaultDevice> values("values", 40000);
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { Short(1, 1, offsets, indices, values); },
                                                 "kspmv::CsrMatrix: nnz does not fit in the Offset type (1 x 1)"));
}

}  // namespace
}  // namespace kspmv_test
