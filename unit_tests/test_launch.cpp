// The launch heuristics of impl/launch.hpp, which the kernels obey without deciding anything.
#include <kspmv/impl/launch.hpp>

#include "backends.hpp"

namespace kspmv_test {
namespace {

TEST(Launch, LanesAreLargestPowerOfTwoBelowAverageCappedAtWarp) {
  using kspmv::impl::lanes_for_average_row_length;
  EXPECT_EQ(lanes_for_average_row_length(0.0, 32), 1);
  EXPECT_EQ(lanes_for_average_row_length(1.9, 32), 1);
  EXPECT_EQ(lanes_for_average_row_length(2.0, 32), 2);
  EXPECT_EQ(lanes_for_average_row_length(7.0, 32), 4);
  EXPECT_EQ(lanes_for_average_row_length(27.0, 32), 16);
  EXPECT_EQ(lanes_for_average_row_length(1000.0, 32), 32);
  EXPECT_EQ(lanes_for_average_row_length(1000.0, 64), 64);
  EXPECT_EQ(lanes_for_average_row_length(1000.0, 1), 1);
}

TEST(Launch, RawVectorLanesAreAThirdOfTheAverageRowClampedToFourAndTheWave) {
  using kspmv::impl::raw_vector_lanes;
  EXPECT_EQ(raw_vector_lanes(0.0, 32), 4);
  EXPECT_EQ(raw_vector_lanes(5.0, 32), 4);
  EXPECT_EQ(raw_vector_lanes(13.2, 32), 4);   // cage10
  EXPECT_EQ(raw_vector_lanes(24.0, 32), 8);
  EXPECT_EQ(raw_vector_lanes(41.9, 32), 8);   // bcsstk13
  EXPECT_EQ(raw_vector_lanes(48.0, 32), 16);
  EXPECT_EQ(raw_vector_lanes(100.6, 32), 32);  // mbeacxc
  EXPECT_EQ(raw_vector_lanes(1000.0, 32), 32);
  EXPECT_EQ(raw_vector_lanes(1000.0, 64), 64);
}

TEST(Launch, RawBalancedBlocksOf512OnlyForFarGathersOfAnXBeyondL2) {
  using kspmv::impl::raw_balanced_block_threads;
  const double l2 = 60e6;
  EXPECT_EQ(raw_balanced_block_threads(0.75, 128e6, l2), 512);  // uniform random, power law
  EXPECT_EQ(raw_balanced_block_threads(0.75, 64e6, l2), 512);   // heavy rows
  EXPECT_EQ(raw_balanced_block_threads(0.75, 16e6, l2), 256);   // x fits in L2
  EXPECT_EQ(raw_balanced_block_threads(0.0, 128e6, l2), 256);   // replicated: near the diagonal
  EXPECT_EQ(raw_balanced_block_threads(0.5, 128e6, l2), 256);
  EXPECT_EQ(raw_balanced_block_threads(0.75, 128e6, 0.0), 256);  // L2 unknown
}

TEST(Launch, AutomaticChoiceByAverageRowLength) {
  using kspmv::Algorithm;
  using kspmv::impl::choose_csr_algorithm;
  EXPECT_EQ(choose_csr_algorithm(1.5, 32), Algorithm::csr_scalar);
  EXPECT_EQ(choose_csr_algorithm(16.0, 32), Algorithm::csr_scalar);
  EXPECT_EQ(choose_csr_algorithm(27.0, 32), Algorithm::csr_vector);
  EXPECT_EQ(choose_csr_algorithm(27.0, 64), Algorithm::csr_vector);
  EXPECT_EQ(choose_csr_algorithm(100.0, 1), Algorithm::csr_scalar);  // host: one lane per row anyway
}

TEST(Launch, WarpWidthPerBackend) {
#if defined(KOKKOS_ENABLE_CUDA)
  static_assert(kspmv::impl::warp_width<Kokkos::Cuda>() == 32, "CUDA warp");
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
  static_assert(kspmv::impl::warp_width<Kokkos::HIP>() == 64, "HIP wavefront");
#endif
  EXPECT_EQ(kspmv::impl::warp_width<Kokkos::DefaultHostExecutionSpace>(), 1);
}

template <class ExecSpace>
class LaunchShape : public ::testing::Test {};
TYPED_TEST_SUITE(LaunchShape, Backends, BackendName);

TYPED_TEST(LaunchShape, VectorShapeFollowsHeuristicAndOverrides) {
  const auto s = kspmv::impl::csr_vector_shape<TypeParam>(1000, 27000, {});
  const int warp = kspmv::impl::warp_width<TypeParam>();
  EXPECT_EQ(s.lanes_per_row, warp >= 16 ? 16 : warp);
  if (kspmv::impl::is_gpu_space<TypeParam>()) {
    EXPECT_EQ(s.team_size * s.lanes_per_row, 256);
    EXPECT_EQ(s.rows_per_team(), s.team_size);
  } else {
    EXPECT_EQ(s.team_size, 1);
    EXPECT_EQ(s.rows_per_thread, 64);
  }
  kspmv::SpmvOptions forced;
  forced.lanes_per_row = 4;
  forced.team_size = 8;
  forced.rows_per_thread = 2;
  const auto f = kspmv::impl::csr_vector_shape<TypeParam>(1000, 27000, forced);
  EXPECT_EQ(f.lanes_per_row, 4);
  EXPECT_EQ(f.team_size, 8);
  EXPECT_EQ(f.rows_per_team(), 16);
}

TYPED_TEST(LaunchShape, DiaFillStagesRowsThatFitIn44KB) {
  using kspmv::impl::dia_fill_shape;
  if (!kspmv::impl::is_gpu_space<TypeParam>()) {
    const auto host = dia_fill_shape<TypeParam>(7.0, 12);
    EXPECT_EQ(host.team_size, 1);
    EXPECT_EQ(host.staged_entries, 0);
    return;
  }
  // fp64 values, int columns: 12 bytes an entry; the average row rounded up plus 1 entry a row.
  const auto seven = dia_fill_shape<TypeParam>(6.9, 12);  // 7-point Poisson: 8 a row
  EXPECT_EQ(seven.rows_per_team, 256);
  EXPECT_EQ(seven.team_size, 256);
  EXPECT_EQ(seven.staged_entries, 256 * 8);
  const auto twenty_seven = dia_fill_shape<TypeParam>(26.7, 12);  // 28 a row: 43,008 bytes
  EXPECT_EQ(twenty_seven.rows_per_team, 128);
  EXPECT_EQ(twenty_seven.staged_entries, 128 * 28);
  const auto long_rows = dia_fill_shape<TypeParam>(1000.0, 12);  // 32 rows; at most 44 KB staged
  EXPECT_EQ(long_rows.rows_per_team, 32);
  EXPECT_EQ(long_rows.staged_entries, 44 * 1024 / 12);
}

}  // namespace
}  // namespace kspmv_test
