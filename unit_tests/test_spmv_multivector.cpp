// kspmv::spmv with several vectors (rank-2 X and Y, LayoutLeft and LayoutRight, k columns):
// hand-computed, every random case against the host reference column by column, strided
// Views, the raw kernels with lanes over the vectors, and argument errors.
#include <kspmv/io.hpp>
#include <kspmv/spmv.hpp>

#include "backends.hpp"
#include "cases.hpp"
#include "reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace kspmv_test {
namespace {

template <class ExecSpace>
class SpmvMultivector : public ::testing::Test {
 public:
  using Device = DeviceOf<ExecSpace>;
};
TYPED_TEST_SUITE(SpmvMultivector, Backends, BackendName);

// Several vectors: Y = alpha*op(A)*X + beta*Y0 with rank-2 X and Y of k columns in Layout, A
// converted to Format, each column against the host reference of that column.
template <class ExecSpace, class Scalar, class Ordinal, class Offset, template <class, class, class, class> class Format,
          class Layout>
::testing::AssertionResult check_multivector(const kspmv::HostCsr& host, const char* mode, double alpha, int64_t k,
                                             double beta, bool nan_in_y, std::mt19937_64& rng,
                                             const kspmv::SpmvOptions& options = {}) {
  using Device = DeviceOf<ExecSpace>;
  const bool t = mode[0] == 'T' || mode[0] == 't' || mode[0] == 'H' || mode[0] == 'h';
  const int64_t nx = t ? host.num_rows : host.num_cols, ny = t ? host.num_cols : host.num_rows;
  std::vector<std::vector<double>> x(static_cast<size_t>(k)), y0(static_cast<size_t>(k));
  Kokkos::View<Scalar**, Layout, Device> xd("X", nx, k), yd("Y", ny, k);
  auto xh = Kokkos::create_mirror_view(xd);
  auto yh = Kokkos::create_mirror_view(yd);
  for (int64_t j = 0; j < k; ++j) {
    x[j] = random_vector(size_t(nx), rng);
    y0[j] = random_vector(size_t(ny), rng);
    if (nan_in_y) std::fill(y0[j].begin(), y0[j].end(), nan);
    for (int64_t i = 0; i < nx; ++i) xh(i, j) = Scalar(x[j][i]);
    for (int64_t i = 0; i < ny; ++i) yh(i, j) = Scalar(y0[j][i]);
  }
  Kokkos::deep_copy(xd, xh);
  Kokkos::deep_copy(yd, yh);
  const auto A = kspmv::convert<Format>(kspmv::to_device<Scalar, Ordinal, Offset, Device>(host));
  kspmv::spmv(ExecSpace(), mode, alpha, A, xd, beta, yd, options);
  Kokkos::deep_copy(yh, yd);
  const kspmv::HostCsr op_a = t ? transpose_host(host) : host;
  for (int64_t j = 0; j < k; ++j) {
    std::vector<Scalar> column(static_cast<size_t>(ny));
    for (int64_t i = 0; i < ny; ++i) column[i] = yh(i, j);
    auto result = matches_reference(column, reference_spmv(alpha, op_a, x[j], beta, y0[j]));
    if (!result) {
      return result << "\n  vector " << j << " of " << k << ", mode " << mode << ", " << describe(options) << ", alpha "
                    << alpha << ", beta " << beta << ", A " << host.num_rows << " x " << host.num_cols;
    }
  }
  return ::testing::AssertionSuccess();
}

// Golden 5x5 with two vectors, x and 2x, in both layouts: 2*A*X - 1 by hand.
TYPED_TEST(SpmvMultivector, MultivectorHandComputed) {
  using Device = typename TestFixture::Device;
  const auto A = kspmv::to_device<double, int, int, Device>(golden_5x5());
  const auto run = [&](auto x, auto y) {
    auto xh = Kokkos::create_mirror_view(x);
    auto yh = Kokkos::create_mirror_view(y);
    for (int i = 0; i < 5; ++i) {
      xh(i, 0) = i + 1;
      xh(i, 1) = 2 * (i + 1);
      yh(i, 0) = yh(i, 1) = 1;
    }
    Kokkos::deep_copy(x, xh);
    Kokkos::deep_copy(y, yh);
    kspmv::spmv(2.0, A, x, -1.0, y);
    Kokkos::deep_copy(yh, y);
    std::vector<double> first, second;
    for (int i = 0; i < 5; ++i) {
      first.push_back(yh(i, 0));
      second.push_back(yh(i, 1));
    }
    EXPECT_EQ(first, (std::vector<double>{23, 7, 13, 27, 23}));
    EXPECT_EQ(second, (std::vector<double>{47, 15, 27, 55, 47}));
  };
  run(Kokkos::View<double**, Kokkos::LayoutLeft, Device>("X", 5, 2), Kokkos::View<double**, Kokkos::LayoutLeft, Device>("Y", 5, 2));
  run(Kokkos::View<double**, Kokkos::LayoutRight, Device>("X", 5, 2), Kokkos::View<double**, Kokkos::LayoutRight, Device>("Y", 5, 2));
}

// Every random case (empty rows, a huge row, no rows or columns, alpha 0, beta 0 with NaN in Y,
// tall and wide shapes) with 1 to 17 vectors in both layouts, modes N and T, every algorithm
// that takes several vectors (on GPUs the raw lanes per row and the balanced kernel; the
// automatic call in LayoutRight from 5 vectors on the row lanes or chunks), on CSR and
// load-balanced CSR, in double and float.
TYPED_TEST(SpmvMultivector, MultivectorEveryCase) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<kspmv::SpmvOptions> mode_n = {{kspmv::Algorithm::automatic}, {kspmv::Algorithm::csr_scalar}};
  if (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    kspmv::SpmvOptions lanes{kspmv::Algorithm::raw};
    lanes.lanes_per_row = 4;
    mode_n.push_back(lanes);
    mode_n.push_back({kspmv::Algorithm::csr_balanced});  // the balanced partition, a vector a pass
  }
  using Left = Kokkos::LayoutLeft;
  using Right = Kokkos::LayoutRight;
  for (const RandomCase& c : random_cases) {
    SCOPED_TRACE(c.what);
    const kspmv::HostCsr A = random_csr(c.shape, rng);
    for (const int64_t k : {1, 2, 3, 5, 8, 9, 17}) {
      SCOPED_TRACE("k = " + std::to_string(k));
      for (const auto& o : mode_n) {
        EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Left>(A, "N", c.alpha, k, c.beta,
                                                                                           c.nan_in_y, rng, o)));
        EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Right>(A, "N", c.alpha, k, c.beta,
                                                                                            c.nan_in_y, rng, o)));
      }
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Left>(A, "T", c.alpha, k, c.beta,
                                                                                         c.nan_in_y, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Right>(A, "H", c.alpha, k, c.beta,
                                                                                          c.nan_in_y, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, float, int64_t, size_t, kspmv::CsrMatrix, Right>(
          A, "N", c.alpha, k, c.beta, c.nan_in_y, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::BalancedCsrMatrix, Left>(
          A, "N", c.alpha, k, c.beta, c.nan_in_y, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::BalancedCsrMatrix, Right>(
          A, "T", c.alpha, k, c.beta, c.nan_in_y, rng)));
    }
  }
}

