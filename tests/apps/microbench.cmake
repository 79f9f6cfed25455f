# microbench: exact validation on the models that run here, CLI errors, JSON, MPI.
set(MB $<TARGET_FILE:microbench>)
set(MB_SMALL --size 2^12,2^16 --tpb 64,256 ${PP_TEST_FAST})

pp_test(microbench_validate COMMAND ${MB} --backend ${PP_TEST_MODELS} ${MB_SMALL} LABELS validate)
# The blocked team layout (--blocks) is a different loop schedule in omp and a grid-stride loop elsewhere.
pp_test(microbench_validate_blocks COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 100000 --tpb 64 --blocks 7 ${PP_TEST_FAST} LABELS validate)
# Elements per thread (--per-thread): whole steps of MB_PER_THREAD and a remainder (100003 is prime).
pp_test(microbench_validate_per_thread COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 100003 --tpb 64,96 --per-thread 3
  --kernels init,zaxpy_f,zaxpy_i,copy,triad ${PP_TEST_FAST} EXPECT 0 " passed, 0 failed" LABELS validate)
pp_test(microbench_validate_per_thread_1 COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 100003 --tpb 64 --per-thread 1
  --kernels copy,add ${PP_TEST_FAST} EXPECT 0 " passed, 0 failed" LABELS validate)
pp_test(microbench_json
  COMMAND ${PP_HARNESS}/json_roundtrip.sh mb --min-rows 15 --models host
          --kernels zaxpy_d,triad,atomic_capture,launch_async --
          ${MB} --backend ${PP_TEST_MODELS} --size 4096 ${PP_TEST_FAST}
  LABELS unit validate)
# Sizes below the launch chain's 1024 elements (it once wrote 1024 doubles into n-element arrays).
pp_test(microbench_small_sizes COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 1,100,1023 --tpb 64 ${PP_TEST_FAST}
  EXPECT 0 " passed, 0 failed" LABELS validate)
# A host allocation that fails is one clear line and exit 3, never a crash.
# AddressSanitizer's shadow memory cannot start under an address-space bound:
# skipped (exit 77) in the sanitizer build (scripts/sanitize).
pp_test(microbench_host_oom COMMAND sh -c "[ -n \"$ASAN_OPTIONS\" ] && exit 77 || ulimit -v 600000 && exec \"$0\" \"$@\"" ${MB} --backend host --size 2^24 ${PP_TEST_FAST}
  EXPECT 3 "microbench: cannot allocate .* MiB of host memory" LABELS unit)
set_tests_properties(microbench_host_oom PROPERTIES SKIP_RETURN_CODE 77)

# Planted faults: every check must FAIL (exit 1) on a wrong result. NAME-missed
# (every kernel; the generic loop skips its runs): poisoned outputs stay unwritten.
set(MB_FAULT ${MB} --backend host --size 4096 ${PP_TEST_FAST})
foreach(k init zaxpy_d zaxpy_f zaxpy_i copy mul add triad dot atomic_update atomic_capture reduce
          launch_empty launch_sync launch_async)
  pp_test(microbench_fault_${k}_missed COMMAND ${MB_FAULT} --kernels ${k} --inject-fault ${k}-missed
    EXPECT 1 "${k} +host .*FAIL" LABELS validate fault)
endforeach()
# One wrong element of the result.
foreach(k init zaxpy_d zaxpy_f zaxpy_i copy mul add triad)
  pp_test(microbench_fault_${k}_element COMMAND ${MB_FAULT} --kernels ${k} --inject-fault ${k}-element
    EXPECT 1 "${k} +host .*FAIL 1 of 4096 elements differ" LABELS validate fault)
endforeach()
# A wrong sum.
foreach(k dot atomic_update reduce)
  pp_test(microbench_fault_${k}_sum COMMAND ${MB_FAULT} --kernels ${k} --inject-fault ${k}-sum
    EXPECT 1 "${k} +host .*FAIL" LABELS validate fault)
endforeach()
# Compaction: a wrong count; one wrong value among the right count.
pp_test(microbench_fault_atomic_capture_count COMMAND ${MB_FAULT} --kernels atomic_capture
  --inject-fault atomic_capture-count EXPECT 1 "atomic_capture +host .*FAIL count" LABELS validate fault)
pp_test(microbench_fault_atomic_capture_value COMMAND ${MB_FAULT} --kernels atomic_capture
  --inject-fault atomic_capture-value EXPECT 1 "atomic_capture +host .*FAIL .*multiset DIFFERS" LABELS validate fault)
# One launch of the 100 of one run missing.
pp_test(microbench_fault_launch_empty_skip_one COMMAND ${MB_FAULT} --kernels launch_empty
  --inject-fault launch_empty-skip-one EXPECT 1 "launch_empty +host .*FAIL 299 launches counted, 300 made" LABELS validate fault)
# A fault name the app does not plant (here another app's) is refused at
# start-up, before 2^24 elements are touched (the timeout fails a late refusal).
pp_test(microbench_fault_unknown COMMAND ${MB} --backend host --size 2^24 ${PP_TEST_FAST} --inject-fault spmv-y
  EXPECT 2 "^microbench: --inject-fault: 'spmv-y' is not a fault microbench can plant" LABELS unit)
