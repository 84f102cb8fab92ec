# ctest driver: the HIP object of src/raw/raw_spmv.cpp must carry, in its gfx90a code object, the
# wave-64 instantiations of every raw kernel: csr_vector_kernel<64, G> for every group size
# G = 1..64, blocked_ell_kernel<6> (log2 of 64), csr_multivector_kernel<64, C> for C = 4 and 8
# vectors a pass in its three pass forms, csr_multivector_balanced_kernel<64, 2, BetaIsZero> with
# its scale kernel, csr_multivector_row_lanes_kernel and csr_multivector_chunks_kernel<64, Group,
# Width> for the six shapes of 4, 8 and 16 vectors a pass (the chunks in both ways of loading a
# step's entries, and their scale kernel),
# csr_balanced_kernel<64, BlockSize, BetaIsZero,
# SinglePass> (blocks of 256 and 512 threads, on CSR's and Csr16Matrix's columns, and float values
# with double vectors on CSR's: mixed precision) with its
# csr_balanced_carry_kernel<64>, each for
# float and double with every index and offset pair raw::supports() names (int/int, int/int64_t,
# int/size_t, int64_t/int64_t, int64_t/size_t), and row_statistics_kernel<64> for each pair;
# kspmv::cg's kernels: cg_grid_kernel<64> for each scalar and pair, and the separate path's
# vector steps (cg_curvature, cg_update, cg_direction)_kernel<64> for float and double.
foreach(tool OBJCOPY BUNDLER NM)
  if(NOT ${tool} OR NOT EXISTS "${${tool}}")
    message(FATAL_ERROR "check_raw_hip_object: ${tool} not found (${${tool}})")
  endif()
endforeach()
get_filename_component(dir ${OBJECT} DIRECTORY)
execute_process(COMMAND ${OBJCOPY} --dump-section .hip_fatbin=${dir}/fatbin.bin ${OBJECT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "no .hip_fatbin section in ${OBJECT}")
endif()
execute_process(COMMAND ${BUNDLER} --unbundle --type=o --input=${dir}/fatbin.bin
                        --targets=hipv4-amdgcn-amd-amdhsa--${ARCH} --output=${dir}/device_${ARCH}.co
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "no ${ARCH} code object in the fat binary of ${OBJECT}")
endif()
execute_process(COMMAND ${NM} ${dir}/device_${ARCH}.co OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "llvm-nm failed on the ${ARCH} code object")
endif()
set(missing "")
macro(expect_symbol name)
  string(FIND "${symbols}" "${name}" at)
  if(at EQUAL -1)
    list(APPEND missing ${name})
  endif()
endmacro()
foreach(group 1 2 4 8 16 32 64)
  foreach(types diiE dilE dimE dllE dlmE fiiE filE fimE fllE flmE)
    foreach(beta_is_zero 0 1)
      # csr_vector_kernel<WaveSize=64, GroupSize=group, BetaIsZero, Scalar, Ordinal, Offset>
      expect_symbol("csr_vector_kernelILi64ELi${group}ELb${beta_is_zero}E${types}")
    endforeach()
  endforeach()
endforeach()
foreach(types diiE dilE dimE dllE dlmE fiiE filE fimE fllE flmE)
  expect_symbol("blocked_ell_kernelILi6ELb0E${types}")
  string(SUBSTRING "${types}" 0 1 scalar)
  string(SUBSTRING "${types}" 2 1 offset)
  foreach(beta_is_zero 0 1)
    foreach(passes 0 1 2)
      foreach(columns 4 8)
        # csr_multivector_kernel<WaveSize=64, Columns, BetaIsZero, Passes, Scalar, Ordinal, Offset>
        expect_symbol("csr_multivector_kernelILi64ELi${columns}ELb${beta_is_zero}ELi${passes}E${types}")
      endforeach()
      # the row lanes: <64, Group, Width, BetaIsZero, Passes, Scalar, Ordinal, Offset>; the chunks
      # with Entries after Passes (0: passed with shuffles, 1: loaded in pieces by every lane)
      foreach(group_width 2_2 4_1 4_2 8_1 8_2 16_1)
        string(REPLACE "_" ";" gw "${group_width}")
        list(GET gw 0 group)
        list(GET gw 1 width)
        set(shape "ILi64ELi${group}ELi${width}ELb${beta_is_zero}ELi${passes}E")
        expect_symbol("csr_multivector_row_lanes_kernel${shape}${types}")
        foreach(entries 0 1)
          expect_symbol("csr_multivector_chunks_kernel${shape}Li${entries}E${types}")
        endforeach()
      endforeach()
    endforeach()
  endforeach()
  expect_symbol("csr_multivector_chunks_scale_kernelI${scalar}${offset}E")
  foreach(beta_is_zero 0 1)
    expect_symbol("csr_multivector_balanced_kernelILi64ELi2ELb${beta_is_zero}E${types}")
  endforeach()
  expect_symbol("csr_multivector_balanced_scale_kernelI${types}")
endforeach()
foreach(types diiE dilE dimE dllE dlmE fiiE filE fimE fllE flmE)
  # The balanced kernel's last two parameters are its column source, CSR's columns (CsrColumns<O>,
  # mangled NS1_10CsrColumnsIiEE with int ordinals) or Csr16Matrix's (NS1_12Csr16ColumnsIiEE),
  # and the values' type: the scalar's, and on CSR with double also float (mixed precision).
  string(SUBSTRING "${types}" 0 3 scalar_and_indices)
  string(SUBSTRING "${types}" 0 1 scalar)
  string(SUBSTRING "${types}" 1 1 ordinal)
  foreach(beta_is_zero 0 1)
    expect_symbol("csr_balanced_carry_kernelILi64ELb${beta_is_zero}E${types}")
    foreach(block_size 256 512)
      foreach(single_pass 0 1)
        set(kernel "csr_balanced_kernelILi64ELi${block_size}ELb${beta_is_zero}ELb${single_pass}E${scalar_and_indices}")
        foreach(columns 10CsrColumns 12Csr16Columns)
          expect_symbol("${kernel}NS1_${columns}I${ordinal}EE${scalar}EE")
        endforeach()
        if(scalar STREQUAL "d")
          expect_symbol("${kernel}NS1_10CsrColumnsI${ordinal}EEfEE")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
foreach(indices iiE ilE imE llE lmE)
  expect_symbol("row_statistics_kernelILi64E${indices}")
endforeach()
foreach(scalar d f)
  foreach(indices iiE ilE imE llE lmE)
    expect_symbol("cg_grid_kernelILi64E${scalar}${indices}")
  endforeach()
  foreach(step curvature update direction)
    expect_symbol("cg_${step}_kernelILi64E${scalar}E")
  endforeach()
endforeach()
string(FIND "${symbols}" "csr_vector_kernelILi32E" wave32)
if(NOT wave32 EQUAL -1)
  list(APPEND missing "(a wave-32 instantiation in the AMD object)")
endif()
if(missing)
  message(FATAL_ERROR "missing wave-64 kernels in ${ARCH} code object: ${missing}")
endif()
string(REGEX MATCHALL "csr_vector_kernelILi64E[^ \n]*|blocked_ell_kernelILi6E[^ \n]*|csr_balanced[a-z_]*kernelILi64E[^ \n]*|row_statistics_kernelILi64E[^ \n]*|cg_[a-z]*_kernelILi64E[^ \n]*"
       found "${symbols}")
list(LENGTH found count)
message(STATUS "found ${count} wave-64 kernel symbols in the ${ARCH} code object")