// Runs of 60000 and 40000 empty rows, too long for one block of the balanced partition
// (raw::RowStatistics::crowded_run), beside a row of 4000 entries, too long for the lanes kernel:
// on the raw backends the plain call keeps the balanced kernel on a row-major X rather than the
// chunks, whose group would walk a run a row at a time (launch.hpp: row_major_multivector_kernel).
// Both layouts, 2 to 16 vectors, beta = 0 over NaN and beta != 0.
TYPED_TEST(SpmvMultivector, MultivectorWhereARunOfEmptyRowsIsTooLongForABlock) {
  const uint64_t seed = test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  kspmv::HostCsr h;
  h.num_cols = 5000;
  const auto add_rows = [&](int count, int64_t length) {
    for (int r = 0; r < count; ++r, ++h.num_rows) {
      for (int64_t e = 0; e < length; ++e) {
        h.col_indices.push_back((h.num_rows + 7 * e) % h.num_cols);
        h.values.push_back(0.5 + 0.25 * double((h.num_rows + e) % 5));
      }
      h.row_offsets.push_back(int64_t(h.col_indices.size()));
    }
  };
  add_rows(1, 4000);
  add_rows(60000, 0);
  add_rows(3000, 5);
  add_rows(40000, 0);
  add_rows(1, 2);
  for (const int64_t k : {2, 5, 8, 16}) {
    SCOPED_TRACE("k = " + std::to_string(k));
    for (const double beta : {0.0, -0.5}) {
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Kokkos::LayoutLeft>(
          h, "N", 1.5, k, beta, beta == 0.0, rng)));
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Kokkos::LayoutRight>(
          h, "N", 1.5, k, beta, beta == 0.0, rng)));
    }
  }
  using kspmv::impl::MultivectorKernel;
  const auto A = kspmv::to_device<double, int, int, typename TestFixture::Device>(h);
  const auto& structure = kspmv::impl::csr_analysis(TypeParam(), A)->structure;
  if constexpr (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    EXPECT_GT(structure.crowded_run, 0);
    EXPECT_EQ(structure.crowded_run, 32768);  // runs of 60000 and 40000 rows
    const MultivectorKernel kernel = kspmv::impl::multivector_kernel(
        h.num_rows, int64_t(A.nnz()), structure.longest_row, kspmv::impl::warp_width<TypeParam>(),
        int64_t(TypeParam().concurrency()), structure.window_lines_per_entry, false);
    EXPECT_NE(kspmv::impl::row_major_multivector_kernel(kernel, 8, structure.row_length_variation(), true,
                                                        structure.crowded_run),
              MultivectorKernel::chunks);
  }
}

