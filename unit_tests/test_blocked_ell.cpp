// kspmv::BlockedEllMatrix: the common format suite at several slice heights and sorting
// windows, per-slice widths, and y written in the original row order when rows are sorted.
#include <kspmv/blocked_ell.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class BlockedEll : public ::testing::Test {};
TYPED_TEST_SUITE(BlockedEll, Backends, BackendName);

kspmv::ConvertOptions slices(int height, int sigma) {
  kspmv::ConvertOptions o;
  o.slice_height = height;
  o.sigma = sigma;
  o.max_fill_ratio = 1e12;
  return o;
}

TYPED_TEST(BlockedEll, FormatSuiteDefaultSlices) {
  run_format_suite<TypeParam, kspmv::BlockedEllMatrix>({kspmv::SpmvOptions()}, slices(0, 1), all_real_matrices);
}

TYPED_TEST(BlockedEll, FormatSuiteSortedWindows) {
  // Slice heights that do not divide the row counts, windows of several slices.
  run_format_suite<TypeParam, kspmv::BlockedEllMatrix>({kspmv::SpmvOptions()}, slices(4, 32), all_real_matrices);
  run_format_suite<TypeParam, kspmv::BlockedEllMatrix>({kspmv::SpmvOptions()}, slices(64, 256), {"wiki-Vote.mtx"});
}

TYPED_TEST(BlockedEll, EachSliceHasItsOwnWidth) {
  using Device = DeviceOf<TypeParam>;
  // Row lengths 2, 0, 1, 3 in slices of 2 rows: widths 2 and 3, 4 + 6 slots.
  const auto A = kspmv::convert<kspmv::BlockedEllMatrix>(
      kspmv::to_device<double, int, int, Device>(four_rows_with_empty_row()), slices(2, 1));
  EXPECT_EQ(A.num_slices(), 2);
  EXPECT_EQ(to_std_vector(A.slice_offsets), (std::vector<int>{0, 4, 10}));
  EXPECT_EQ(A.stored_entries(), 10u);
  EXPECT_FALSE(A.is_permuted());
  EXPECT_NO_THROW(A.validate());
}

TYPED_TEST(BlockedEll, SortingGroupsRowsOfSimilarLengthAndCutsPadding) {
  using Device = DeviceOf<TypeParam>;
  // Alternating long (10) and short (1) rows: unsorted slices of 2 pad every short row to 10.
  kspmv::HostCsr h;
  h.num_rows = 8;
  h.num_cols = 10;
  h.row_offsets = {0};
  for (int i = 0; i < 8; ++i) {
    const int len = i % 2 ? 1 : 10;
    for (int k = 0; k < len; ++k) {
      h.col_indices.push_back(k);
      h.values.push_back(i + 1);
    }
    h.row_offsets.push_back(int64_t(h.col_indices.size()));
  }
  const auto csr = kspmv::to_device<double, int, int, Device>(h);
  const auto unsorted = kspmv::convert<kspmv::BlockedEllMatrix>(csr, slices(2, 1));
  const auto sorted = kspmv::convert<kspmv::BlockedEllMatrix>(csr, slices(2, 8));
  EXPECT_EQ(unsorted.stored_entries(), 80u);
  EXPECT_EQ(sorted.stored_entries(), 2u * 2 * 10 + 2u * 2 * 1);
  EXPECT_TRUE(sorted.is_permuted());
  EXPECT_EQ(to_std_vector(sorted.permutation), (std::vector<int>{0, 2, 4, 6, 1, 3, 5, 7}));
  // y comes back in the original order: row i sums (i+1) over its length.
  Kokkos::View<double*, Device> x("x", 10), y("y", 8);
  Kokkos::deep_copy(x, 1.0);
  kspmv::spmv(1.0, sorted, x, 0.0, y);
  EXPECT_EQ(to_std_vector(y), (std::vector<double>{10, 2, 30, 4, 50, 6, 70, 8}));
}

TYPED_TEST(BlockedEll, StoredSlotsBeyondTheOffsetTypeAreRefused) {
  using Device = DeviceOf<TypeParam>;
  // Two rows of 20,000 and 1 entries: 8 rows a slice pad the short row to 20,000 slots, 160,000
  // in all, more than a short offset holds; the conversion must say so, not wrap.
  kspmv::HostCsr h;
  h.num_rows = 2;
  h.num_cols = 1;
  h.row_offsets = {0, 20000, 20001};
  h.col_indices.assign(20001, 0);
  h.values.assign(20001, 1.0);
  const auto A = kspmv::to_device<double, int, short, Device>(h);
  try {
    kspmv::convert<kspmv::BlockedEllMatrix>(A, slices(8, 1));
    ADD_FAILURE() << "wrapped offsets accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("do not fit in the offset type"), std::string::npos) << e.what();
  }
}

TYPED_TEST(BlockedEll, BadOptionsThrow) {
  using Device = DeviceOf<TypeParam>;
  const auto csr = kspmv::to_device<double, int, int, Device>(golden_5x5());
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::convert<kspmv::BlockedEllMatrix>(csr, slices(-1, 1)); },
                                                 "kspmv::convert: ConvertOptions::slice_height = -1 is negative"));
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::convert<kspmv::BlockedEllMatrix>(csr, slices(4, 0)); },
                                                 "kspmv::convert: ConvertOptions::sigma = 0 must be at least 1"));
}

// ---- Argument checks (issue 17, on the model of rocSPARSE's testing_*_bad_arg) ------------------
// The wrapping constructor: 5 rows in slices of 2 (3 slices, 4 offsets), 4 slots. The options:
// BadOptionsThrow above and test_convert.cpp. Default backend.
TEST(BlockedEllBadArgument, Constructor) {
  using BlockedEll = kspmv::BlockedEllMatrix<double, int, int, DefaultDevice>;
  const auto refuses = [](const std::function<void()>& make, const std::string& needle) {
    return throws_with<std::invalid_argument>(make, "kspmv::BlockedEllMatrix (5 x 5): " + needle);
  };
  const auto offsets = zeros<int>(4), indices = zeros<int>(4), lengths = zeros<int>(5), none = zeros<int>(0);
  const auto values = zeros<double>(4);
  EXPECT_TRUE(refuses([&] { BlockedEll(5, 5, 0, 0, offsets, indices, values, lengths, none); },
                      "slice_height must be positive"));
  EXPECT_TRUE(refuses([&] { BlockedEll(5, 5, 2, 0, zeros<int>(3), indices, values, lengths, none); },
                      "slice_offsets has 3 entries, expected 4"));
  EXPECT_TRUE(refuses([&] { BlockedEll(5, 5, 2, 0, offsets, indices, zeros<double>(3), lengths, none); },
                      "col_indices and values differ in length"));
  EXPECT_TRUE(refuses([&] { BlockedEll(5, 5, 2, 0, offsets, indices, values, zeros<int>(4), none); },
                      "row_lengths has 4 entries, expected 5"));
  EXPECT_TRUE(refuses([&] { BlockedEll(5, 5, 2, 0, offsets, indices, values, lengths, zeros<int>(2)); },
                      "permutation has 2 entries, expected 5"));
}

}  // namespace
}  // namespace kspmv_test