set_tests_properties(microbench_fault_unknown PROPERTIES TIMEOUT 5)

pp_test(microbench_bad_backend COMMAND ${MB} --backend foo EXPECT 2 "unknown model 'foo'" LABELS unit input)
pp_test(microbench_bad_size COMMAND ${MB} --size -5 EXPECT 2 "--size: '-5' is not" LABELS unit input)
pp_test(microbench_zero_size COMMAND ${MB} --size 0 EXPECT 2 "--size: 0 is outside" LABELS unit input)
pp_test(microbench_absurd_size COMMAND ${MB} --size 2^40 EXPECT 2 "--size: .* is outside" LABELS unit input)
pp_test(microbench_too_big COMMAND ${MB} --backend host --size 2^30 --quiet EXPECT 2 "needs .* GiB of host memory" LABELS unit input
  ENV ${PP_TEST_MEMORY})
pp_test(microbench_bad_per_thread COMMAND ${MB} --per-thread 0 EXPECT 2 "--per-thread: 0 is outside" LABELS unit input)
pp_test(microbench_bad_tpb COMMAND ${MB} --tpb 100 EXPECT 2 "multiples of 32" LABELS unit input)
pp_test(microbench_bad_samples COMMAND ${MB} --samples 0 EXPECT 2 "--samples: 0 is outside" LABELS unit input)
pp_test(microbench_bad_gpu_wait COMMAND ${MB} --gpu-wait fast EXPECT 2 "--gpu-wait: 'fast' is not" LABELS unit input)
pp_test(microbench_bad_timer COMMAND ${MB} --timer cpu EXPECT 2 "--timer: 'cpu' is neither" LABELS unit input)
pp_test(microbench_bad_kernel COMMAND ${MB} --kernels triad,nope EXPECT 2 "unknown kernel 'nope'" LABELS unit input)
pp_test(microbench_unwritable_json COMMAND ${MB} --json /nonexistent-dir/x.json EXPECT 2 "cannot write" LABELS unit input)
if(NOT PP_HAVE_CUDA)
  pp_test(microbench_cuda_absent COMMAND ${MB} --backend cuda EXPECT 2 "model 'cuda' is not built" LABELS unit input)
  pp_test(microbench_lists_absent COMMAND ${MB} --backend host --size 64 --kernels triad ${PP_TEST_FAST}
    EXPECT 0 "cuda +NOT RUN: not built" LABELS unit)
  # turned off by the configure while nvcc is there: said so, not "no CUDA compiler found"
  find_program(_mb_nvcc nvcc PATHS /usr/local/cuda/bin NO_CACHE)
  if(PP_ENABLE_CUDA STREQUAL "OFF" AND _mb_nvcc)
    pp_test(microbench_cuda_off_says_which COMMAND ${MB} --backend cuda LABELS unit input
      EXPECT 2 "model 'cuda' is not built: PP_ENABLE_CUDA=OFF in this build's configure \\(its preset or -D\\), though nvcc is at ${_mb_nvcc}")
  endif()
endif()
# A model this build lacks, in a sentence: "is not built: <why>" (never "is <why>").
foreach(M ${PP_OPTIONAL_MODELS})
  if(NOT PP_HAVE_${M})
    pp_test(microbench_${PP_MODEL_NAME_${M}}_absent_reads COMMAND ${MB} --backend host,${PP_MODEL_NAME_${M}} LABELS unit input
      EXPECT 2 "--backend: model '${PP_MODEL_NAME_${M}}' is not built: [^ ]")
  endif()
endforeach()
if(NOT PP_HAVE_CUDA AND NOT PP_HAVE_HIP AND PP_OFFLOAD MATCHES "^(cpu|none)$")
  # no GPU model: the header says so, not "driver default" (spin is --help's default), and
  # vs-nat's '-' is explained (the host model is a CPU reference, not a yardstick)
  pp_test(microbench_no_gpu_header COMMAND ${MB} --backend ${PP_TEST_MODELS} --size 64 --kernels triad ${PP_TEST_FAST}
    EXPECT 0 "gpu wait +none: no GPU model in this build \\(offload to ${PP_OFFLOAD}\\)
triad +host +64 .* - +PASS
\\('-' here: no native model ran,$"
    LABELS unit)
endif()
# The omp atomic_capture kernel on the host as the offload device costs about
# what the host model's does: its GPU form (team-aggregated, two barriers per
# chunk of as many elements as the team has threads) once took 1.6 s at 2^20
# on 2 idle cores, 9-14 s on a busy machine, against the host model's 6 ms.
# A ratio of the two models' medians in one run holds under load.
if(PP_HAVE_OMP AND PP_OFFLOAD STREQUAL "cpu")
  pp_test(microbench_omp_atomic_capture_cost
    COMMAND python3 ${CMAKE_CURRENT_LIST_DIR}/time_ratio.py --kernel atomic_capture
            --slow omp --fast host --most 10 --
            ${MB} --backend host,omp --kernels atomic_capture --size 2^20 --tpb 256
            --warmup 1 --samples 3 --bootstrap 0 --ceiling-mib 8 --quiet
    LABELS validate)
  set_tests_properties(microbench_omp_atomic_capture_cost PROPERTIES TIMEOUT 60)
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