// Strided X and Y: columns 1..3 of wider LayoutRight Views, and the first 200 rows of a
// LayoutLeft View of 400 (a leading dimension larger than the rows): any strides.
TYPED_TEST(SpmvMultivector, MultivectorStridedViews) {
  using Device = typename TestFixture::Device;
  std::mt19937_64 rng(test_seed());
  const kspmv::HostCsr h = random_csr({300, 200, 12, 0.1, 500}, rng);
  const auto A = kspmv::to_device<double, int, int, Device>(h);
  Kokkos::View<double**, Kokkos::LayoutRight, Device> wide_x("X", 200, 5), wide_y("Y", 300, 6);
  Kokkos::View<double**, Kokkos::LayoutLeft, Device> tall_x("X", 400, 3);
  std::vector<std::vector<double>> x(3), y0(3);
  auto xh = Kokkos::create_mirror(wide_x);  // create_mirror: host copies, never the device View itself
  auto th = Kokkos::create_mirror(tall_x);
  auto yh = Kokkos::create_mirror(wide_y);
  for (int j = 0; j < 3; ++j) {
    x[j] = random_vector(200, rng);
    y0[j] = random_vector(300, rng);
    for (int i = 0; i < 200; ++i) xh(i, j + 1) = th(i, j) = x[j][i];
    for (int i = 0; i < 300; ++i) yh(i, j + 2) = y0[j][i];
  }
  Kokkos::deep_copy(wide_x, xh);
  Kokkos::deep_copy(tall_x, th);
  const auto ys = Kokkos::subview(wide_y, Kokkos::ALL(), Kokkos::make_pair(2, 5));
  const auto x_columns = Kokkos::subview(wide_x, Kokkos::ALL(), Kokkos::make_pair(1, 4));
  const auto x_rows = Kokkos::subview(tall_x, Kokkos::make_pair(0, 200), Kokkos::ALL());
  std::vector<kspmv::Algorithm> algorithms = {kspmv::Algorithm::automatic, kspmv::Algorithm::csr_scalar};
  if (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    algorithms.push_back(kspmv::Algorithm::csr_balanced);  // the balanced kernel on strided X and Y
  }
  for (const auto algorithm : algorithms) {
    for (const bool rows : {false, true}) {
      SCOPED_TRACE(std::string(kspmv::to_string(algorithm)) + (rows ? ", X of 200 of 400 rows" : ", X of 3 of 5 columns"));
      Kokkos::deep_copy(wide_y, yh);
      if (rows) {
        kspmv::spmv(1.5, A, x_rows, -0.5, ys, {algorithm});
      } else {
        kspmv::spmv(1.5, A, x_columns, -0.5, ys, {algorithm});
      }
      auto result = Kokkos::create_mirror(wide_y);
      Kokkos::deep_copy(result, wide_y);
      for (int j = 0; j < 3; ++j) {
        std::vector<double> column(300);
        for (int i = 0; i < 300; ++i) column[i] = result(i, j + 2);
        EXPECT_TRUE(matches_reference(column, reference_spmv(1.5, h, x[j], -0.5, y0[j])));
      }
      for (int i = 0; i < 300; ++i) {  // outside the subview: untouched
        EXPECT_EQ(result(i, 0), 0.0);
        EXPECT_EQ(result(i, 1), 0.0);
        EXPECT_EQ(result(i, 5), 0.0);
      }
    }
  }
  // alpha = 0: Y = beta*Y alone (scale_y), on the strided columns only; the contiguous Views of
  // both layouts take the flat path, covered by MultivectorEveryCase.
  Kokkos::deep_copy(wide_y, yh);
  kspmv::spmv(0.0, A, x_columns, -0.5, ys);
  auto scaled = Kokkos::create_mirror(wide_y);
  Kokkos::deep_copy(scaled, wide_y);
  for (int i = 0; i < 300; ++i) {
    for (int j = 0; j < 3; ++j) EXPECT_EQ(scaled(i, j + 2), -0.5 * y0[j][i]);
    EXPECT_EQ(scaled(i, 0), 0.0);
    EXPECT_EQ(scaled(i, 1), 0.0);
    EXPECT_EQ(scaled(i, 5), 0.0);
  }
}

