# Compile-only check of the raw kernels for AMD wavefronts: when hipcc is found (Debian's hipcc
# for CI) and this build does not already compile them as HIP, build src/raw/raw_spmv.cpp for
# gfx90a (MI250X) into raw_hip/raw_spmv_gfx90a.o, kept in the build tree, and register a test
# that looks for the wave-64 kernel instantiations in its device code object.
find_program(KSPMV_HIPCC hipcc)
if(NOT KSPMV_HIPCC)
  message(STATUS "kspmv: hipcc not found: the wave-64 compile check is skipped")
  return()
endif()
set(KSPMV_HIP_ARCH gfx90a CACHE STRING "AMD target of the raw-kernel compile check")
set(_object ${CMAKE_BINARY_DIR}/raw_hip/raw_spmv_${KSPMV_HIP_ARCH}.o)
add_custom_command(OUTPUT ${_object}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/raw_hip
  COMMAND ${KSPMV_HIPCC} --offload-arch=${KSPMV_HIP_ARCH} -std=c++17 -O3 -I${CMAKE_SOURCE_DIR}/include
          -c ${CMAKE_SOURCE_DIR}/src/raw/raw_spmv.cpp -o ${_object}
  DEPENDS ${CMAKE_SOURCE_DIR}/src/raw/raw_spmv.cpp ${CMAKE_SOURCE_DIR}/src/raw/kernels.hpp ${CMAKE_SOURCE_DIR}/src/raw/cg_grid.hpp
          ${CMAKE_SOURCE_DIR}/src/raw/cg_steps.hpp ${CMAKE_SOURCE_DIR}/src/raw/csr_multivector_balanced.hpp
          ${CMAKE_SOURCE_DIR}/src/raw/csr_multivector_row_lanes.hpp ${CMAKE_SOURCE_DIR}/src/raw/csr_multivector_chunks.hpp
          ${CMAKE_SOURCE_DIR}/include/kspmv/impl/raw_cg.hpp
          ${CMAKE_SOURCE_DIR}/include/kspmv/impl/raw.hpp
  COMMENT "hipcc: raw kernels for ${KSPMV_HIP_ARCH} (compile only)" VERBATIM)
add_custom_target(kspmv_raw_hip_check ALL DEPENDS ${_object})

if(KSPMV_ENABLE_TESTS)
  find_program(KSPMV_OFFLOAD_BUNDLER NAMES clang-offload-bundler-15 clang-offload-bundler HINTS /usr/lib/llvm-15/bin)
  find_program(KSPMV_LLVM_NM NAMES llvm-nm-15 llvm-nm HINTS /usr/lib/llvm-15/bin)
  add_test(NAME raw_hip_wave64_instantiations
    COMMAND ${CMAKE_COMMAND} -DOBJECT=${_object} -DARCH=${KSPMV_HIP_ARCH} -DOBJCOPY=${CMAKE_OBJCOPY}
            -DBUNDLER=${KSPMV_OFFLOAD_BUNDLER} -DNM=${KSPMV_LLVM_NM}
            -P ${CMAKE_SOURCE_DIR}/unit_tests/check_raw_hip_object.cmake)
endif()
