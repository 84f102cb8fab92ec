#pragma once
// The execution spaces every typed test runs on: each enabled device backend, then the host
// ones. Tests are written once and instantiated for this list.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#if defined(KSPMV_TEST_DEVICE_ONLY) && (defined(KOKKOS_ENABLE_CUDA) || defined(KOKKOS_ENABLE_HIP))
// KSPMV_TEST_DEVICE_ONLY (the CMake option of that name) leaves the host backends out where a
// device backend is enabled: CI compiles the HIP suite without running it, and the host
// instantiations would only repeat those the OpenMP stage compiles and runs.
#define KSPMV_TEST_BACKEND_LIST Kokkos::DefaultExecutionSpace
#else
#if defined(KOKKOS_ENABLE_CUDA)
#define KSPMV_TEST_CUDA Kokkos::Cuda,
#else
#define KSPMV_TEST_CUDA
#endif
#if defined(KOKKOS_ENABLE_HIP) && KOKKOS_VERSION >= 40000
#define KSPMV_TEST_HIP Kokkos::HIP,
#elif defined(KOKKOS_ENABLE_HIP)
#define KSPMV_TEST_HIP Kokkos::Experimental::HIP,
#else
#define KSPMV_TEST_HIP
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_SERIAL)
#define KSPMV_TEST_OPENMP Kokkos::OpenMP,
#else
#define KSPMV_TEST_OPENMP
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
#define KSPMV_TEST_HOST Kokkos::Serial
#else
#define KSPMV_TEST_HOST Kokkos::DefaultHostExecutionSpace
#endif
#define KSPMV_TEST_BACKEND_LIST KSPMV_TEST_CUDA KSPMV_TEST_HIP KSPMV_TEST_OPENMP KSPMV_TEST_HOST
#endif

namespace kspmv_test {
using Backends = ::testing::Types<KSPMV_TEST_BACKEND_LIST>;

// The argument-check tests run on the default backend only: the checks come before any kernel.
using DefaultDevice = Kokkos::DefaultExecutionSpace::device_type;

template <class ExecSpace>
using DeviceOf = Kokkos::Device<ExecSpace, typename ExecSpace::memory_space>;

// Names the backend in test output ("Serial", "OpenMP", "Cuda").
struct BackendName {
  template <class ExecSpace>
  static std::string GetName(int) {
    return ExecSpace::name();
  }
};
}  // namespace kspmv_test
