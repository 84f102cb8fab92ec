#pragma once
// The execution spaces every typed test runs on: each enabled device backend, then the host
// ones. Tests are written once and instantiated for this list.
#include <Kokkos_Core.hpp>
#include <gtest/gtest.h>

#if defined(KSPMV_TEST_DEFAULT_BACKEND_ONLY)
// KSPMV_TEST_DEFAULT_BACKEND_ONLY (the CMake option of that name) instantiates the tests for the
// default execution space alone. CI's OpenMP stage runs them on OpenMP (the Serial ones are
// stage 1's, on Debian's Kokkos), and its HIP stage compiles them for HIP without running them
// (the host ones would repeat the OpenMP stage's): each instantiation set is compiled once.
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
