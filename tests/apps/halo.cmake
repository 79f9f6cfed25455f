# cgsolve's halo path choice: the pure function with every combination
# (unit), and end to end on 2 and 3 ranks of the CPU models with the GPU facts
# faked (PP_TEST_HALO: the memory kind, the IPC verdict, the node layout; the
# GPU-aware answer is the MPI query's own, MPICH_GPU_SUPPORT_ENABLED=1 where
# it must say yes): the path the report names, the path that ran on the host
# memory, the solve validated; and the refusals, once, exit 2, no MPI_Abort.
# (the choice reads the table of paths: CG_HALO_PATH_SOURCES, cgsolve/CMakeLists.txt)
add_executable(test_halo_pick ${CMAKE_CURRENT_LIST_DIR}/test_halo_pick.c ${PROJECT_SOURCE_DIR}/cgsolve/halo_pick.c ${CG_HALO_PATH_SOURCES})
target_include_directories(test_halo_pick PRIVATE ${PROJECT_SOURCE_DIR}/cgsolve ${PROJECT_SOURCE_DIR}/minife)
target_compile_options(test_halo_pick PRIVATE -Wall -Wextra)
pp_link_common(test_halo_pick)
target_link_libraries(test_halo_pick PRIVATE ${CMAKE_DL_LIBS})
pp_test(unit_halo_pick COMMAND test_halo_pick LABELS unit)
set_tests_properties(unit_halo_pick PROPERTIES TIMEOUT 30)
if(NOT PP_HAVE_MPI)
  return()
endif()
set(_hp $<TARGET_FILE:cgsolve> --size 8 --backend ${PP_TEST_MODELS} --tol 1e-12 --warmup 0 --samples 1
  --bootstrap 0 --ceiling-mib 1 --quiet)
set(_hpAware MPICH_GPU_SUPPORT_ENABLED=1)
# Open MPI's run-time answer: a preloaded MPIX_Query_cuda_support() that says 1 (the header of a
# distribution's Open MPI says the library it was built with had no CUDA support)
# (only where mpi-ext.h declares that query: Open MPI)
include(CheckSymbolExists)
set(CMAKE_REQUIRED_INCLUDES ${MPI_C_INCLUDE_DIRS})
set(CMAKE_REQUIRED_LIBRARIES ${MPI_C_LIBRARIES})
check_symbol_exists(MPIX_Query_cuda_support "mpi.h;mpi-ext.h" PP_HAVE_MPIX_CUDA_QUERY)
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_LIBRARIES)
set(_hpQueryRow)
if(PP_HAVE_MPIX_CUDA_QUERY)
  add_library(fake_mpix_cuda SHARED ${PP_FAKES}/fake_mpix_cuda.c)
  set(_hpQueryRow "aware_query|LD_PRELOAD=$<TARGET_FILE:fake_mpix_cuda>;PP_TEST_HALO=memory=cuda|halo host +MPI point to point on the model's own memory, no staging [(]MPIX_Query_cuda_support[(][)] = 1[)]\nhalo host ran +MPI point to point on host memory")