// Column-major X on a matrix beyond the GPU's cache with random columns: the raw kernels read a
// row-major copy of X (launch.hpp: stage_x_row_major), both the lanes kernel (rows of even
// length, whose gathers miss the cache: 2 entries a lane; at 8 vectors the row lanes) and the
// split entries (a row of a million entries: launch.hpp, multivector_kernel). The copy goes into memory kept with A's analysis: 3 vectors,
// then 8 (grown), then 3 again (reused).
// GPUs with the raw kernels only: elsewhere nothing is copied.
TYPED_TEST(SpmvMultivector, MultivectorRowMajorCopyOfScatteredX) {
  if constexpr (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    GTEST_SKIP() << "no raw kernels on this backend: X is read as given";
  } else {
    using Device = typename TestFixture::Device;
    std::mt19937_64 rng(test_seed());
    const int64_t n = 4000000;  // 8 entries a row: 384 MB of CSR, beyond any GPU's L2
    for (const int64_t long_row : {int64_t(0), int64_t(1000000)}) {
      SCOPED_TRACE(long_row ? "a row of a million entries" : "rows of 0 to 16 entries");
      const kspmv::HostCsr h = random_csr({n, n, 16, 0.0, long_row}, rng);
      const auto A = kspmv::to_device<double, int, int, Device>(h);
      for (const int64_t k : {int64_t(3), int64_t(8), int64_t(3)}) {  // the copy's memory kept, grown, reused
      SCOPED_TRACE(std::to_string(k) + " vectors");
      Kokkos::View<double**, Kokkos::LayoutLeft, Device> X("X", n, k), Y("Y", n, k);
      std::vector<std::vector<double>> x(k), y0(k);
      auto xh = Kokkos::create_mirror(X);
      auto yh = Kokkos::create_mirror(Y);
      for (int64_t j = 0; j < k; ++j) {
        x[j] = random_vector(n, rng);
        y0[j] = random_vector(n, rng);
        for (int64_t i = 0; i < n; ++i) {
          xh(i, j) = x[j][i];
          yh(i, j) = y0[j][i];
        }
      }
      Kokkos::deep_copy(X, xh);
      Kokkos::deep_copy(Y, yh);
      kspmv::spmv(TypeParam(), 1.5, A, X, -0.5, Y);
      const auto& structure = kspmv::impl::csr_analysis(TypeParam(), A)->structure;
      EXPECT_TRUE(kspmv::impl::stage_x_row_major(int64_t(X.stride(0)), k, structure.window_lines_per_entry))
          << "lines an entry " << structure.window_lines_per_entry;
      // Random columns over all n: a window's gathers reach about 76% of x (the 4th and 29th of
      // 32 samples), for 3 vectors more than an L2 of 60 MB (H100: 50, H200: 60) holds.
      const double least_reach = 0.7 * double(n) * sizeof(double), cache = double(kspmv::impl::raw::l2_cache_bytes());
      EXPECT_GT(structure.window_reach_bytes, least_reach);
      EXPECT_LT(structure.window_reach_bytes, 0.9 * double(n) * sizeof(double));
      const bool miss = kspmv::impl::gathers_miss_cache(structure.window_lines_per_entry,
                                                        structure.window_reach_bytes, k, cache);
      if (cache > 0 && least_reach * double(k) > cache) EXPECT_TRUE(miss);
      EXPECT_GE(kspmv::impl::csr_analysis(TypeParam(), A)->bytes(), size_t(n * k) * sizeof(double));
      // A window's gathers over 70% of x: not within an eighth of the L2 (multivector_kernel).
      EXPECT_FALSE(kspmv::impl::scattered_gathers_stay_in_cache(structure.window_lines_per_entry,
                                                                structure.window_reach_bytes, k, cache));
      const auto kernel = kspmv::impl::multivector_kernel(n, int64_t(A.nnz()), structure.longest_row,
                                                          kspmv::impl::warp_width<TypeParam>(),
                                                          int64_t(TypeParam().concurrency()),
                                                          structure.window_lines_per_entry, false);
      using kspmv::impl::MultivectorKernel;
      EXPECT_EQ(kernel, long_row ? MultivectorKernel::entries : MultivectorKernel::lanes);
      EXPECT_EQ(kspmv::impl::row_major_multivector_kernel(kernel, k, structure.row_length_variation(), false),
                long_row ? MultivectorKernel::entries
                         : (k >= 5 ? MultivectorKernel::row_lanes : MultivectorKernel::lanes));
      Kokkos::deep_copy(yh, Y);
      for (int64_t j = 0; j < k; ++j) {
        std::vector<double> column(n);
        for (int64_t i = 0; i < n; ++i) column[i] = yh(i, j);
        EXPECT_TRUE(matches_reference(column, reference_spmv(1.5, h, x[j], -0.5, y0[j])));
      }
      }
    }
  }
}

