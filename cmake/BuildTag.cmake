# Names this build for result rows and file names (included after Backends.cmake).
#   PP_COMPILER_TAG   the OpenMP (= C) compiler: "clang-19", "gcc-12", "nvhpc-24", ... (Backends.cmake)
#   PP_OMP_FLAG_SET   the flag sweep's set name ("none" when PP_OMP_EXTRA_FLAGS is empty,
#                     "custom" when flags are given without a name)
#   PP_BUILD_TAG_RESOLVED  PP_BUILD_TAG, or "<compiler tag>[+<flag set>][+nosimd][+ompx1d]"
#                     (+nosimd: PP_OMP_SIMD=OFF in a build with the omp model; +ompx1d:
#                     PP_OMPX_GRID=flat with a compiler that has multi-dimensional ompx blocks)
# host, omp and ompx rows are labelled "<model>[<tag>]" (common/src/report.c);
# cuda/hip keep their model name: their compiler is in the build record.
# PP_COMPILER_TAG and PP_C_COMPILER_BANNER come from the compiler's row of
# cmake/OffloadCompilers.cmake (Backends.cmake): <TAG>-<major>, or
# generic-<compiler name> on the generic path (PP_OMP_OFFLOAD_FLAGS).
set(PP_OMP_FLAG_SET_RESOLVED "${PP_OMP_FLAG_SET}")
if(NOT PP_OMP_FLAG_SET_RESOLVED)
  if(PP_OMP_EXTRA_FLAGS)
    set(PP_OMP_FLAG_SET_RESOLVED custom)
  else()
    set(PP_OMP_FLAG_SET_RESOLVED none)
  endif()
endif()
if(PP_BUILD_TAG)
  set(PP_BUILD_TAG_RESOLVED "${PP_BUILD_TAG}")
elseif(PP_OMP_FLAG_SET_RESOLVED STREQUAL "none")
  set(PP_BUILD_TAG_RESOLVED "${PP_COMPILER_TAG}")
else()
  set(PP_BUILD_TAG_RESOLVED "${PP_COMPILER_TAG}+${PP_OMP_FLAG_SET_RESOLVED}")
endif()
if(NOT PP_BUILD_TAG AND NOT PP_OMP_SIMD AND PP_HAVE_OMP)
  string(APPEND PP_BUILD_TAG_RESOLVED "+nosimd")
endif()
if(NOT PP_BUILD_TAG AND PP_OMPX_FLAT_FORCED)
  string(APPEND PP_BUILD_TAG_RESOLVED "+ompx1d")
endif()
if(NOT PP_BUILD_TAG_RESOLVED MATCHES "^[A-Za-z0-9._+-]+$")
  message(FATAL_ERROR "PP_BUILD_TAG='${PP_BUILD_TAG_RESOLVED}': use letters, digits and . _ + - only "
    "(it names files and labels rows)")
endif()
# Flags some apps force on one kernel file whatever the flag set (read from the
# source properties once every app is added): recorded so a flag sweep's rows
# are not misread. Call at the end of the top-level CMakeLists.txt.
function(pp_forced_flags_note out)
  set(note "")
  foreach(app minife ${PP_APPS}) # the apps and the library two of them share
    foreach(M ${PP_OFFLOAD_MODELS})
      set(f ${PP_MODEL_NAME_${M}})
      if(EXISTS ${PROJECT_SOURCE_DIR}/${app}/kernels/${f}.c AND TARGET ${app})
        get_source_file_property(o ${PROJECT_SOURCE_DIR}/${app}/kernels/${f}.c
                                 DIRECTORY ${PROJECT_SOURCE_DIR}/${app} COMPILE_OPTIONS)
        if(o)
          list(REMOVE_ITEM o ${PP_OFFLOAD_COMPILE_FLAGS})
        endif()
        if(o)
          string(REPLACE ";" " " o "${o}")
          string(APPEND note "${app}/kernels/${f}.c always adds ${o}; ")
        endif()
      endif()
    endforeach()
  endforeach()
  string(REGEX REPLACE "; $" "" note "${note}")
  set(${out} "${note}" PARENT_SCOPE)
endfunction()
