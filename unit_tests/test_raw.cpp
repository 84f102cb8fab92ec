// The raw HIP/CUDA kernels (impl/raw.hpp) through kspmv::spmv with Algorithm::raw: on GPU
// backends of a raw build, the whole CSR suite at every group size and the blocked ELLPACK suite;
// everywhere else, a clear error instead of a silent fallback.
#include <kspmv/impl/raw.hpp>

#include "cases.hpp"

namespace kspmv_test {
namespace {

template <class ExecSpace>
class Raw : public ::testing::Test {};
TYPED_TEST_SUITE(Raw, Backends, BackendName);

kspmv::SpmvOptions raw(int lanes = 0, int block_threads = 0) {
  kspmv::SpmvOptions o;
  o.algorithm = kspmv::Algorithm::raw;
  o.lanes_per_row = lanes;
  o.team_size = block_threads;
  return o;
}

TYPED_TEST(Raw, CsrSuiteAtEveryGroupSize) {
  // if constexpr: raw::wave_size() exists only in builds that compile the raw kernels.
  if constexpr (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    std::vector<kspmv::SpmvOptions> options{raw()};
    for (int lanes = 1; lanes <= kspmv::impl::warp_width<TypeParam>(); lanes *= 2) options.push_back(raw(lanes));
    EXPECT_EQ(kspmv::impl::raw::wave_size(), kspmv::impl::warp_width<TypeParam>());
    run_format_suite<TypeParam, kspmv::CsrMatrix, int64_t>(options, kspmv::ConvertOptions(), all_real_matrices);
  } else {
    GTEST_SKIP() << "no raw kernels on this backend";
  }
}

TYPED_TEST(Raw, BlockedEllSuiteWithSlicesOfOneWave) {
  if (!kspmv::impl::raw_available<TypeParam, double, int, int>()) GTEST_SKIP() << "no raw kernels on this backend";
  kspmv::ConvertOptions unsorted, sorted;
  unsorted.max_fill_ratio = sorted.max_fill_ratio = 1e12;
  sorted.sigma = 4 * kspmv::impl::warp_width<TypeParam>();
  run_format_suite<TypeParam, kspmv::BlockedEllMatrix, int64_t>({raw()}, unsorted, all_real_matrices);
  run_format_suite<TypeParam, kspmv::BlockedEllMatrix, int64_t>({raw()}, sorted, {"wiki-Vote.mtx", "rajat01.mtx"});
}

// raw::small_storage_*: a block given back is served again for the same size; more than
// small_storage_max_bytes is refused (the caller then allocates from the memory space).
TYPED_TEST(Raw, SmallStorageReusesBlocks) {
  if constexpr (!kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    GTEST_SKIP() << "no raw kernels on this backend";
  } else {
    namespace raw = kspmv::impl::raw;
    EXPECT_EQ(raw::small_storage_allocate(raw::small_storage_max_bytes + 1), nullptr);
    void* a = raw::small_storage_allocate(3000);
    void* b = raw::small_storage_allocate(3000);
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_NE(a, b);
    raw::small_storage_free(b, 3000);
    EXPECT_EQ(raw::small_storage_allocate(4096), b);  // the same 4 KiB class
    raw::small_storage_free(a, 3000);
    raw::small_storage_free(b, 4096);
  }
}

TYPED_TEST(Raw, BalancedCsrSuite) {
  if (!kspmv::impl::raw_available<TypeParam, double, int, int>()) GTEST_SKIP() << "no raw kernels on this backend";
  // Blocks of 256 threads (the default) and of 512 (for gathers that miss the caches).
  run_format_suite<TypeParam, kspmv::BalancedCsrMatrix, int64_t>({raw(), raw(0, 512)}, kspmv::ConvertOptions(),
                                                                  all_real_matrices);
}

// spmv picks one launch (rows spanning blocks finished by the last block to reach them) for
// matrices of up to 4096 blocks, so the suites above never run the two-launch finish: both are
// run here on the same partition, against the reference and for the same bits; so are fewer
// blocks resident a multiprocessor (more L1, the same kernel), and out-of-range counts refused.
TYPED_TEST(Raw, BalancedOneAndTwoLaunchesAgree) {
  if constexpr (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    using Device = DeviceOf<TypeParam>;
    const uint64_t seed = test_seed();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    const kspmv::HostCsr h = random_csr(RandomShape{5000, 3000, 300, 0.2, 40000}, rng);
    const auto A = kspmv::convert<kspmv::BalancedCsrMatrix>(kspmv::to_device<double, int, int, Device>(h));
    const auto x_host = random_vector(h.num_cols, rng);
    const auto y0 = random_vector(h.num_rows, rng);
    const auto x = to_device_vector<double, Device>(x_host, "x");
    for (const int threads : {256, 512}) {
      std::vector<std::vector<double>> results;
      const int64_t blocks = A.num_blocks();
      const auto run = [&](bool single_pass, int resident_blocks, const Kokkos::View<double*, Device>& y) {
        kspmv::impl::raw::csr_balanced<double, int, int>(
            kspmv::impl::native_stream(TypeParam()), single_pass, threads, resident_blocks, A.nnz(),
            A.entries_per_block(), blocks, A.block_first_row.data(), A.csr.row_offsets.data(),
            A.csr.col_indices.data(), A.csr.values.data(), x.data(), y.data(), A.partial_sums.data(),
            A.partial_sums.data() + blocks, A.arrivals.data(), 2.0, -1.0);
      };
      // the counters must be reset after a one-launch call
      const std::pair<bool, int> runs[] = {{true, 0}, {false, 0}, {true, 0}, {true, 3}, {false, 1}};
      for (const auto& [single_pass, resident_blocks] : runs) {
        auto y = to_device_vector<double, Device>(y0, "y");
        run(single_pass, resident_blocks, y);
        TypeParam().fence();
        results.push_back(to_std_vector(y));
        EXPECT_TRUE(matches_reference(results.back(), reference_spmv(2.0, h, x_host, -1.0, y0)))
            << single_pass << " " << threads << " " << resident_blocks;
      }
      for (size_t i = 1; i < results.size(); ++i) EXPECT_EQ(results[0], results[i]) << threads << " run " << i;
      auto y = to_device_vector<double, Device>(y0, "y");
      for (const int resident_blocks : {-1, 33}) {
        std::string message;
        try {
          run(true, resident_blocks, y);
        } catch (const std::invalid_argument& e) {
          message = e.what();
        }
        EXPECT_NE(message.find("blocks resident a multiprocessor"), std::string::npos) << resident_blocks << ": " << message;
      }
    }
  } else {
    GTEST_SKIP() << "no raw kernels on this backend";
  }
}

TYPED_TEST(Raw, UnavailableOrUnsupportedIsAnError) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::to_device<double, int, unsigned, Device>(golden_5x5());  // unsigned offsets: never raw
  Kokkos::View<double*, Device> x("x", 5), y("y", 5);
  try {
    kspmv::spmv(1.0, A, x, 0.0, y, raw());
    ADD_FAILURE() << "raw accepted unsigned offsets";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("algorithm raw needs"), std::string::npos) << e.what();
  }
  if (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    kspmv::ConvertOptions half_wave;
    half_wave.slice_height = kspmv::impl::warp_width<TypeParam>() / 2;
    const auto B = kspmv::convert<kspmv::BlockedEllMatrix>(kspmv::to_device<double, int, int, Device>(golden_5x5()), half_wave);
    EXPECT_THROW(kspmv::spmv(1.0, B, x, 0.0, y, raw()), std::invalid_argument);
    const auto C = kspmv::convert<kspmv::BalancedCsrMatrix>(kspmv::to_device<double, int, int, Device>(golden_5x5()));
    try {
      kspmv::spmv(1.0, C, x, 0.0, y, raw(0, 300));
      ADD_FAILURE() << "raw balanced CSR accepted blocks of 300 threads";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("256 or 512"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace kspmv_test
