// kspmv::poisson_3d against the real 7-point file and against counts from the stencil geometry.
#include <kspmv/generate.hpp>
#include <kspmv/io.hpp>

#include "backends.hpp"
#include "reference.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Generate : public ::testing::Test {};
TYPED_TEST_SUITE(Generate, Backends, BackendName);

TYPED_TEST(Generate, SevenPointEqualsTheNvidiaSampleMatrix) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::poisson_3d<double, int, int, Device>(20, 20, 20, 7);
  A.validate();
  const kspmv::HostCsr generated = kspmv::to_host(A);
  const kspmv::HostCsr file = kspmv::read_matrix_market(data_dir() + "/lap3D_7pt_n20.mtx");
  EXPECT_EQ(generated.num_rows, file.num_rows);
  EXPECT_EQ(generated.row_offsets, file.row_offsets);
  EXPECT_EQ(generated.col_indices, file.col_indices);
  EXPECT_EQ(generated.values, file.values);
}

TYPED_TEST(Generate, StencilCountsAndZeroRowSums) {
  using Device = DeviceOf<TypeParam>;
  const int64_t nx = 5, ny = 3, nz = 4, n = nx * ny * nz;
  const auto seven = kspmv::to_host(kspmv::poisson_3d<float, int64_t, size_t, Device>(nx, ny, nz, 7));
  const auto twenty_seven = kspmv::to_host(kspmv::poisson_3d<double, int, int, Device>(nx, ny, nz, 27));
  // Each unordered neighbour pair along an axis contributes two entries.
  EXPECT_EQ(int64_t(seven.col_indices.size()), n + 2 * ((nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1)));
  EXPECT_EQ(int64_t(twenty_seven.col_indices.size()), (3 * nx - 2) * (3 * ny - 2) * (3 * nz - 2));
  // Interior point (2, 1, 1) has all its neighbours: its row sums to zero.
  for (const kspmv::HostCsr* A : {&seven, &twenty_seven}) {
    const int64_t r = 2 + nx * (1 + ny * 1);
    double sum = 0;
    for (int64_t k = A->row_offsets[r]; k < A->row_offsets[r + 1]; ++k) sum += A->values[k];
    EXPECT_EQ(sum, 0.0);
  }
  EXPECT_EQ(seven.row_offsets[1] - seven.row_offsets[0], 4);            // corner: 3 neighbours
  EXPECT_EQ(twenty_seven.row_offsets[1] - twenty_seven.row_offsets[0], 8);  // corner: 2x2x2 block
}

TYPED_TEST(Generate, BadArgumentsThrow) {
  using Device = DeviceOf<TypeParam>;
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { kspmv::poisson_3d<double, int, int, Device>(2, 2, 2, 5); },
                                                 "kspmv::poisson_3d: points must be 7 or 27, not 5"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { kspmv::poisson_3d<double, int, int, Device>(-1, 2, 2, 7); },
                                                 "kspmv::poisson_3d: negative grid size -1 x 2 x 2"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([] { kspmv::poisson_3d<double, int, int, Device>(2, 2, -3, 27); },
                                                 "kspmv::poisson_3d: negative grid size 2 x 2 x -3"));
  EXPECT_EQ((kspmv::poisson_3d<double, int, int, Device>(0, 2, 2, 7)).num_rows(), 0);
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// poisson_3d's sizes beyond its types: std::overflow_error before anything is allocated (point
// counts and negative sizes: BadArgumentsThrow above). Default backend only.
TEST(GenerateBadArgument, RowsBeyondTheOrdinalType) {
  EXPECT_TRUE(throws_with<std::overflow_error>([] { kspmv::poisson_3d<double, int, int64_t, DefaultDevice>(2000, 2000, 2000, 7); },
                                               "kspmv::poisson_3d: a 2000 x 2000 x 2000 grid has 8000000000 rows, more "
                                               "than the Ordinal type holds (2147483647)"));
}

TEST(GenerateBadArgument, EntriesBeyondTheOffsetType) {
  // 700^3 = 343,000,000 rows fit in int; their 2,398,060,000 entries of the 7-point stencil do not.
  EXPECT_TRUE(throws_with<std::overflow_error>([] { kspmv::poisson_3d<double, int, int, DefaultDevice>(700, 700, 700, 7); },
                                               "grid has 2398060000 entries, more than the Offset type holds (2147483647)"))
      << "7 points";
  // 440^3 rows, (3*440 - 2)^3 entries of the 27-point stencil.
  EXPECT_TRUE(throws_with<std::overflow_error>([] { kspmv::poisson_3d<double, int, int, DefaultDevice>(440, 440, 440, 27); },
                                               "grid has 2289529432 entries, more than the Offset type holds"))
      << "27 points";
}

}  // namespace
}  // namespace kspmv_test
