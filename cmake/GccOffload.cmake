# OpenMP offload flags for GCC (>= 12), included by Backends.cmake.
# Sets PP_OFFLOAD_FLAGS and PP_OFFLOAD_ARCH_NAME for PP_OFFLOAD nvidia|amd|cpu.
#   nvidia: NVPTX PTX for min(PP_NVIDIA_ARCH, sm_80), the newest ISA GCC 12
#           knows; CUDA 13's ptxas (which GCC's nvptx-as calls to verify)
#           rejects GCC's default sm_35, and the driver JIT-compiles the PTX
#           for the device at run time.
#   amd:    GCN code for PP_AMD_ARCH (with gcc-12 from Debian: fiji only, see below).
#   Device code calling libm (testsnap: tan) links the target's newlib libm: -foffload-options=-lm.
#   cpu:    GCC has no host offload device: target regions run as host
#           fallback on the initial device, which the omp model then uses
#           (PP_OFFLOAD_HOST_FALLBACK; the report says so).
if(PP_OFFLOAD STREQUAL "nvidia")
  string(REGEX REPLACE "^sm_" "" _sm "${PP_NVIDIA_ARCH}")
  set(_isa ${PP_NVIDIA_ARCH})
  if(_sm GREATER 80)
    set(_isa sm_80)
  endif()
  set(PP_OFFLOAD_ARCH_NAME "${_isa} PTX, gcc")
  set(PP_OFFLOAD_FLAGS -fopenmp -foffload=nvptx-none -foffload-options=nvptx-none=-misa=${_isa}
      -foffload-options=-lm)
elseif(PP_OFFLOAD STREQUAL "amd")
  # GCC 12 knows fiji, gfx900, gfx906, gfx908 (gfx90a, MI250X, came with GCC 13), but
  # Debian's gcc-12-offload-amdgcn has the device libgomp for fiji only: other
  # targets fail to link ("incompatible mach": libgomp.a(icv-device.o)).
  if(PP_CC_MAJOR LESS 13 AND NOT PP_AMD_ARCH STREQUAL "fiji")
    message(FATAL_ERROR "gcc-${PP_CC_MAJOR}'s GCN offload cannot target ${PP_AMD_ARCH}: gfx90a needs "
      "GCC >= 13, and Debian's gcc-12-offload-amdgcn links only fiji (its device libgomp is fiji's); "
      "set PP_AMD_ARCH=fiji for a compile check")
  endif()
  set(PP_OFFLOAD_ARCH_NAME ${PP_AMD_ARCH})
  set(PP_OFFLOAD_FLAGS -fopenmp -foffload=amdgcn-amdhsa -foffload-options=amdgcn-amdhsa=-march=${PP_AMD_ARCH}
      -foffload-options=-lm)
elseif(PP_OFFLOAD STREQUAL "cpu")
  execute_process(COMMAND uname -m OUTPUT_VARIABLE _m OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(PP_OFFLOAD_ARCH_NAME ${_m})
  set(PP_OFFLOAD_FLAGS -fopenmp -foffload=disable -DPP_OFFLOAD_CPU=1 -DPP_OFFLOAD_HOST_FALLBACK=1)
endif()