endif()
set(_hpTests)
# NAME|ENV;...|REGEX (lines in order; no ";" in it: the table splits on it): what the report says was chosen, then what ran
foreach(np 2 3)
  pp_mpi_command(_hpMpi ${np})
  foreach(row
      "aware|${_hpAware};PP_TEST_HALO=memory=cuda|halo host +MPI point to point on the model's own memory, no staging [(]MPICH_GPU_SUPPORT_ENABLED=1 .*\nhalo host ran +MPI point to point on host memory"
      "${_hpQueryRow}"
      "cuda_ipc|PP_TEST_HALO=memory=cuda,ipc=yes|halo host +device to device .*through CUDA IPC [(]one node[)]\nhalo host ran +MPI point to point on host memory"
      "hip_ipc|PP_TEST_HALO=memory=hip,ipc=yes|halo host +device to device .*through HIP IPC [(]one node[)]\nhalo host ran +MPI point to point on host memory"
      "two_nodes|PP_TEST_HALO=memory=hip,ipc=yes,per-node=1|halo host +boundary planes staged .*[(]IPC: the ranks are on more than one node.*\nhalo host ran +staged on host memory"
      "no_driver|PP_TEST_HALO=memory=cuda,ipc=no|halo host +boundary planes staged .*[(]IPC: PP_TEST_HALO: ipc=no. MPI: the MPI library does not report GPU support.*\nhalo host ran +staged on host memory")
    if(row STREQUAL "")  # no Open MPI query to fake
      continue()
    endif()
    pp_case_split("${row}" name env re)
    pp_test(cgsolve_mpi${np}_halo_auto_${name} COMMAND ${_hpMpi} ${_hp}
      EXPECT 0 "${re}\n.*cg_solve +host +8 .*PASS" LABELS mpi ENV ${env})
    list(APPEND _hpTests cgsolve_mpi${np}_halo_auto_${name})
  endforeach()
  # the refusals: one line (rank 0's), exit 2 on every rank, no MPI_Abort
  foreach(row
      "ipc_two_nodes|cuda-ipc|PP_TEST_HALO=memory=cuda,ipc=yes,per-node=1|--halo cuda-ipc: not possible for the host model: the ranks are on more than one node"
      "ipc_other_vendor|cuda-ipc|PP_TEST_HALO=memory=hip,ipc=yes|--halo cuda-ipc: not possible for the host model: the model's memory is AMD GPU memory: --halo hip-ipc"
      "hip_ipc_host|hip-ipc|-|--halo hip-ipc: not possible for the host model: the model's memory is host memory"
      "device_not_aware|mpi-device|PP_TEST_HALO=memory=hip|--halo mpi-device: not possible for the host model: the MPI library does not report GPU support"
      "bad_fake|auto|PP_TEST_HALO=memory=cuda,ipc=maybe|PP_TEST_HALO: expected memory=cuda.hip.other, ipc=yes.no, per-node=K")
    pp_case_split("${row}" name args re)
    list(GET args 0 req)
    list(GET args 1 env)
    if(env STREQUAL "-")
      set(env)
    endif()
    add_test(NAME cgsolve_mpi${np}_halo_refuse_${name} COMMAND ${PP_EXPECT} --absent MPI_ABORT --once 2
      "^cgsolve: (rank 0 of ${np}: )?${re}" -- ${_hpMpi} ${_hp} --halo ${req})
    set_tests_properties(cgsolve_mpi${np}_halo_refuse_${name} PROPERTIES LABELS "mpi;input"
      ENVIRONMENT "${PP_TEST_ENV};${env}")
    list(APPEND _hpTests cgsolve_mpi${np}_halo_refuse_${name})
  endforeach()
endforeach()
set_tests_properties(${_hpTests} PROPERTIES TIMEOUT 60)

# The IPC exchange (cgsolve/halo_ipc.c, shared by CUDA and HIP IPC) over a
# driver of shared host memory, on 2 and 3 ranks: what the GPUs run, minus the GPU.
add_executable(test_halo_ipc ${CMAKE_CURRENT_LIST_DIR}/test_halo_ipc.c ${CG_HALO_PATH_SOURCES})
target_include_directories(test_halo_ipc PRIVATE ${PROJECT_SOURCE_DIR}/cgsolve ${PROJECT_SOURCE_DIR}/minife)
target_compile_options(test_halo_ipc PRIVATE -Wall -Wextra)
pp_link_common(test_halo_ipc)
target_link_libraries(test_halo_ipc PRIVATE ${CMAKE_DL_LIBS} rt)
foreach(np 2 3)
  pp_mpi_command(_hpMpi ${np})
  pp_test(cgsolve_mpi${np}_halo_ipc_exchange COMMAND ${_hpMpi} $<TARGET_FILE:test_halo_ipc> LABELS mpi)
  set_tests_properties(cgsolve_mpi${np}_halo_ipc_exchange PROPERTIES TIMEOUT 30)
endforeach()

# The staged exchange (cgsolve/halo.c) through the model's concurrent copies where it has them,
# and --overlap's helper thread (cgsolve/halo_helper.c), on 2 and 3 ranks with a host "device".
find_package(Threads)
if(Threads_FOUND)
  add_executable(test_halo_staged ${CMAKE_CURRENT_LIST_DIR}/test_halo_staged.c ${PROJECT_SOURCE_DIR}/cgsolve/halo.c
    ${PROJECT_SOURCE_DIR}/cgsolve/halo_helper.c ${CG_HALO_PATH_SOURCES})
  target_include_directories(test_halo_staged PRIVATE ${PROJECT_SOURCE_DIR}/cgsolve ${PROJECT_SOURCE_DIR}/minife)
  target_compile_definitions(test_halo_staged PRIVATE CG_HAVE_THREADS=1)
  target_compile_options(test_halo_staged PRIVATE -Wall -Wextra)
  pp_link_common(test_halo_staged)
  target_link_libraries(test_halo_staged PRIVATE ${CMAKE_DL_LIBS} Threads::Threads)
  foreach(np 2 3)
    pp_mpi_command(_hsMpi ${np})
    pp_test(cgsolve_mpi${np}_halo_staged_exchange COMMAND ${_hsMpi} $<TARGET_FILE:test_halo_staged> LABELS mpi)
    set_tests_properties(cgsolve_mpi${np}_halo_staged_exchange PROPERTIES TIMEOUT 30)
  endforeach()
endif()
