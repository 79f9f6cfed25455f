# microbench: exact validation on the models that run here, CLI errors, JSON, MPI.
set(MB $<TARGET_FILE:microbench>)
set(MB_SMALL --size 2^12,2^16 --tpb 64,256 ${PP_TEST_FAST})

pp_test(microbench_validate COMMAND ${MB} --backend ${PP_TEST_MODELS} ${MB_SMALL} LABELS validate)
# The blocked team layout (--blocks) is a different loop schedule in omp and a grid-stride loop elsewhere.
pp_test(microbench_validate_blocks COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 100000 --tpb 64 --blocks 7 ${PP_TEST_FAST} LABELS validate)
pp_test(microbench_json
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/json_roundtrip.sh mb --min-rows 15 --models host
          --kernels zaxpy_d,triad,atomic_capture,launch_async --
          ${MB} --backend ${PP_TEST_MODELS} --size 4096 ${PP_TEST_FAST}
  LABELS unit validate)
pp_test(microbench_help COMMAND ${MB} --help EXPECT 0 "--backend LIST.*" LABELS unit)
pp_test(microbench_bad_backend COMMAND ${MB} --backend foo EXPECT 2 "unknown model 'foo'" LABELS unit input)
pp_test(microbench_bad_size COMMAND ${MB} --size -5 EXPECT 2 "--size: '-5' is not" LABELS unit input)
pp_test(microbench_zero_size COMMAND ${MB} --size 0 EXPECT 2 "--size: 0 is outside" LABELS unit input)
pp_test(microbench_absurd_size COMMAND ${MB} --size 2^40 EXPECT 2 "--size: .* is outside" LABELS unit input)
pp_test(microbench_too_big COMMAND ${MB} --backend host --size 2^30 --quiet EXPECT 2 "needs .* GiB of host memory" LABELS unit input)
pp_test(microbench_bad_tpb COMMAND ${MB} --tpb 100 EXPECT 2 "multiples of 32" LABELS unit input)
pp_test(microbench_bad_samples COMMAND ${MB} --samples 0 EXPECT 2 "--samples: 0 is outside" LABELS unit input)
pp_test(microbench_bad_gpu_wait COMMAND ${MB} --gpu-wait fast EXPECT 2 "--gpu-wait: 'fast' is not" LABELS unit input)
pp_test(microbench_bad_timer COMMAND ${MB} --timer cpu EXPECT 2 "--timer: 'cpu' is neither" LABELS unit input)
pp_test(microbench_bad_option COMMAND ${MB} --frobnicate EXPECT 2 "unknown option '--frobnicate'" LABELS unit input)
pp_test(microbench_bad_kernel COMMAND ${MB} --kernels triad,nope EXPECT 2 "unknown kernel 'nope'" LABELS unit input)
pp_test(microbench_unwritable_json COMMAND ${MB} --json /nonexistent-dir/x.json EXPECT 2 "cannot write" LABELS unit input)
if(NOT PP_HAVE_CUDA)
  pp_test(microbench_cuda_absent COMMAND ${MB} --backend cuda EXPECT 2 "model 'cuda' is not built" LABELS unit input)
  pp_test(microbench_lists_absent COMMAND ${MB} --backend host --size 64 --kernels triad ${PP_TEST_FAST}
    EXPECT 0 "cuda +NOT RUN: not built" LABELS unit)
endif()
if(PP_HAVE_CUDA OR PP_HAVE_HIP OR (PP_HAVE_OMP AND NOT PP_OFFLOAD STREQUAL "cpu"))
  # A GPU model on a machine without that GPU: a clear device error, exit 3, never a host fallback.
  set(_gpu cuda)
  if(NOT PP_HAVE_CUDA)
    set(_gpu omp)
  endif()
  execute_process(COMMAND nvidia-smi RESULT_VARIABLE _nogpu OUTPUT_QUIET ERROR_QUIET)
  if(_nogpu)
    pp_test(microbench_no_gpu COMMAND ${MB} --backend ${_gpu} --size 4096 EXPECT 3 "${_gpu}: .*(no|init|device)" LABELS unit)
  endif()
endif()
if(PP_HAVE_MPI)
  pp_mpi_command(MPI2 2)
  pp_test(microbench_mpi2 COMMAND ${MPI2} ${MB} --backend host --size 4096 --kernels triad,reduce,atomic_capture ${PP_TEST_FAST}
    EXPECT 0 "2 ranks.*" LABELS mpi)
endif()
