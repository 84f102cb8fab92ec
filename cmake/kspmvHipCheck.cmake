# The wave-64 instantiations of the raw kernels, looked for in their AMD device code objects by
# the test raw_hip_wave64_instantiations (unit_tests/check_raw_hip_object.cmake):
# - with a HIP Kokkos, in the library's own objects of src/raw/*.cpp;
# - otherwise, on request (KSPMV_ENABLE_HIP_COMPILE_CHECK) and where hipcc is found (Debian's, with
#   no AMD GPU), src/raw/raw_spmv.cpp and raw_multivector.cpp compiled for gfx90a (MI250X) into
#   raw_hip/, compile only. Off by default: the two compiles take several minutes, and CI's HIP
#   stage checks the library's objects instead.
set(_kspmv_raw_sources raw_spmv raw_multivector)
if(KSPMV_RAW_GPU AND (Kokkos_ENABLE_HIP OR _kspmv_has_hip))
  set(KSPMV_HIP_ARCH gfx90a CACHE STRING "AMD target whose code object the wave-64 check reads")
  set(_objects "$<JOIN:$<FILTER:$<TARGET_OBJECTS:kspmv>,INCLUDE,/src/raw/raw_>,|>")
else()
  find_program(KSPMV_HIPCC hipcc)
  if(NOT KSPMV_HIPCC)
    message(STATUS "kspmv: hipcc not found: the wave-64 compile check is skipped")
    return()
  endif()
  set(KSPMV_HIP_ARCH gfx90a CACHE STRING "AMD target of the raw-kernel compile check")
  set(_raw ${CMAKE_SOURCE_DIR}/src/raw)
  set(_headers ${_raw}/kernels.hpp ${_raw}/cg_grid.hpp ${_raw}/cg_steps.hpp ${_raw}/csr_multivector_balanced.hpp
      ${_raw}/csr_multivector_row_lanes.hpp ${_raw}/csr_multivector_chunks.hpp
      ${CMAKE_SOURCE_DIR}/include/kspmv/impl/raw_cg.hpp ${CMAKE_SOURCE_DIR}/include/kspmv/impl/raw.hpp)
  set(_object_list "")
  foreach(_source ${_kspmv_raw_sources})
    set(_object ${CMAKE_BINARY_DIR}/raw_hip/${_source}_${KSPMV_HIP_ARCH}.o)
    add_custom_command(OUTPUT ${_object}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/raw_hip
      COMMAND ${KSPMV_HIPCC} --offload-arch=${KSPMV_HIP_ARCH} -std=c++17 -O3 -I${CMAKE_SOURCE_DIR}/include
              -c ${_raw}/${_source}.cpp -o ${_object}
      DEPENDS ${_raw}/${_source}.cpp ${_headers}
      COMMENT "hipcc: ${_source}.cpp for ${KSPMV_HIP_ARCH} (compile only)" VERBATIM)
    list(APPEND _object_list ${_object})
  endforeach()
  add_custom_target(kspmv_raw_hip_check ALL DEPENDS ${_object_list})
  string(JOIN "|" _objects ${_object_list})
endif()

find_program(KSPMV_OFFLOAD_BUNDLER NAMES clang-offload-bundler-15 clang-offload-bundler HINTS /usr/lib/llvm-15/bin)
find_program(KSPMV_LLVM_NM NAMES llvm-nm-15 llvm-nm HINTS /usr/lib/llvm-15/bin)
set(_check ${CMAKE_COMMAND} "-DOBJECTS=${_objects}" -DARCH=${KSPMV_HIP_ARCH} -DOBJCOPY=${CMAKE_OBJCOPY}
    -DBUNDLER=${KSPMV_OFFLOAD_BUNDLER} -DNM=${KSPMV_LLVM_NM} -DWORK_DIR=${CMAKE_BINARY_DIR}/raw_hip
    -P ${CMAKE_SOURCE_DIR}/unit_tests/check_raw_hip_object.cmake)
if(KSPMV_ENABLE_TESTS)
  add_test(NAME raw_hip_wave64_instantiations COMMAND ${_check})
endif()
# The same check as a build target, for builds whose ctest cannot run (a HIP build without an AMD
# GPU: ctest lists the HIP unit tests by running them). CI's HIP stage builds it.
if(KSPMV_RAW_GPU AND (Kokkos_ENABLE_HIP OR _kspmv_has_hip))
  add_custom_target(kspmv_raw_hip_instantiations COMMAND ${_check} DEPENDS kspmv VERBATIM)
endif()