// Column-major X whose gathers scatter, on rows of uneven length, Y row-major: the row-major copy
// of X feeds the chunks (launch.hpp: row_major_multivector_kernel), which ran on X as given until
// 4825b3a (relative errors of 1.4 on ca-CondMat and p2p-Gnutella09 replicated at 8 vectors in a
// lab call that sent a column-major Y there too). Y column-major as well (the row lanes), X and Y
// as they are (no staging of both around the call).
TYPED_TEST(SpmvMultivector, MultivectorChunksOnRowMajorCopyOfScatteredX) {
  if constexpr (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    GTEST_SKIP() << "no raw kernels on this backend: X is read as given";
  } else {
    using Device = typename TestFixture::Device;
    struct Unforce {
      ~Unforce() { kspmv::impl::multivector_way_for_tests() = -1; }
    } unforce;
    kspmv::impl::multivector_way_for_tests() = int(kspmv::impl::MultivectorWay::as_is);
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    // 3M rows: 7 in 8 of 1 to 3 entries, 1 in 8 of 20 to 30 (lengths varying 1.6 times their
    // mean), columns anywhere: about 14.6M entries, so that the longest row (a lane a row) stays
    // within a resident thread's share (54 on an H100 or H200), as multivector_kernel asks of
    // the lanes kernel (a first form of 1M rows up to 50 entries took the split entries).
    const int64_t n = 3000000, k = 8;
    kspmv::HostCsr h;
    h.num_rows = h.num_cols = n;
    std::uniform_int_distribution<int64_t> column(0, n - 1);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    for (int64_t i = 0; i < n; ++i) {
      const int64_t length = rng() % 8 == 0 ? 20 + int64_t(rng() % 11) : 1 + int64_t(rng() % 3);
      std::vector<int64_t> row(static_cast<size_t>(length));
      for (auto& c : row) c = column(rng);
      std::sort(row.begin(), row.end());
      row.erase(std::unique(row.begin(), row.end()), row.end());
      for (const int64_t c : row) {
        h.col_indices.push_back(c);
        h.values.push_back(value(rng));
      }
      h.row_offsets.push_back(int64_t(h.col_indices.size()));
    }
    const auto A = kspmv::to_device<double, int, int, Device>(h);
    std::vector<std::vector<double>> x(k), y0(k);
    Kokkos::View<double**, Kokkos::LayoutLeft, Device> X("X", n, k);
    auto xh = Kokkos::create_mirror(X);
    for (int64_t j = 0; j < k; ++j) {
      x[j] = random_vector(size_t(n), rng);
      y0[j] = random_vector(size_t(n), rng);
      for (int64_t i = 0; i < n; ++i) xh(i, j) = x[j][i];
    }
    Kokkos::deep_copy(X, xh);
    const auto check = [&](const auto& Y, const char* layout) {
      SCOPED_TRACE(layout);
      auto yh = Kokkos::create_mirror(Y);
      for (int64_t j = 0; j < k; ++j) {
        for (int64_t i = 0; i < n; ++i) yh(i, j) = y0[j][i];
      }
      Kokkos::deep_copy(Y, yh);
      kspmv::spmv(TypeParam(), 1.5, A, X, -0.5, Y);
      Kokkos::deep_copy(yh, Y);
      for (int64_t j = 0; j < k; ++j) {
        std::vector<double> column_j(static_cast<size_t>(n));
        for (int64_t i = 0; i < n; ++i) column_j[size_t(i)] = yh(i, j);
        EXPECT_TRUE(matches_reference(column_j, reference_spmv(1.5, h, x[j], -0.5, y0[j]))) << "vector " << j;
      }
    };
    check(Kokkos::View<double**, Kokkos::LayoutLeft, Device>("Y", n, k), "Y LayoutLeft");
    check(Kokkos::View<double**, Kokkos::LayoutRight, Device>("Y", n, k), "Y LayoutRight");
    // The path this test is for: the lanes kernel by the structure, X staged, then the chunks
    // (Y row-major).
    const auto& structure = kspmv::impl::csr_analysis(TypeParam(), A)->structure;
    const int wave = kspmv::impl::warp_width<TypeParam>();
    const auto kernel = kspmv::impl::multivector_kernel(n, int64_t(A.nnz()), structure.longest_row, wave,
                                                        int64_t(TypeParam().concurrency()),
                                                        structure.window_lines_per_entry, false);
    using kspmv::impl::MultivectorKernel;
    EXPECT_EQ(kernel, MultivectorKernel::lanes);
    EXPECT_TRUE(kspmv::impl::stage_x_row_major(int64_t(X.stride(0)), k, structure.window_lines_per_entry))
        << "lines an entry " << structure.window_lines_per_entry;
    EXPECT_EQ(kspmv::impl::row_major_multivector_kernel(kernel, k, structure.row_length_variation(), true),
              MultivectorKernel::chunks)
        << "row length variation " << structure.row_length_variation();
  }
}

