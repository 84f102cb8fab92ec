# ctest driver: the README's "Installing kspmv" words, to the letter: cmake --install the build
# tree into a scratch prefix, configure example/ as a separate project with that prefix (and
# Kokkos' own) on CMAKE_PREFIX_PATH and the compiler Kokkos was built with, build it, run it.
# Where kspmv was built with MPI (MPIEXEC given), the example's distributed program, linked to the
# package's kspmv::distributed, runs on 2 ranks too.
set(prefix ${KSPMV_BUILD_DIR}/install_test/prefix)
set(build ${KSPMV_BUILD_DIR}/install_test/example)
file(REMOVE_RECURSE ${KSPMV_BUILD_DIR}/install_test)

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${KSPMV_BUILD_DIR} --prefix ${prefix})
run(${CMAKE_COMMAND} -S ${KSPMV_SOURCE_DIR}/example -B ${build} -G ${GENERATOR}
    "-DCMAKE_PREFIX_PATH=${prefix};${KOKKOS_PREFIX}" -DCMAKE_CXX_COMPILER=${CMAKE_CXX_COMPILER})
run(${CMAKE_COMMAND} --build ${build})
run(${build}/spmv_mm --grid 12 --repeat 3)
run(${build}/spmv_mm ${KSPMV_SOURCE_DIR}/unit_tests/data/west0479.mtx --repeat 3)
if(MPIEXEC)
  string(REPLACE "|" ";" MPIEXEC_FLAGS "${MPIEXEC_FLAGS}")
  if(NOT EXISTS ${build}/spmv_distributed)
    message(FATAL_ERROR "kspmv was built with MPI, but the installed package gave the example no kspmv::distributed")
  endif()
  run(${MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 2 ${MPIEXEC_FLAGS} ${build}/spmv_distributed --grid 12 --repeat 3)
  run(${MPIEXEC} ${MPIEXEC_NUMPROC_FLAG} 2 ${MPIEXEC_FLAGS} ${build}/spmv_distributed
      ${KSPMV_SOURCE_DIR}/unit_tests/data/west0479.mtx --repeat 3)
endif()
