// The raw kernels' API (include/kspmv/impl/raw.hpp), compiled as CUDA or HIP. Each function
// instantiates the kernels for this platform's wave width.
#include "kernels.hpp"

#include "kspmv/impl/raw.hpp"

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

template <class S, class O, class Off>
void csr_balanced(void* stream, bool single_pass, int block_threads, int64_t nnz, int64_t entries_per_block,
                  int64_t num_blocks, const O* first_row, const Off* offsets, const O* cols, const S* vals, const S* x,
                  S* y, S* head_sum, S* tail_sum, int* arrivals, S alpha, S beta) {
  launch_csr_balanced<kWaveSize>(static_cast<stream_type>(stream), single_pass, block_threads, nnz, entries_per_block,
                                 num_blocks, first_row, offsets, cols, vals, x, y, head_sum, tail_sum, arrivals, alpha,
                                 beta);
}

int64_t l2_cache_bytes() {
  int device = 0, bytes = 0;
#if defined(KSPMV_RAW_HIP)
  if (hipGetDevice(&device) != hipSuccess ||
      hipDeviceGetAttribute(&bytes, hipDeviceAttributeL2CacheSize, device) != hipSuccess) {
    return 0;
  }
#else
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device) != cudaSuccess) {
    return 0;
  }
#endif
  return bytes;
}

template <class S, class O, class Off>
void blocked_ell(void* stream, int slice_height, int64_t num_rows, const Off* slice_offsets, const O* cols,
                 const S* vals, const O* permutation, const S* x, S* y, S alpha, S beta) {
  launch_blocked_ell<log2_of(kWaveSize)>(static_cast<stream_type>(stream), slice_height, num_rows, slice_offsets, cols,
                                         vals, permutation, x, y, alpha, beta);
}

template void csr_vector<double, int, int>(void*, int, int64_t, const int*, const int*, const double*, const double*,
                                           double*, double, double);
template void csr_vector<float, int, int>(void*, int, int64_t, const int*, const int*, const float*, const float*,
                                          float*, float, float);
template void csr_vector<double, int64_t, int64_t>(void*, int, int64_t, const int64_t*, const int64_t*, const double*,
                                                   const double*, double*, double, double);
template void csr_vector<float, int64_t, int64_t>(void*, int, int64_t, const int64_t*, const int64_t*, const float*,
                                                  const float*, float*, float, float);
template void csr_balanced<double, int, int>(void*, bool, int, int64_t, int64_t, int64_t, const int*, const int*, const int*,
                                              const double*, const double*, double*, double*, double*, int*, double, double);
template void csr_balanced<float, int, int>(void*, bool, int, int64_t, int64_t, int64_t, const int*, const int*, const int*,
                                              const float*, const float*, float*, float*, float*, int*, float, float);
template void csr_balanced<double, int64_t, int64_t>(void*, bool, int, int64_t, int64_t, int64_t, const int64_t*, const int64_t*, const int64_t*,
                                              const double*, const double*, double*, double*, double*, int*, double, double);
template void csr_balanced<float, int64_t, int64_t>(void*, bool, int, int64_t, int64_t, int64_t, const int64_t*, const int64_t*, const int64_t*,
                                              const float*, const float*, float*, float*, float*, int*, float, float);
template void blocked_ell<double, int, int>(void*, int, int64_t, const int*, const int*, const double*, const int*,
                                            const double*, double*, double, double);
template void blocked_ell<float, int, int>(void*, int, int64_t, const int*, const int*, const float*, const int*,
                                           const float*, float*, float, float);
template void blocked_ell<double, int64_t, int64_t>(void*, int, int64_t, const int64_t*, const int64_t*, const double*,
                                                    const int64_t*, const double*, double*, double, double);
template void blocked_ell<float, int64_t, int64_t>(void*, int, int64_t, const int64_t*, const int64_t*, const float*,
                                                   const int64_t*, const float*, float*, float, float);

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
