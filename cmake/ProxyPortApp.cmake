# pp_add_app(NAME app SOURCES driver.c ... [NO_KERNELS]
#            [<MODEL>_SOURCES file...] [<MODEL>_LIBS lib...])
# One executable per app, warned alike (-Wall -Wextra on its C files). Its
# kernels are one file per model of PP_MODELS (cmake/Models.cmake), found by
# name: kernels/<model>.c for the models the C compiler builds (with the
# OpenMP offload flags for those that run on a device), kernels/<model><suffix>
# for the others (PP_KERNEL_SUFFIX_<model> and the rule pp_kernels_<model>,
# below). Each is compiled only when its model is in the build. NO_KERNELS:
# the app's kernels come from a library it links (spmv's from minife/);
# <MODEL>_SOURCES adds files to a model's kernel file (e.g. another app's),
# <MODEL>_LIBS links libraries when that model is built (e.g. CUDA_LIBS CUDA::cusparse).

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

# The rules of the models the C compiler does not build: the kernel file's
# suffix and how it joins the target (the CUDA language; hipcc objects).
set(PP_KERNEL_SUFFIX_cuda .cu)
function(pp_kernels_cuda target)
  target_sources(${target} PRIVATE ${ARGN})
endfunction()
set(PP_KERNEL_SUFFIX_hip .hip)
function(pp_kernels_hip target)
  pp_hip_objects(objs ${ARGN})
  target_sources(${target} PRIVATE ${objs})
endfunction()

# Adds the kernel files of model M (an entry of PP_MODELS) to target.
function(pp_add_kernels target M)
  set(name ${PP_MODEL_NAME_${M}})
  if(PP_MODEL_CC_${M})
    target_sources(${target} PRIVATE ${ARGN})
    if(PP_MODEL_DEVICE_${M})
      set_source_files_properties(${ARGN} PROPERTIES COMPILE_OPTIONS "${PP_OFFLOAD_COMPILE_FLAGS}")
    endif()
  else()
    cmake_language(CALL pp_kernels_${name} ${target} ${ARGN})
  endif()
endfunction()

function(pp_add_app)
  set(per_model "")
  foreach(M ${PP_MODELS})
    list(APPEND per_model ${M}_SOURCES ${M}_LIBS)
  endforeach()
  cmake_parse_arguments(A "NO_KERNELS" "NAME" "SOURCES;${per_model}" ${ARGN})
  if(A_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pp_add_app(${A_NAME}): unknown arguments ${A_UNPARSED_ARGUMENTS}")
  endif()
  add_executable(${A_NAME} ${A_SOURCES})
  target_include_directories(${A_NAME} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
  target_compile_options(${A_NAME} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra>)
  pp_link_common(${A_NAME})
  foreach(M ${PP_MODELS})
    set(name ${PP_MODEL_NAME_${M}})
    if(PP_MODEL_CC_${M})
      set(file kernels/${name}.c)
    elseif(DEFINED PP_KERNEL_SUFFIX_${name})
      set(file kernels/${name}${PP_KERNEL_SUFFIX_${name}})
    else()
      message(FATAL_ERROR "model ${name}: no kernel file rule (PP_KERNEL_SUFFIX_${name}, pp_kernels_${name}) in cmake/ProxyPortApp.cmake")
    endif()
    set(files ${A_${M}_SOURCES})
    if(NOT A_NO_KERNELS)
      # checked in every build, so that a CPU build already finds a missing GPU kernel file
      if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${file})
        message(FATAL_ERROR "${A_NAME}: no ${file} (one kernel file per model of common/include/pp/model.h; "
          "NO_KERNELS if the app's kernels come from a library)")
      endif()
      list(PREPEND files ${file})
    endif()
    if(PP_HAVE_${M} AND files)
      pp_add_kernels(${A_NAME} ${M} ${files})
    endif()
    if(PP_HAVE_${M} AND A_${M}_LIBS)
      target_link_libraries(${A_NAME} PRIVATE ${A_${M}_LIBS})
    endif()
  endforeach()
endfunction()
