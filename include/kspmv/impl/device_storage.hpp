#pragma once
// Untyped device storage that the matrix types carve their Views from (the balanced partition
// and its workspace): the memory space's own allocation, without a View's header (which costs a
// copy to the device and a wait), or, on a GPU with the raw kernels and for a few kilobytes, a
// block of raw::small_storage_allocate, which costs no runtime call at all. Shared by the copies
// of a matrix; the last one gives it back.

#include <Kokkos_Core.hpp>

#include "raw.hpp"

#include <cstddef>
#include <memory>
#include <type_traits>

namespace kspmv {
namespace impl {

template <class MemorySpace>
constexpr bool is_raw_gpu_memory() {
#if defined(KSPMV_HAVE_RAW_GPU) && defined(KOKKOS_ENABLE_CUDA)
  return std::is_same<MemorySpace, Kokkos::CudaSpace>::value;
#elif defined(KSPMV_HAVE_RAW_GPU) && defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
  return std::is_same<MemorySpace, Kokkos::HIPSpace>::value;
#else
  return false;
#endif
}

/// `bytes` of uninitialised storage in Device's memory space (nullptr for 0 bytes).
template <class Device>
std::shared_ptr<void> device_storage(const char* label, size_t bytes) {
  using memory_space = typename Device::memory_space;
  if (bytes == 0) return nullptr;
  if constexpr (is_raw_gpu_memory<memory_space>()) {
    if (void* p = raw::small_storage_allocate(bytes)) {
      return std::shared_ptr<void>(p, [bytes](void* q) { raw::small_storage_free(q, bytes); });
    }
  }
  void* p = memory_space().allocate(label, bytes);
  return std::shared_ptr<void>(p, [label, bytes](void* q) { memory_space().deallocate(label, q, bytes); });
}

}  // namespace impl
}  // namespace kspmv
