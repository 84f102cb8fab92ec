// The raw kernels of several vectors (rank-2 X and Y) of include/kspmv/impl/raw.hpp, compiled as
// CUDA or HIP for this platform's wave width: apart from raw_spmv.cpp so that the two compile in
// parallel (each is one of the longest compiles of the build).
#include "kernels.hpp"
// after kernels.hpp, whose device functions it uses
#include "csr_multivector_balanced.hpp"
// after kernels.hpp; csr_multivector_chunks.hpp after csr_multivector_row_lanes.hpp
#include "csr_multivector_row_lanes.hpp"
#include "csr_multivector_chunks.hpp"

#include "kspmv/impl/raw.hpp"

#include <stdexcept>
#include <string>

namespace kspmv {
namespace impl {
namespace raw {

template <class S, class O, class Off>
void csr_multivector(void* stream, int group_size, int columns_per_pass, int64_t num_rows, int64_t num_vectors,
                     const Off* offsets, const O* cols, const S* vals, const S* x, int64_t x_row_stride,
                     int64_t x_vector_stride, S* y, int64_t y_row_stride, int64_t y_vector_stride, S alpha, S beta,
                     bool gathers_scatter) {
  const auto s = static_cast<stream_type>(stream);
  if (columns_per_pass == 4) {
    launch_csr_multivector<kWaveSize, 4>(s, group_size, num_rows, num_vectors, offsets, cols, vals, x, x_row_stride,
                                         x_vector_stride, y, y_row_stride, y_vector_stride, alpha, beta,
                                         gathers_scatter);
  } else if (columns_per_pass == 8) {
    launch_csr_multivector<kWaveSize, 8>(s, group_size, num_rows, num_vectors, offsets, cols, vals, x, x_row_stride,
                                         x_vector_stride, y, y_row_stride, y_vector_stride, alpha, beta,
                                         gathers_scatter);
  } else {
    throw std::invalid_argument("kspmv raw csr_multivector: " + std::to_string(columns_per_pass) +
                                " vectors a pass; the kernel keeps 4 or 8");
  }
}

template <class S, class O, class Off>
void csr_multivector_entries(void* stream, int entries_per_lane, int columns_per_pass, int64_t num_rows, int64_t nnz,
                             int64_t num_vectors, const Off* offsets, const O* cols, const S* vals, const S* x,
                             int64_t x_row_stride, int64_t x_vector_stride, S* y, int64_t y_row_stride,
                             int64_t y_vector_stride, S alpha) {
  const auto s = static_cast<stream_type>(stream);
  if (columns_per_pass == 4) {
    launch_csr_multivector_entries<kWaveSize, 4>(s, entries_per_lane, num_rows, nnz, num_vectors, offsets, cols, vals, x,
                                      x_row_stride, x_vector_stride, y, y_row_stride, y_vector_stride, alpha);
  } else if (columns_per_pass == 8) {
    launch_csr_multivector_entries<kWaveSize, 8>(s, entries_per_lane, num_rows, nnz, num_vectors, offsets, cols, vals, x,
                                      x_row_stride, x_vector_stride, y, y_row_stride, y_vector_stride, alpha);
  } else {
    throw std::invalid_argument("kspmv raw csr_multivector_entries: " + std::to_string(columns_per_pass) +
                                " vectors a pass; the kernel keeps 4 or 8");
  }
}

template <class S, class O, class Off>
void csr_multivector_balanced(void* stream, int64_t nnz, int64_t entries_per_block, int64_t num_blocks,
                              const O* first_row, const Off* offsets, const O* cols, const S* vals,
                              int64_t num_vectors, const S* x, int64_t x_row_stride, int64_t x_vector_stride, S* y,
                              int64_t y_row_stride, int64_t y_vector_stride, S alpha, S beta) {
  launch_csr_multivector_balanced<kWaveSize>(static_cast<stream_type>(stream), nnz, entries_per_block, num_blocks,
                                             first_row, offsets, cols, vals, num_vectors, x, x_row_stride,
                                             x_vector_stride, y, y_row_stride, y_vector_stride, alpha, beta);
}

template <class S, class O, class Off>
void csr_multivector_row_lanes(void* stream, int64_t num_rows, int64_t num_vectors, const Off* offsets, const O* cols,
                               const S* vals, const S* x, int64_t x_row_stride, S* y, int64_t y_row_stride,
                               int64_t y_vector_stride, S alpha, S beta) {
  launch_csr_multivector_row_lanes<kWaveSize>(static_cast<stream_type>(stream), num_rows, num_vectors, offsets, cols,
                                              vals, x, x_row_stride, y, y_row_stride, y_vector_stride, alpha, beta);
}

template <class S, class O, class Off>
void csr_multivector_chunks(void* stream, int64_t num_rows, int64_t nnz, int64_t entries_per_block,
                            const O* first_row, int64_t num_vectors, const Off* offsets, const O* cols,
                            const S* vals, const S* x, int64_t x_row_stride, S* y, int64_t y_row_stride,
                            int64_t y_vector_stride, S alpha, S beta) {
  launch_csr_multivector_chunks<kWaveSize>(static_cast<stream_type>(stream), num_rows, nnz, entries_per_block,
                                           first_row, num_vectors, offsets, cols, vals, x, x_row_stride, y,
                                           y_row_stride, y_vector_stride, alpha, beta);
}

// Every combination raw::supports() promises, as raw_spmv.cpp's instantiate().
template <class S, class O, class Off>
void instantiate_multivector(void (**addresses)()) {
  static_assert(supports<S, O, Off>(), "a combination the raw kernels do not promise");
  addresses[0] = reinterpret_cast<void (*)()>(&csr_multivector<S, O, Off>);
  addresses[1] = reinterpret_cast<void (*)()>(&csr_multivector_entries<S, O, Off>);
  addresses[2] = reinterpret_cast<void (*)()>(&csr_multivector_balanced<S, O, Off>);
  addresses[3] = reinterpret_cast<void (*)()>(&csr_multivector_row_lanes<S, O, Off>);
  addresses[4] = reinterpret_cast<void (*)()>(&csr_multivector_chunks<S, O, Off>);
}

template void instantiate_multivector<double, int, int>(void (**)());
template void instantiate_multivector<float, int, int>(void (**)());
template void instantiate_multivector<double, int, int64_t>(void (**)());
template void instantiate_multivector<float, int, int64_t>(void (**)());
template void instantiate_multivector<double, int, size_t>(void (**)());
template void instantiate_multivector<float, int, size_t>(void (**)());
template void instantiate_multivector<double, int64_t, int64_t>(void (**)());
template void instantiate_multivector<float, int64_t, int64_t>(void (**)());
template void instantiate_multivector<double, int64_t, size_t>(void (**)());
template void instantiate_multivector<float, int64_t, size_t>(void (**)());

}  // namespace raw
}  // namespace impl
}  // namespace kspmv
