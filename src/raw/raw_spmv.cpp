// The raw kernels' API (include/kspmv/impl/raw.hpp), compiled as CUDA or HIP. Each function
// instantiates the kernels for this platform's wave width. The kernels of several vectors are
// raw_multivector.cpp's (a translation unit of their own, so that the two compile in parallel).
#include "kernels.hpp"
// after kernels.hpp, whose device functions it uses
#include "cg_grid.hpp"
// after cg_grid.hpp, whose block_sums it uses
#include "cg_steps.hpp"

#include "kspmv/impl/raw.hpp"

#include <atomic>
#include <cstring>
#include <mutex>
#include <vector>

namespace kspmv {
namespace impl {
namespace raw {

int wave_size() { return kWaveSize; }

template <class S, class O, class Off>
void csr_vector(void* stream, int group_size, int64_t num_rows, const Off* offsets, const O* cols, const S* vals,
                const S* x, S* y, S alpha, S beta) {
  launch_csr_vector<kWaveSize, 1>(static_cast<stream_type>(stream), group_size, num_rows, offsets, cols, vals, x, y,
                                  alpha, beta);
}

static_assert(kBalancedMaxEntries == balanced_max_entries, "the raw balanced kernel's stage and its API disagree");
static_assert(kCrowdedRunRows == crowded_run_rows, "row_statistics' runs and its API disagree");

template <class S, class O, class Off, class V>
void csr_balanced(void* stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz,
                  int64_t entries_per_block, int64_t num_blocks, const O* first_row, const Off* offsets, const O* cols, const V* vals, const S* x,
                  S* y, S* head_sum, S* tail_sum, int* arrivals, S alpha, S beta) {
  launch_csr_balanced<kWaveSize>(static_cast<stream_type>(stream), single_pass, block_threads, resident_blocks, nnz,
                                 entries_per_block,
                                 num_blocks, first_row, offsets, CsrColumns<O>{cols}, StoredValues<V>{vals}, x, y, head_sum, tail_sum,
                                 arrivals, alpha, beta);
}

template <class S, class O, class Off>
void csr16_balanced(void* stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz,
                    int64_t num_blocks,
                    const O* first_row, const Off* offsets, const uint16_t* col_low, const O* block_base,
                    const int64_t* wide_offset, const uint16_t* col_high, const S* vals, const S* x, S* y,
                    S* head_sum, S* tail_sum, int* arrivals, S alpha, S beta) {
  launch_csr_balanced<kWaveSize>(static_cast<stream_type>(stream), single_pass, block_threads, resident_blocks, nnz,
                                 kBalancedMaxEntries, num_blocks, first_row, offsets,
                                 Csr16Columns<O>{col_low, block_base, wide_offset, col_high}, StoredValues<S>{vals}, x, y, head_sum,
                                 tail_sum, arrivals, alpha, beta);
}

template <class S, class O, class Off>
void csr_uniform_balanced(void* stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz,
                          int64_t entries_per_block, int64_t num_blocks, const O* first_row, const Off* offsets,
                          const O* cols, S value, const S* x, S* y, S* head_sum, S* tail_sum, int* arrivals, S alpha,
                          S beta) {
  launch_csr_balanced<kWaveSize>(static_cast<stream_type>(stream), single_pass, block_threads, resident_blocks, nnz,
                                 entries_per_block, num_blocks, first_row, offsets, CsrColumns<O>{cols},
                                 UniformValue<S>{value}, x, y, head_sum, tail_sum, arrivals, alpha, beta);
}

template <class S, class O, class Off>
void csr_coded_balanced(void* stream, bool single_pass, int block_threads, int resident_blocks, int64_t nnz,
                        int64_t entries_per_block, int64_t num_blocks, const O* first_row, const Off* offsets,
                        const O* cols, const uint8_t* codes, const S* table, const S* x, S* y, S* head_sum,
                        S* tail_sum, int* arrivals, S alpha, S beta) {
  launch_csr_balanced<kWaveSize>(static_cast<stream_type>(stream), single_pass, block_threads, resident_blocks, nnz,
                                 entries_per_block, num_blocks, first_row, offsets, CsrColumns<O>{cols},
                                 CodedValues<S>{codes, table}, x, y, head_sum, tail_sum, arrivals, alpha, beta);
}

template <class O, class Off>
void balanced_partition(void* stream, int64_t rows, const Off* offsets, int64_t entries_per_block, int64_t num_blocks,
                        O* first_row, int* arrivals) {
  launch_balanced_partition(static_cast<stream_type>(stream), rows, offsets, entries_per_block, num_blocks, first_row,
                            arrivals);
}

namespace {
int device_attribute(
#if defined(KSPMV_RAW_HIP)
    hipDeviceAttribute_t attribute
#else
    cudaDeviceAttr attribute
#endif
) {
  int device = 0, value = 0;
#if defined(KSPMV_RAW_HIP)
  if (hipGetDevice(&device) != hipSuccess || hipDeviceGetAttribute(&value, attribute, device) != hipSuccess) return 0;
#else
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&value, attribute, device) != cudaSuccess) return 0;
#endif
  return value;
}

[[noreturn]] void fail(const char* what) {
#if defined(KSPMV_RAW_HIP)
  throw std::runtime_error(std::string("kspmv raw: ") + what + ": " + hipGetErrorString(hipGetLastError()));
#else
  throw std::runtime_error(std::string("kspmv raw: ") + what + ": " + cudaGetErrorString(cudaGetLastError()));
#endif
}

// The sums of row_statistics on the device and the host memory its answer lands in, made once per
// device and kept for the process (a few dozen bytes), used under one lock.
struct StatisticsBuffers {
  RowStatisticsSums* sums = nullptr;
  RowStatisticsSums* result = nullptr;  // host memory, mapped for the device
  unsigned long long calls = 0;         // the last call's sequence number
};
constexpr int kMaxDevices = 64;
std::mutex statistics_lock;
StatisticsBuffers statistics_buffers[kMaxDevices];

// The current device's number, an index into the per-device tables below.
int current_device() {
  int device = 0;
#if defined(KSPMV_RAW_HIP)
  if (hipGetDevice(&device) != hipSuccess) fail("no device");
#else
  if (cudaGetDevice(&device) != cudaSuccess) fail("no device");
#endif
  if (device < 0 || device >= kMaxDevices) throw std::runtime_error("kspmv raw: device number out of range");
  return device;
}

StatisticsBuffers& buffers_of_current_device() {
  StatisticsBuffers& b = statistics_buffers[current_device()];
  if (b.sums != nullptr) return b;
#if defined(KSPMV_RAW_HIP)
  if (hipMalloc(reinterpret_cast<void**>(&b.sums), sizeof(RowStatisticsSums)) != hipSuccess) fail("hipMalloc");
  if (hipMemset(b.sums, 0, sizeof(RowStatisticsSums)) != hipSuccess) fail("hipMemset");
  if (hipHostMalloc(reinterpret_cast<void**>(&b.result), sizeof(RowStatisticsSums), hipHostMallocMapped) != hipSuccess) {
    fail("hipHostMalloc");
  }
#else
  if (cudaMalloc(reinterpret_cast<void**>(&b.sums), sizeof(RowStatisticsSums)) != cudaSuccess) fail("cudaMalloc");
  if (cudaMemset(b.sums, 0, sizeof(RowStatisticsSums)) != cudaSuccess) fail("cudaMemset");
  if (cudaHostAlloc(reinterpret_cast<void**>(&b.result), sizeof(RowStatisticsSums), cudaHostAllocMapped) != cudaSuccess) {
    fail("cudaHostAlloc");
  }
#endif
  std::memset(b.result, 0, sizeof(RowStatisticsSums));  // sequence 0: no call has answered
  return b;
}
}  // namespace

int64_t l2_cache_bytes() {
#if defined(KSPMV_RAW_HIP)
  static const int64_t bytes = device_attribute(hipDeviceAttributeL2CacheSize);
#else
  static const int64_t bytes = device_attribute(cudaDevAttrL2CacheSize);
#endif
  return bytes;
}

int64_t resident_threads() {
#if defined(KSPMV_RAW_HIP)
  static const int64_t threads = int64_t(device_attribute(hipDeviceAttributeMultiprocessorCount)) *
                                 device_attribute(hipDeviceAttributeMaxThreadsPerMultiProcessor);
#else
  static const int64_t threads = int64_t(device_attribute(cudaDevAttrMultiProcessorCount)) *
                                 device_attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
#endif
  return threads;
}

template <class O, class Off>
RowStatistics row_statistics(void* stream, int64_t rows, const Off* offsets, const O* cols, int64_t windows,
                             int x_entry_bytes, const PartitionTarget<O>& partition,
                             const std::function<void()>& after_launch) {
  RowStatistics r;
  if (rows <= 0) return r;
  std::lock_guard<std::mutex> lock(statistics_lock);
  StatisticsBuffers& b = buffers_of_current_device();
  const auto s = static_cast<stream_type>(stream);
  launch_row_statistics<kWaveSize>(s, rows, offsets, cols, windows > 0 ? windows : 0,
                                   x_entry_bytes > 0 && x_entry_bytes < 128 ? 128 / x_entry_bytes : 1, b.sums, b.result,
                                   ++b.calls, partition.entries_per_block, partition.num_blocks, partition.first_row,
                                   partition.arrivals);
  if (after_launch) after_launch();
  // Wait for the answer's sequence number, asking the stream now and then whether the kernel has
  // ended (an error, or an end without the number, must not spin forever).
  const volatile unsigned long long* sequence = &b.result->sequence;
  for (int spin = 1; *sequence != b.calls; ++spin) {
    if (spin % 256 != 0) continue;
#if defined(KSPMV_RAW_HIP)
    const hipError_t e = hipStreamQuery(s);
    if (e != hipSuccess && e != hipErrorNotReady) fail("hipStreamQuery");
    if (e == hipSuccess && *sequence != b.calls) fail("row_statistics ended without its answer");
#else
    const cudaError_t e = cudaStreamQuery(s);
    if (e != cudaSuccess && e != cudaErrorNotReady) fail("cudaStreamQuery");
    if (e == cudaSuccess && *sequence != b.calls) fail("row_statistics ended without its answer");
#endif
  }
  std::atomic_thread_fence(std::memory_order_acquire);  // the answer is read after its number
  const volatile RowStatisticsSums* result = b.result;
  r.longest_row = int64_t(result->longest);
  r.length_squares = result->length_squares;
  r.crowded_run = int64_t(result->crowded_run);
  r.window_entries = int64_t(result->window_entries);
  r.window_lines_per_entry = r.window_entries > 0 ? double(result->window_lines) / double(r.window_entries) : 0.0;
  const double line_bytes = x_entry_bytes > 0 && x_entry_bytes < 128 ? double(128 / x_entry_bytes * x_entry_bytes)
                                                                     : double(x_entry_bytes > 0 ? x_entry_bytes : 1);
  r.window_reach_bytes = result->windows_measured > 0 ? double(result->window_span_lines) /
                                                            double(result->windows_measured) * line_bytes
                                                      : 0.0;
  return r;
}

namespace {
// small_storage_*: per device, a free list per size class (powers of two from 1 KiB), blocks cut
// from 1 MiB chunks that are never returned (the process keeps at most a few of them).
constexpr size_t kSmallChunkBytes = size_t(1) << 20;
constexpr int kSmallClasses = 7;  // 1 KiB .. 64 KiB
static_assert((size_t(1024) << (kSmallClasses - 1)) == small_storage_max_bytes, "size classes and the API disagree");
struct SmallStorage {
  std::vector<void*> free_blocks[kSmallClasses];
  char* chunk = nullptr;
  size_t chunk_used = kSmallChunkBytes;
};
std::mutex small_storage_lock;
SmallStorage small_storage[kMaxDevices];

int small_class(size_t bytes) {
  int c = 0;
  while ((size_t(1024) << c) < bytes) ++c;
  return c;
}

SmallStorage& small_storage_of_current_device() { return small_storage[current_device()]; }
}  // namespace

void* small_storage_allocate(size_t bytes) {
  if (bytes > small_storage_max_bytes) return nullptr;
  const int c = small_class(bytes);
  const size_t block = size_t(1024) << c;
  std::lock_guard<std::mutex> lock(small_storage_lock);
  SmallStorage& s = small_storage_of_current_device();
  if (!s.free_blocks[c].empty()) {
    void* p = s.free_blocks[c].back();
    s.free_blocks[c].pop_back();
    return p;
  }
  if (s.chunk_used + block > kSmallChunkBytes) {
#if defined(KSPMV_RAW_HIP)
    if (hipMalloc(reinterpret_cast<void**>(&s.chunk), kSmallChunkBytes) != hipSuccess) fail("hipMalloc");
#else
    if (cudaMalloc(reinterpret_cast<void**>(&s.chunk), kSmallChunkBytes) != cudaSuccess) fail("cudaMalloc");
#endif
    s.chunk_used = 0;
  }
  void* p = s.chunk + s.chunk_used;
  s.chunk_used += block;
  return p;
}

void small_storage_free(void* p, size_t bytes) {
  if (p == nullptr) return;
  // Kernels in flight on any stream may still read the block; cudaFree would wait for them too.
#if defined(KSPMV_RAW_HIP)
  (void)hipDeviceSynchronize();
#else
  (void)cudaDeviceSynchronize();
#endif
  std::lock_guard<std::mutex> lock(small_storage_lock);
  small_storage_of_current_device().free_blocks[small_class(bytes)].push_back(p);
}

template <class S, class O, class Off>
void blocked_ell(void* stream, int slice_height, int64_t num_rows, const Off* slice_offsets, const O* cols,
                 const S* vals, const O* permutation, const S* x, S* y, S alpha, S beta) {
  launch_blocked_ell<log2_of(kWaveSize)>(static_cast<stream_type>(stream), slice_height, num_rows, slice_offsets, cols,
                                         vals, permutation, x, y, alpha, beta);
}

template <class S, class O, class Off>
int64_t cg_grid_blocks(int64_t n, int group_size) {
  return cg_grid_blocks_for<kWaveSize, S, O, Off>(n, group_size);
}

template <class S, class O, class Off>
void cg_grid(void* stream, int64_t blocks, const CgGridArguments<S, O, Off>& arguments) {
  launch_cg_grid<kWaveSize>(static_cast<stream_type>(stream), blocks, arguments);
}

int64_t cg_step_blocks(int64_t n) { return cg_step_blocks_for(n); }

template <class S>
void cg_curvature(void* stream, const CgStepArguments<S>& arguments) {
  launch_cg_step<S>(static_cast<stream_type>(stream), cg_curvature_kernel<kWaveSize, S>, "cg_curvature", arguments);
}

template <class S>
void cg_update(void* stream, const CgStepArguments<S>& arguments) {
  launch_cg_step<S>(static_cast<stream_type>(stream), cg_update_kernel<kWaveSize, S>, "cg_update", arguments);
}

template <class S>
void cg_direction(void* stream, const CgStepArguments<S>& arguments) {
  launch_cg_step<S>(static_cast<stream_type>(stream), cg_direction_kernel<kWaveSize, S>, "cg_direction", arguments);
}

template void cg_curvature<double>(void*, const CgStepArguments<double>&);
template void cg_curvature<float>(void*, const CgStepArguments<float>&);
template void cg_update<double>(void*, const CgStepArguments<double>&);
template void cg_update<float>(void*, const CgStepArguments<float>&);
template void cg_direction<double>(void*, const CgStepArguments<double>&);
template void cg_direction<float>(void*, const CgStepArguments<float>&);

// Every combination raw::supports() promises is compiled here. instantiate() is never called:
// each explicit instantiation of it is compiled, and with it every function whose address it takes
// (and the kernels those launch).
template <class S, class O, class Off>
void instantiate(void (**addresses)()) {
  static_assert(supports<S, O, Off>(), "a combination the raw kernels do not promise");
  addresses[0] = reinterpret_cast<void (*)()>(&csr_vector<S, O, Off>);
  addresses[1] = reinterpret_cast<void (*)()>(&csr_balanced<S, O, Off>);
  addresses[2] = reinterpret_cast<void (*)()>(&blocked_ell<S, O, Off>);
  addresses[3] = reinterpret_cast<void (*)()>(&row_statistics<O, Off>);
  addresses[4] = reinterpret_cast<void (*)()>(&balanced_partition<O, Off>);
  addresses[5] = reinterpret_cast<void (*)()>(&csr16_balanced<S, O, Off>);
  addresses[6] = reinterpret_cast<void (*)()>(&cg_grid_blocks<S, O, Off>);
  addresses[7] = reinterpret_cast<void (*)()>(&cg_grid<S, O, Off>);
  addresses[8] = reinterpret_cast<void (*)()>(&csr_uniform_balanced<S, O, Off>);
  addresses[9] = reinterpret_cast<void (*)()>(&csr_coded_balanced<S, O, Off>);
}
// Mixed precision: float values, double x, y and sums, on the load-balanced kernel.
template <class O, class Off>
void instantiate_mixed(void (**addresses)()) {
  static_assert(supports_mixed<float, double, O, Off>(), "a combination the raw kernels do not promise");
  addresses[0] = reinterpret_cast<void (*)()>(&csr_balanced<double, O, Off, float>);
}
template void instantiate_mixed<int, int>(void (**)());
template void instantiate_mixed<int, int64_t>(void (**)());
template void instantiate_mixed<int, size_t>(void (**)());
template void instantiate_mixed<int64_t, int64_t>(void (**)());
template void instantiate_mixed<int64_t, size_t>(void (**)());

template void instantiate<double, int, int>(void (**)());
template void instantiate<float, int, int>(void (**)());
template void instantiate<double, int, int64_t>(void (**)());
template void instantiate<float, int, int64_t>(void (**)());
template void instantiate<double, int, size_t>(void (**)());
template void instantiate<float, int, size_t>(void (**)());
template void instantiate<double, int64_t, int64_t>(void (**)());
template void instantiate<float, int64_t, int64_t>(void (**)());
template void instantiate<double, int64_t, size_t>(void (**)());
template void instantiate<float, int64_t, size_t>(void (**)());

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
