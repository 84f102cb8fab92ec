# Helpers shared by the build tree (CMakeLists.txt) and the installed package
# (kspmvConfig.cmake), so an application sees the same Kokkos target kspmv was built with.

# Debian/Ubuntu's packaged Kokkos 3.4 (libtrilinos-kokkos-dev) computes its import prefix
# one directory too shallow and exports Kokkos::kokkos with INTERFACE_INCLUDE_DIRECTORIES
# "/usr/lib/include", which does not exist; its headers live in Kokkos_INCLUDE_DIRS
# (/usr/include/trilinos). CMake refuses to configure against a missing include directory,
# so drop entries that do not exist and add the package's real include directories.
# Correct Kokkos installs are left as they are.
function(kspmv_repair_kokkos_target target)
  if(NOT TARGET ${target})
    return()
  endif()
  get_target_property(_imported ${target} IMPORTED)
  if(NOT _imported)
    return() # an in-tree Kokkos: its include directories are build-tree generator expressions
  endif()
  get_target_property(_dirs ${target} INTERFACE_INCLUDE_DIRECTORIES)
  if(NOT _dirs)
    set(_dirs "")
  endif()
  set(_kept "")
  set(_changed FALSE)
  foreach(_dir IN LISTS _dirs)
    if(_dir MATCHES "^\\$<" OR EXISTS "${_dir}")
      list(APPEND _kept "${_dir}")
    else()
      set(_changed TRUE)
    endif()
  endforeach()
  foreach(_dir IN LISTS Kokkos_INCLUDE_DIRS)
    get_filename_component(_dir "${_dir}" REALPATH)
    if(EXISTS "${_dir}" AND NOT _dir IN_LIST _kept)
      list(APPEND _kept "${_dir}")
      set(_changed TRUE)
    endif()
  endforeach()
  if(_changed)
    set_property(TARGET ${target} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_kept}")
    message(STATUS "kspmv: repaired include directories of ${target}: ${_kept}")
  endif()
endfunction()

# KokkosKernels 4.x exports Kokkos::kokkoskernels; Debian's 3.4 (TriBITS) exports only the
# library target trilinos_kokkoskernels and KokkosKernels_INCLUDE_DIRS. Give both the same
# name, kspmv::kokkoskernels, so the rest of the build does not care which it found. A
# KokkosKernels of another major version than the Kokkos in use (Debian's 3.4, found in the
# system's paths, beside a Kokkos 4 given with Kokkos_ROOT) is left out, with a message: its
# headers do not compile against that Kokkos.
function(kspmv_define_kokkoskernels_target)
  if(TARGET kspmv::kokkoskernels)
    return()
  endif()
  string(REGEX MATCH "^[0-9]+" _kokkos_major "${Kokkos_VERSION}")
  set(_kk_major "")
  if(TARGET Kokkos::kokkoskernels)
    string(REGEX MATCH "^[0-9]+" _kk_major "${KokkosKernels_VERSION}")
  elseif(TARGET trilinos_kokkoskernels)
    set(_kk_major 3)  # the TriBITS package of Trilinos 13 ships KokkosKernels 3.x
  endif()
  if(_kk_major AND _kokkos_major AND NOT _kk_major STREQUAL _kokkos_major)
    message(STATUS "kspmv: KokkosKernels ${_kk_major}.x found beside Kokkos ${Kokkos_VERSION}: left out")
    return()
  endif()
  if(TARGET Kokkos::kokkoskernels)
    add_library(kspmv::kokkoskernels INTERFACE IMPORTED GLOBAL)
    set_property(TARGET kspmv::kokkoskernels PROPERTY INTERFACE_LINK_LIBRARIES Kokkos::kokkoskernels)
  elseif(TARGET trilinos_kokkoskernels)
    add_library(kspmv::kokkoskernels INTERFACE IMPORTED GLOBAL)
    set(_inc "")
    foreach(_dir IN LISTS KokkosKernels_INCLUDE_DIRS)
      get_filename_component(_dir "${_dir}" REALPATH)
      list(APPEND _inc "${_dir}")
    endforeach()
    set_property(TARGET kspmv::kokkoskernels PROPERTY INTERFACE_LINK_LIBRARIES "trilinos_kokkoskernels;Kokkos::kokkos")
    set_property(TARGET kspmv::kokkoskernels PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_inc}")
  endif()
endfunction()
