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

kspmv::SpmvOptions raw(int lanes = 0) {
  kspmv::SpmvOptions o;
  o.algorithm = kspmv::Algorithm::raw;
  o.lanes_per_row = lanes;
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

TYPED_TEST(Raw, UnavailableOrUnsupportedIsAnError) {
  using Device = DeviceOf<TypeParam>;
  const auto A = kspmv::to_device<double, int, size_t, Device>(golden_5x5());  // size_t offsets: never raw
  Kokkos::View<double*, Device> x("x", 5), y("y", 5);
  try {
    kspmv::spmv(1.0, A, x, 0.0, y, raw());
    ADD_FAILURE() << "raw accepted size_t offsets";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("algorithm raw needs"), std::string::npos) << e.what();
  }
  if (kspmv::impl::raw_available<TypeParam, double, int, int>()) {
    kspmv::ConvertOptions half_wave;
    half_wave.slice_height = kspmv::impl::warp_width<TypeParam>() / 2;
    const auto B = kspmv::convert<kspmv::BlockedEllMatrix>(kspmv::to_device<double, int, int, Device>(golden_5x5()), half_wave);
    EXPECT_THROW(kspmv::spmv(1.0, B, x, 0.0, y, raw()), std::invalid_argument);
  }
}

}  // namespace
}  // namespace kspmv_test
