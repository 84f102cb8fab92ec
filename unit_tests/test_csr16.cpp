// kspmv::Csr16Matrix: the common format suite, the layout of narrow and wide blocks, blocks that
// cross rows, and the refusals.
#include <kspmv/csr16.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Csr16 : public ::testing::Test {};
TYPED_TEST_SUITE(Csr16, Backends, BackendName);

// Automatic runs the raw load-balanced kernel where one exists (GPU builds); csr_scalar is always
// the Kokkos kernel, a thread per row.
TYPED_TEST(Csr16, FormatSuite) {
  run_format_suite<TypeParam, kspmv::Csr16Matrix>({kspmv::SpmvOptions(), {kspmv::Algorithm::csr_scalar}},
                                                  kspmv::ConvertOptions(), all_real_matrices);
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
  EXPECT_EQ(to_std_vector(A.block_first_row), (std::vector<int>{0, 4}));
  // Offsets, values, low halves; per block a base, a wide offset, a first row, two partial sums
  // and an arrival counter; and the end of the partition.
  EXPECT_EQ(A.bytes(), 5 * sizeof(int) + 6 * sizeof(double) + 6 * sizeof(uint16_t) + 2 * sizeof(int) +
                           sizeof(int64_t) + 2 * sizeof(double) + sizeof(int));
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
  // Rows start at entries 0, 3000, 4000, 4000, 4002, 4702: blocks start in rows 0, 1 and 4 and
  // own the rows starting in them.
  EXPECT_EQ(to_std_vector(A.block_first_row), (std::vector<int>{0, 1, 5, 6}));
  EXPECT_NO_THROW(A.validate());
  EXPECT_TRUE((check_round_trip<TypeParam, kspmv::Csr16Matrix>(h)));
  std::mt19937_64 rng(test_seed());
  const auto x = random_vector(h.num_cols, rng);
  const auto y0 = random_vector(h.num_rows, rng);
  const std::vector<double> nans(size_t(h.num_rows), std::numeric_limits<double>::quiet_NaN());
  for (const kspmv::Algorithm algorithm : {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar}) {
    SCOPED_TRACE(kspmv::to_string(algorithm));
    EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::Csr16Matrix>(h, 1.5, x, -0.5, y0, {algorithm})));
    EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::Csr16Matrix>(h, 2.0, x, 0.0, nans, {algorithm})));
    EXPECT_TRUE((check_spmv<TypeParam, float, int64_t, int64_t, kspmv::Csr16Matrix>(h, 1.0, x, 1.0, y0, {algorithm})));
  }
}

// A row of 50,000 entries over 400,000 columns spans 25 blocks, all wide; short rows around it
// share blocks with it. The load-balanced kernel adds a spanning row's partials in block order:
// the same bits on every run.
TYPED_TEST(Csr16, RowsSpanningManyBlocksSameBitsEveryRun) {
  using Device = DeviceOf<TypeParam>;
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const kspmv::HostCsr h = random_csr(RandomShape{3000, 400000, 40, 0.2, 50000}, rng);
  const auto A = kspmv::convert<kspmv::Csr16Matrix>(kspmv::to_device<double, int, int, Device>(h));
  EXPECT_NO_THROW(A.validate());
  EXPECT_GT(A.wide_entries(), 0u);
  expect_same_bits_every_run<TypeParam>(A, h, rng, {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar});
}

TYPED_TEST(Csr16, ValidateFindsAWrongPartition) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::convert<kspmv::Csr16Matrix>(kspmv::to_device<double, int, int, Device>(narrow_and_wide_blocks()));
  Kokkos::deep_copy(Kokkos::subview(A.block_first_row, 1), 2);
  try {
    A.validate();
    ADD_FAILURE() << "a wrong block_first_row passed validate()";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("block_first_row[1] = 2, not 1"), std::string::npos) << e.what();
  }
}

// The raw kernel is a clear error where none is compiled, and runs where one is.
TYPED_TEST(Csr16, RawAlgorithmWhereCompiled) {
  using Device = DeviceOf<TypeParam>;
  const kspmv::HostCsr h = golden_5x5();
  if (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    EXPECT_TRUE((check_spmv<TypeParam, double, int, int, kspmv::Csr16Matrix>(h, 2.0, {1, 2, 3, 4, 5}, -1.0,
                                                                             {1, 1, 1, 1, 1}, {kspmv::Algorithm::raw})));
  } else {
    const auto A = kspmv::convert<kspmv::Csr16Matrix>(kspmv::to_device<double, int, int, Device>(h));
    Kokkos::View<double*, Device> x("x", 5), y("y", 5);
    EXPECT_THROW(kspmv::spmv(1.0, A, x, 0.0, y, {kspmv::Algorithm::raw}), std::invalid_argument);
  }
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

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// The wrapping constructor: 2 rows, 3 entries (one block). The conversion's limit:
// RefusesABlockSpanning32BitsOfColumns; algorithms and sizes: RejectsOtherAlgorithmsAndWrongSizes.
// Default backend.
TEST(Csr16BadArgument, Constructor) {
  using Csr16 = kspmv::Csr16Matrix<double, int, int, DefaultDevice>;
  const auto refuses = [](const std::function<void()>& make, const std::string& needle) {
    return throws_with<std::invalid_argument>(make, "kspmv::Csr16Matrix (2 x 4): " + needle);
  };
  const auto offsets = zeros<int>(3), bases = zeros<int>(1), first_rows = zeros<int>(2);
  const auto values = zeros<double>(3);
  const auto low = zeros<uint16_t>(3), high = zeros<uint16_t>(0);
  const auto wide = zeros<int64_t>(1);
  EXPECT_TRUE(refuses([&] { Csr16(2, 4, 3, zeros<int>(2), values, low, bases, wide, high, first_rows); },
                      "row_offsets has 2 entries, expected 3"));
  EXPECT_TRUE(refuses([&] { Csr16(2, 4, 3, offsets, zeros<double>(2), low, bases, wide, high, first_rows); },
                      "values has 2 entries, expected 3"));
  EXPECT_TRUE(refuses([&] { Csr16(2, 4, 3, offsets, values, zeros<uint16_t>(4), bases, wide, high, first_rows); },
                      "col_low has 4 entries, expected 3"));
  EXPECT_TRUE(refuses([&] { Csr16(2, 4, 3, offsets, values, low, zeros<int>(2), wide, high, first_rows); },
                      "block_base has 2 entries, expected 1"));
  EXPECT_TRUE(refuses([&] { Csr16(2, 4, 3, offsets, values, low, bases, zeros<int64_t>(0), high, first_rows); },
                      "wide_offset has 0 entries, expected 1"));
  EXPECT_TRUE(refuses([&] { Csr16(2, 4, 3, offsets, values, low, bases, wide, high, zeros<int>(1)); },
                      "block_first_row has 1 entries, expected 2"));
}

}  // namespace
}  // namespace kspmv_test