// The ways the plain call times (launch.hpp: multivector_ways), each forced: column-major X and Y
// as they are, staged row-major around the kernels of row-major X and Y, and the balanced kernel,
// on every random case at 3, 5, 8 and 17 vectors, and with X and Y the first rows of taller
// LayoutLeft Views (leading dimensions above their rows); a row-major X and Y as they are and
// through the chunks at 2, 3, 4 and 8 vectors. Then the plain call timing them on A's first call
// with that many vectors (twice: timed, then kept). GPUs with the raw kernels only.
TYPED_TEST(SpmvMultivector, MultivectorStagedRowMajor) {
  if constexpr (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    GTEST_SKIP() << "no raw kernels on this backend";
  } else {
    using Device = typename TestFixture::Device;
    struct Unforce {
      ~Unforce() { kspmv::impl::multivector_way_for_tests() = -1; }
    } unforce;
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    using kspmv::impl::MultivectorWay;
    for (const MultivectorWay way : {MultivectorWay::chunks, MultivectorWay::as_is}) {
      kspmv::impl::multivector_way_for_tests() = int(way);
      SCOPED_TRACE(way == MultivectorWay::chunks ? "row-major X, the chunks" : "row-major X as it is");
      for (const auto& c : random_cases) {
        SCOPED_TRACE(c.what);
        const kspmv::HostCsr h = random_csr(c.shape, rng);
        for (const int64_t k : {2, 3, 4, 8}) {
          EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Kokkos::LayoutRight>(
              h, "N", c.alpha, k, c.beta, c.nan_in_y, rng)));
        }
      }
    }
    for (const MultivectorWay way : {MultivectorWay::as_is, MultivectorWay::staged, MultivectorWay::balanced}) {
      kspmv::impl::multivector_way_for_tests() = int(way);
      SCOPED_TRACE(way == MultivectorWay::staged ? "staged" : way == MultivectorWay::balanced ? "balanced" : "as they are");
      for (const auto& c : random_cases) {
        SCOPED_TRACE(c.what);
        const kspmv::HostCsr h = random_csr(c.shape, rng);
        for (const int64_t k : {3, 5, 8, 17}) {
          EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Kokkos::LayoutLeft>(
              h, "N", c.alpha, k, c.beta, c.nan_in_y, rng)));
        }
      }
      const kspmv::HostCsr h = random_csr({300, 200, 12, 0.1, 500}, rng);
      const auto A = kspmv::to_device<double, int, int, Device>(h);
      const int64_t k = 6;
      Kokkos::View<double**, Kokkos::LayoutLeft, Device> tall_x("X", 250, k), tall_y("Y", 320, k);
      auto xh = Kokkos::create_mirror(tall_x);
      auto yh = Kokkos::create_mirror(tall_y);
      std::vector<std::vector<double>> x(k), y0(k);
      for (int64_t j = 0; j < k; ++j) {
        x[j] = random_vector(200, rng);
        y0[j] = random_vector(300, rng);
        for (int i = 0; i < 200; ++i) xh(i, j) = x[j][i];
        for (int i = 0; i < 300; ++i) yh(i, j) = y0[j][i];
        for (int i = 300; i < 320; ++i) yh(i, j) = 7.0;  // below Y's rows: must stay
      }
      Kokkos::deep_copy(tall_x, xh);
      Kokkos::deep_copy(tall_y, yh);
      kspmv::spmv(1.5, A, Kokkos::subview(tall_x, Kokkos::make_pair(0, 200), Kokkos::ALL()), -0.5,
                  Kokkos::subview(tall_y, Kokkos::make_pair(0, 300), Kokkos::ALL()));
      Kokkos::deep_copy(yh, tall_y);
      for (int64_t j = 0; j < k; ++j) {
        std::vector<double> column(300);
        for (int i = 0; i < 300; ++i) column[i] = yh(i, j);
        EXPECT_TRUE(matches_reference(column, reference_spmv(1.5, h, x[j], -0.5, y0[j]))) << "strided, vector " << j;
        for (int i = 300; i < 320; ++i) EXPECT_EQ(yh(i, j), 7.0) << "row " << i << " below Y, vector " << j;
      }
    }
    kspmv::impl::multivector_way_for_tests() = -1;
    const kspmv::HostCsr h = random_csr({3000, 2500, 40, 0.1, 0}, rng);
    for (int call = 0; call < 2; ++call) {
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Kokkos::LayoutLeft>(
          h, "N", 1.25, 8, call == 0 ? 0.0 : -0.5, call == 0, rng)))
          << "timed choice, call " << call;
      EXPECT_TRUE((check_multivector<TypeParam, double, int, int, kspmv::CsrMatrix, Kokkos::LayoutRight>(
          h, "N", 1.25, 4, call == 0 ? 0.0 : -0.5, call == 0, rng)))
          << "timed choice, row-major, call " << call;
    }
    // The timed first call keeps no more than X's and Y's row-major copies (and the partition's
    // few blocks): its scratch Y is freed.
    const auto A = kspmv::to_device<double, int, int, Device>(h);
    const int64_t k = 8;
    Kokkos::View<double**, Kokkos::LayoutLeft, Device> X("X", h.num_cols, k), Y("Y", h.num_rows, k);
    kspmv::spmv(TypeParam(), 1.0, A, X, 0.0, Y);
    const size_t copies = size_t(h.num_rows + h.num_cols) * size_t(k) * sizeof(double);
    EXPECT_LT(kspmv::impl::csr_analysis(TypeParam(), A)->bytes(), copies + size_t(h.num_rows) * k * sizeof(double) / 2);
  }
}

