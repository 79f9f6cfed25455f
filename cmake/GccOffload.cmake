# GCC's offload facts behind the gcc row of cmake/OffloadCompilers.cmake.
#   nvidia: NVPTX PTX for min(PP_NVIDIA_ARCH, sm_80), the newest ISA GCC 12
#           knows (@GCC_NV_ISA@); CUDA 13's ptxas (which GCC's nvptx-as calls
#           to verify) rejects GCC's default sm_35, and the driver JIT-compiles
#           the PTX for the device at run time.
#   amd:    GCN code for PP_AMD_ARCH (with gcc-12 from Debian: fiji only, see below).
#   Device code calling libm (testsnap: tan) links the target's newlib libm: -foffload-options=-lm.
#   cpu:    GCC has no host offload device: target regions run as host
#           fallback on the initial device, which the omp model then uses
#           (PP_OFFLOAD_HOST_FALLBACK; the report says so).

# pp_gcc_nv_isa(<out> <sm_XX>): the PTX ISA GCC is asked for.
function(pp_gcc_nv_isa out arch)
  string(REGEX REPLACE "^sm_" "" sm "${arch}")
  if(sm GREATER 80)
    set(arch sm_80)
  endif()
  set(${out} ${arch} PARENT_SCOPE)
endfunction()

function(pp_check_gcc_offload target)
  # GCC 12 knows fiji, gfx900, gfx906, gfx908 (gfx90a, MI250X, came with GCC 13), but
  # Debian's gcc-12-offload-amdgcn has the device libgomp for fiji only: other
  # targets fail to link ("incompatible mach": libgomp.a(icv-device.o)).
  string(REGEX MATCH "^[0-9]+" major "${CMAKE_C_COMPILER_VERSION}")
  if(target STREQUAL "amd" AND major LESS 13 AND NOT AMD_ARCH STREQUAL "fiji")
    message(FATAL_ERROR "gcc-${major}'s GCN offload cannot target ${AMD_ARCH}: gfx90a needs "
      "GCC >= 13, and Debian's gcc-12-offload-amdgcn links only fiji (its device libgomp is fiji's); "
      "set PP_AMD_ARCH=fiji for a compile check")
  endif()
endfunction()
