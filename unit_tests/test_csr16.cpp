// kspmv::Csr16Matrix: the common format suite, the layout of narrow and wide blocks, blocks that
// cross rows, and the refusals.
#include <kspmv/csr16.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Csr16 : public ::testing::Test {};
TYPED_TEST_SUITE(Csr16, Backends, BackendName);

TYPED_TEST(Csr16, FormatSuite) {
  run_format_suite<TypeParam, kspmv::Csr16Matrix>({kspmv::SpmvOptions()}, kspmv::ConvertOptions(), all_real_matrices);
}

TYPED_TEST(Csr16, OneNarrowBlockStoresTheColumnsAsOffsets) {
  using Device = DeviceOf<TypeParam>;
  // Rows: {0:1, 2:2}, {}, {1:3}, {0:-1, 1:1, 2:1}: one block, based at column 0.
  const auto A = kspmv::convert<kspmv::Csr16Matrix>(kspmv::to_device<double, int, int, Device>(four_rows_with_empty_row()));
  EXPECT_EQ(A.num_blocks(), 1u);
  EXPECT_EQ(A.wide_entries(), 0u);
  EXPECT_EQ(to_std_vector(A.col_low), (std::vector<uint16_t>{0, 2, 1, 0, 1, 2}));
  EXPECT_EQ(to_std_vector(A.block_base), (std::vector<int>{0}));
  EXPECT_EQ(to_std_vector(A.wide_offset), (std::vector<int64_t>{-1}));
  EXPECT_EQ(A.bytes(), 5 * sizeof(int) + 6 * sizeof(double) + 6 * sizeof(uint16_t) + sizeof(int) + sizeof(int64_t));
}

// Rows that cross blocks of 2048 entries, in blocks whose columns span less and more than 65,535:
// a row of 3000 neighbouring columns, one of 1000 spread over 300,000 columns, an empty row, a row
// of the two extreme columns, two rows near the middle; the last block is partial.
kspmv::HostCsr narrow_and_wide_blocks() {
  kspmv::HostCsr h;
  h.num_cols = 300000;
  auto add_row = [&](const std::vector<int64_t>& cols) {
    for (const int64_t c : cols) {
      h.col_indices.push_back(c);
      h.values.push_back(1.0 + double(c % 7) / 8.0);
    }
    h.row_offsets.push_back(int64_t(h.col_indices.size()));
    ++h.num_rows;
  };
  std::vector<int64_t> near, spread, middle;
  for (int64_t c = 100; c < 3100; ++c) near.push_back(c);
  for (int64_t c = 0; c < 300000; c += 300) spread.push_back(c);
  for (int64_t c = 150000; c < 150700; ++c) middle.push_back(c);
  add_row(near);
  add_row(spread);
  add_row({});
  add_row({0, 299999});
  add_row(middle);
  add_row(middle);
  return h;
}

TYPED_TEST(Csr16, RowsAcrossNarrowAndWideBlocks) {
  using Device = DeviceOf<TypeParam>;
  const kspmv::HostCsr h = narrow_and_wide_blocks();
  ASSERT_EQ(h.col_indices.size(), 3000u + 1000u + 2u + 700u + 700u);
  const auto A = kspmv::convert<kspmv::Csr16Matrix>(kspmv::to_device<double, int, int, Device>(h));
  ASSERT_EQ(A.num_blocks(), 3u);  // entries [0, 2048), [2048, 4096), [4096, 5402)
  // Block 0: columns 100..2147, narrow; block 1: the end of the near row, the spread row, the
  // extreme columns and the first middle row's start, wide; block 2: the middle rows, narrow.
  EXPECT_EQ(to_std_vector(A.block_base), (std::vector<int>{100, 0, 150000}));
  EXPECT_EQ(to_std_vector(A.wide_offset), (std::vector<int64_t>{-1, 0, -1}));
  EXPECT_EQ(A.wide_entries(), 2048u);
  EXPECT_TRUE((check_round_trip<TypeParam, kspmv::Csr16Matrix>(h)));
  std::mt19937_64 rng(test_seed());
  const auto x = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  const std::vector<double> nans(size_t(h.num_rows), std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::Csr16Matrix>(h, 1.5, x, -0.5, y0, {})));
  EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::Csr16Matrix>(h, 2.0, x, 0.0, nans, {})));
  EXPECT_TRUE((check_spmv<TypeParam, float, int64_t, int64_t, kspmv::Csr16Matrix>(h, 1.0, x, 1.0, y0, {})));
}

TYPED_TEST(Csr16, RefusesABlockSpanning32BitsOfColumns) {
  using Device = DeviceOf<TypeParam>;
  kspmv::HostCsr h;  // 1 x 2^33 (64-bit ordinals), two entries 2^32 + 7 columns apart
  h.num_rows = 1;
  h.num_cols = int64_t(1) << 33;
  h.row_offsets = {0, 2};
  h.col_indices = {0, (int64_t(1) << 32) + 7};
  h.values = {1.0, 2.0};
  try {
    kspmv::convert<kspmv::Csr16Matrix>(kspmv::to_device<double, int64_t, int64_t, Device>(h));
    ADD_FAILURE() << "a block spanning 2^32 columns was converted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("kspmv::convert<Csr16Matrix>"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("span 2^32 columns or more"), std::string::npos) << e.what();
  }
  // One column less fits: the high half is 0xFFFF... plus the low half.
  h.col_indices = {0, (int64_t(1) << 32) - 1};
  const auto A = kspmv::convert<kspmv::Csr16Matrix>(kspmv::to_device<double, int64_t, int64_t, Device>(h));
  EXPECT_EQ(to_std_vector(kspmv::to_csr(A).col_indices), (std::vector<int64_t>{0, (int64_t(1) << 32) - 1}));
}

TYPED_TEST(Csr16, RejectsOtherAlgorithmsAndWrongSizes) {
  expect_csr_algorithm_and_wrong_x_refused<TypeParam, kspmv::Csr16Matrix>();
}

}  // namespace
}  // namespace kspmv_test