// The kernels with lanes over the vectors of a row-major X (src/raw/csr_multivector_row_lanes.hpp,
// csr_multivector_chunks.hpp), called directly on every random case and on rows ending exactly
// where a chunk of 32 entries does, followed by empty rows (the chunks' scale kernel writes those)
// and ending at nnz: 5 to 17 vectors, X's rows aligned for two vectors a lane (k even) or not (k
// odd, or X the columns 1..k of a View of k + 1), A's entries aligned for the chunks' 16-byte
// loads or not, Y LayoutRight and LayoutLeft. The plain call
// takes them on the raw backends from 5 vectors on (launch.hpp: row_major_multivector_kernel).
TYPED_TEST(SpmvMultivector, MultivectorRowLanesAndChunks) {
  if constexpr (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    GTEST_SKIP() << "no raw kernels on this backend";
  } else {
    using Device = typename TestFixture::Device;
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    std::vector<RandomCase> cases(std::begin(random_cases), std::end(random_cases));
    // Short rows: a block of the chunks (2048 entries) over about 2000 rows; one row of 300 spans
    // chunks.
    cases.push_back({"short rows", {6000, 500, 2, 0.3, 300}, 1.25, -0.5, false});
    kspmv::HostCsr edges;  // rows of 32, 0, 0, 0, 5, 40, 0, 0 entries in 30 columns
    edges.num_rows = 8;
    edges.num_cols = 30;
    for (const int length : {32, 0, 0, 0, 5, 40, 0, 0}) {
      for (int e = 0; e < length; ++e) {
        edges.col_indices.push_back((e * 7) % 30);
        edges.values.push_back(1.0 + 0.25 * e);
      }
      edges.row_offsets.push_back(int64_t(edges.col_indices.size()));
    }
    // Runs of empty rows among short rows and a long one: the chunks of one wave search for their
    // first rows over spans of 1 to thousands of rows, so the wave's groups finish their searches
    // after different counts of steps (the search votes as a whole wave).
    kspmv::HostCsr runs;
    runs.num_rows = 0;
    runs.num_cols = 50;
    const auto add_rows = [&](int count, int length) {
      for (int r = 0; r < count; ++r, ++runs.num_rows) {
        for (int e = 0; e < length; ++e) {
          runs.col_indices.push_back((runs.num_rows * 3 + e * 11) % 50);
          runs.values.push_back(0.5 + 0.125 * ((runs.num_rows + e) % 9));
        }
        runs.row_offsets.push_back(int64_t(runs.col_indices.size()));
      }
    };
    for (int run = 0; run < 4; ++run) {
      add_rows(300, 3);
      add_rows(2500 * (run + 1), 0);
      add_rows(1, 700);
      add_rows(7, 1);
      add_rows(run, 0);
    }
    for (const bool chunks : {false, true}) {
      for (size_t c = 0; c <= cases.size() + 1; ++c) {
        const bool edge = c == cases.size(), run_case = c == cases.size() + 1;
        SCOPED_TRACE(std::string(chunks ? "chunks, " : "row lanes, ") +
                     (edge ? "chunk edges" : run_case ? "runs of empty rows" : cases[c].what));
        const kspmv::HostCsr h = edge ? edges : run_case ? runs : random_csr(cases[c].shape, rng);
        const double alpha = edge || run_case ? 1.5 : cases[c].alpha, beta = edge ? 0.0 : run_case ? 0.5 : cases[c].beta;
        const bool nan_in_y = edge || (!run_case && cases[c].nan_in_y);
        const auto A = kspmv::to_device<double, int, int, Device>(h);
        // A's entries one place into Views of nnz + 1: cols and vals not aligned to the chunks'
        // loads of a group's entries (up to 16 bytes), which then run the row lanes instead.
        const int64_t nnz = int64_t(A.nnz());
        Kokkos::View<int*, Device> shifted_cols("cols", nnz + 1);
        Kokkos::View<double*, Device> shifted_vals("vals", nnz + 1);
        Kokkos::deep_copy(Kokkos::subview(shifted_cols, Kokkos::make_pair(int64_t(1), nnz + 1)), A.col_indices);
        Kokkos::deep_copy(Kokkos::subview(shifted_vals, Kokkos::make_pair(int64_t(1), nnz + 1)), A.values);
        for (const int64_t k : {5, 6, 8, 9, 16, 17}) {
          for (const bool offset_x : {false, true}) {
            for (const bool shifted : {false, true}) {
              if (shifted && !chunks) continue;
              for (const bool left_y : {false, true}) {
                SCOPED_TRACE("k = " + std::to_string(k) + (offset_x ? ", X from column 1" : "") +
                             (shifted ? ", entries one place on" : "") + (left_y ? ", Y LayoutLeft" : ""));
                Kokkos::View<double**, Kokkos::LayoutRight, Device> wide_x("X", h.num_cols, k + 1);
                const auto X = Kokkos::subview(wide_x, Kokkos::ALL(), Kokkos::make_pair(offset_x ? 1 : 0, int(k) + (offset_x ? 1 : 0)));
                Kokkos::View<double**, Kokkos::LayoutLeft, Device> y_left("Y", h.num_rows, k);
                Kokkos::View<double**, Kokkos::LayoutRight, Device> y_right("Y", h.num_rows, k);
                std::vector<std::vector<double>> x(k), y0(k);
                auto xh = Kokkos::create_mirror(wide_x);
                auto ylh = Kokkos::create_mirror(y_left);
                auto yrh = Kokkos::create_mirror(y_right);
                for (int64_t j = 0; j < k; ++j) {
                  x[j] = random_vector(size_t(h.num_cols), rng);
                  y0[j] = random_vector(size_t(h.num_rows), rng);
                  if (nan_in_y) std::fill(y0[j].begin(), y0[j].end(), nan);
                  for (int64_t i = 0; i < h.num_cols; ++i) xh(i, j + (offset_x ? 1 : 0)) = x[j][i];
                  for (int64_t i = 0; i < h.num_rows; ++i) ylh(i, j) = yrh(i, j) = y0[j][i];
                }
                Kokkos::deep_copy(wide_x, xh);
                Kokkos::deep_copy(y_left, ylh);
                Kokkos::deep_copy(y_right, yrh);
                double* y = left_y ? y_left.data() : y_right.data();
                const int64_t y_row = left_y ? 1 : k, y_vector = left_y ? h.num_rows : 1;
                const TypeParam space;
                if (chunks) {
                  const auto& partition = kspmv::impl::csr_analysis(space, A)->balanced(space, A);
                  kspmv::impl::raw::csr_multivector_chunks<double, int, int>(
                      kspmv::impl::native_stream(space), A.num_rows(), int64_t(A.nnz()), partition.entries_per_block(),
                      partition.block_first_row.data(), k, A.row_offsets.data(),
                      shifted ? shifted_cols.data() + 1 : A.col_indices.data(),
                      shifted ? shifted_vals.data() + 1 : A.values.data(), X.data(), int64_t(X.stride(0)), y, y_row,
                      y_vector, alpha, beta);
                } else {
                  kspmv::impl::raw::csr_multivector_row_lanes<double, int, int>(
                      kspmv::impl::native_stream(space), A.num_rows(), k, A.row_offsets.data(), A.col_indices.data(),
                      A.values.data(), X.data(), int64_t(X.stride(0)), y, y_row, y_vector, alpha, beta);
                }
                space.fence();
                Kokkos::deep_copy(ylh, y_left);
                Kokkos::deep_copy(yrh, y_right);
                for (int64_t j = 0; j < k; ++j) {
                  std::vector<double> column(size_t(h.num_rows));
                  for (int64_t i = 0; i < h.num_rows; ++i) column[i] = left_y ? ylh(i, j) : yrh(i, j);
                  EXPECT_TRUE(matches_reference(column, reference_spmv(alpha, h, x[j], beta, y0[j])))
                      << "vector " << j << " of " << k;
                }
              }
            }
          }
        }
      }
    }
  }
}

