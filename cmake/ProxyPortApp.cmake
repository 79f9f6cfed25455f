# pp_add_app(NAME app SOURCES driver.c ... HOST kernels/host.c OMP kernels/omp.c
#            OMPX kernels/ompx.c CUDA kernels/cuda.cu HIP kernels/hip.hip
#            [CUDA_LIBS CUDA::cusparse] [HIP_LIBS hipsparse])
# Each model keyword takes a list (an app may add another app's kernel files).
# One executable per app; each model's kernel file is compiled only when the
# model is in the build, with that model's compiler and flags.

# hipcc is not a CMake language here (Debian's ROCm 5.2): compile to objects.
function(pp_hip_objects out_var)
  set(objs "")
  get_directory_property(_defs COMPILE_DEFINITIONS)
  foreach(src ${ARGN})
    get_filename_component(abs ${src} ABSOLUTE)
    get_filename_component(stem ${src} NAME_WE)
    get_filename_component(dir ${abs} DIRECTORY)
    string(MD5 h "${abs}")
    string(SUBSTRING "${h}" 0 8 h)
    set(obj ${CMAKE_CURRENT_BINARY_DIR}/hip-${stem}-${h}.o)
    add_custom_command(OUTPUT ${obj}
      COMMAND ${PP_HIPCC} ${PP_HIP_FLAGS} -I${PROJECT_SOURCE_DIR}/common/include -I${dir}
              -I${CMAKE_CURRENT_SOURCE_DIR} -DPP_HAVE_HIP=1 -c ${abs} -o ${obj}
      DEPENDS ${abs} IMPLICIT_DEPENDS CXX ${abs}
      COMMENT "hipcc ${src}" VERBATIM)
    list(APPEND objs ${obj})
  endforeach()
  set(${out_var} ${objs} PARENT_SCOPE)
endfunction()

# Links the common layer and the runtime libraries of every built model.
function(pp_link_common target)
  target_link_libraries(${target} PRIVATE pp_common)
  if(PP_HAVE_CUDA)
    target_link_libraries(${target} PRIVATE pp_common_cuda CUDA::cudart)
  endif()
  if(PP_HAVE_HIP)
    target_sources(${target} PRIVATE ${PP_COMMON_HIP_OBJECTS})
    add_dependencies(${target} pp_common_hip)
    target_link_libraries(${target} PRIVATE ${PP_AMDHIP64})
  endif()
  if(PP_HAVE_OMP OR PP_HAVE_OMPX)
    target_link_options(${target} PRIVATE ${PP_OFFLOAD_LINK_FLAGS})
  endif()
  set_target_properties(${target} PROPERTIES LINKER_LANGUAGE C)
endfunction()

function(pp_add_app)
  cmake_parse_arguments(A "" "NAME" "SOURCES;HOST;OMP;OMPX;CUDA;HIP;CUDA_LIBS;HIP_LIBS" ${ARGN})
  add_executable(${A_NAME} ${A_SOURCES} ${A_HOST})
  target_include_directories(${A_NAME} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  pp_link_common(${A_NAME})
  if(PP_HAVE_OMP AND A_OMP)
    target_sources(${A_NAME} PRIVATE ${A_OMP})
    set_source_files_properties(${A_OMP} PROPERTIES COMPILE_OPTIONS "${PP_OFFLOAD_FLAGS}")
  endif()
  if(PP_HAVE_OMPX AND A_OMPX)
    target_sources(${A_NAME} PRIVATE ${A_OMPX})
    set_source_files_properties(${A_OMPX} PROPERTIES COMPILE_OPTIONS "${PP_OFFLOAD_FLAGS}")
  endif()
  if(PP_HAVE_CUDA AND A_CUDA)
    target_sources(${A_NAME} PRIVATE ${A_CUDA})
    target_link_libraries(${A_NAME} PRIVATE ${A_CUDA_LIBS})
  endif()
  if(PP_HAVE_HIP AND A_HIP)
    pp_hip_objects(hip_objs ${A_HIP})
    target_sources(${A_NAME} PRIVATE ${hip_objs})
    target_link_libraries(${A_NAME} PRIVATE ${A_HIP_LIBS})
  endif()
endfunction()