TYPED_TEST(SpmvMultivector, MultivectorErrors) {
  using Device = typename TestFixture::Device;
  const auto A = kspmv::to_device<double, int, int, Device>(golden_5x5());
  Kokkos::View<double**, Kokkos::LayoutLeft, Device> x2("X", 5, 2), y2("Y", 5, 2), y3("Y", 5, 3), y4rows("Y", 4, 2);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, x2, 0.0, y3); }).find("x has 2 vectors (columns), y has 3"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, x2, 0.0, y4rows); }).find("A is 5 x 5, x has 5 rows (needs 5), y has 4 rows (needs 5)"), std::string::npos);
  const auto ell = kspmv::convert<kspmv::EllMatrix>(A);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, ell, x2, 0.0, y2); })
                .find("rank-2 x and y (several vectors) are not supported for EllMatrix"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, x2, 0.0, y2, {kspmv::Algorithm::csr_vector}); })
                .find("with several vectors, mode N takes"),
            std::string::npos);
  EXPECT_NE(invalid_argument_message([&] { kspmv::spmv("T", 1.0, A, x2, 0.0, y2, {kspmv::Algorithm::raw}); })
                .find("with several vectors, mode T takes"),
            std::string::npos);
  kspmv::SpmvOptions lanes{kspmv::Algorithm::raw};
  lanes.lanes_per_row = 3;
  // Without the raw kernels the algorithm is refused before its tunable is looked at.
  EXPECT_TRUE(throws_with<std::invalid_argument>([&] { kspmv::spmv(1.0, A, x2, 0.0, y2, lanes); },
                                                 kspmv::impl::raw_available<TypeParam, double, int, int>()
                                                     ? "lanes_per_row = 3 must be a power of two"
                                                     : "with several vectors, algorithm raw needs the raw kernels"));
  if (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    for (const auto a : {kspmv::Algorithm::raw, kspmv::Algorithm::csr_balanced}) {
      EXPECT_NE(invalid_argument_message([&] { kspmv::spmv(1.0, A, x2, 0.0, y2, {a}); })
                    .find(std::string("with several vectors, algorithm ") + kspmv::to_string(a) + " needs the raw kernels"),
                std::string::npos);
    }
  }
  // No vectors: nothing to do, and no error.
  Kokkos::View<double**, Kokkos::LayoutLeft, Device> x0("X", 5, 0), y0("Y", 5, 0);
  EXPECT_NO_THROW(kspmv::spmv(1.0, A, x0, 0.0, y0));
}

}  // namespace
}  // namespace kspmv_test
