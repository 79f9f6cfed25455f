# Result files against their JSON schema (validate/schema/result.schema.json)
# with the system record per rank: every app's small run, two MPI ranks, the
# environment and a batch job recorded, and files with a field removed,
# misspelt or `system` missing must fail. Needs Python's jsonschema (exit 2,
# never a skip, without it: scripts/setup installs it).
set(SCH python3 ${CMAKE_CURRENT_LIST_DIR}/check_schema.py)
set(SCH_MB $<TARGET_FILE:microbench> --backend ${PP_TEST_MODELS} --size 4096 --kernels triad,dot ${PP_TEST_FAST})

pp_test(schema_microbench COMMAND ${SCH} --run schema_microbench.json -- ${SCH_MB} LABELS unit)
set_tests_properties(schema_microbench PROPERTIES FIXTURES_SETUP schema_file)
# Every other app's small run (its manifest's [tests] small; on the models of its
# schema_models, else every model that runs here).
foreach(app ${PP_APPS})
  if(NOT TARGET ${app} OR TEST schema_${app})
    continue()
  endif()
  pp_app_args(args ${app} tests.small)
  pp_app_get(models ${app} tests.schema_models ${PP_TEST_MODELS})
  pp_app_fast(fast ${app})
  pp_test(schema_${app} COMMAND ${SCH} --run schema_${app}.json -- $<TARGET_FILE:${app}> ${args}
    --backend ${models} ${fast} LABELS unit)
endforeach()

# What the environment and a batch scheduler said (Slurm's variables set by hand).
pp_test(schema_env_slurm COMMAND ${SCH} --run schema_slurm.json
  --expect "system.0.env.OMP_NUM_THREADS=\"2\"" --expect "system.0.scheduler.name=\"slurm\""
  --expect "system.0.scheduler.job_id=\"4242\"" --expect "system.0.scheduler.nodelist=\"gpu[01-02]\""
  --expect "system.0.scheduler.task_rank=\"0\"" -- ${SCH_MB}
  ENV SLURM_JOB_ID=4242 SLURM_JOB_NODELIST=gpu[01-02] SLURM_PROCID=0 SLURM_LOCALID=0 LABELS unit)
# PBS: the node list is the node file's hosts, each once (the file repeats a host per slot).
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/schema_pbs_nodes "x1001c0s0b0n0\nx1001c0s0b0n0\nx1001c0s0b0n1\n")
pp_test(schema_env_pbs COMMAND ${SCH} --run schema_pbs.json --expect "system.0.scheduler.name=\"pbs\""
  --expect "system.0.scheduler.job_id=\"77.pbs01\"" --expect "system.0.scheduler.nodelist=\"x1001c0s0b0n0,x1001c0s0b0n1\""
  -- ${SCH_MB} ENV PBS_JOBID=77.pbs01 PBS_NODEFILE=${CMAKE_CURRENT_BINARY_DIR}/schema_pbs_nodes LABELS unit)
# ... and --expect can fail (the run above is rank 0, not 1).
pp_test(schema_expect_wrong COMMAND ${SCH} schema_microbench.json --expect "system.0.rank=1"
  EXPECT 1 "check_schema: FAIL: system.0.rank is 0, expected 1" LABELS unit)

# Broken files must fail: system missing, a field misspelt, a build field
# removed, a device's identity removed, a rank's device list short.
set(_schema_bad
  "no_system|del:system|\\(top\\): 'system' is a required property"
  "misspelt|rename:results.0.fom:fon|results/0: Additional properties are not allowed \\('fon' was unexpected\\)"
  "no_tag|del:build.tag|build: 'tag' is a required property"
  "no_uuid|del:devices.0.uuid|devices/0: 'uuid' is a required property"
  "no_hostname|del:system.0.hostname|system/0: 'hostname' is a required property"
  "bad_uuid|set:devices.0.uuid:\"GPU-1234\"|devices/0/uuid: 'GPU-1234' does not match"
  "rank_devices|del:system.0.devices.0|rank 0's devices .* are not the models that ran")
foreach(row IN LISTS _schema_bad)
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 name)
  list(GET parts 1 mutation)
  list(GET parts 2 re)
  pp_test(schema_fails_${name} COMMAND ${SCH} schema_microbench.json --mutate ${mutation} EXPECT 1 "${re}" LABELS unit)
endforeach()

# A GPU device must be named by its driver (--gpu-identity, for GPU runs): an
# OpenMP device known only by its number fails; a complete record passes.
set(_gpu --mutate set:devices.0.is_gpu:true --mutate set:system.0.devices.0.is_gpu:true)
pp_test(schema_fails_gpu_unnamed COMMAND ${SCH} schema_microbench.json ${_gpu}
  --mutate "set:devices.0.name:\"OpenMP offload device 0 of 1\"" --gpu-identity
  EXPECT 1 "devices\\[host\\]: uuid unknown" LABELS unit)
set(_named)
foreach(where devices.0 system.0.devices.0)
  list(APPEND _named --mutate "set:${where}.name:\"NVIDIA H200 (OpenMP offload device 0 of 1)\""
    --mutate "set:${where}.uuid:\"GPU-0123abcd-0000-1111-2222-333344445555\""
    --mutate "set:${where}.pci_bus_id:\"00000000:19:00.0\"" --mutate "set:${where}.driver_api:\"CUDA 13.0\"")
endforeach()
pp_test(schema_gpu_named COMMAND ${SCH} schema_microbench.json ${_gpu} ${_named} --gpu-identity
  EXPECT 0 "check_schema: OK" LABELS unit)
# Without jsonschema the check fails loudly (python3 -S: no site packages).
pp_test(schema_no_jsonschema COMMAND python3 -S ${CMAKE_CURRENT_LIST_DIR}/check_schema.py schema_microbench.json
  EXPECT 2 "jsonschema is not installed" LABELS unit)
set_tests_properties(schema_expect_wrong schema_fails_gpu_unnamed schema_gpu_named schema_no_jsonschema
  PROPERTIES FIXTURES_REQUIRED schema_file)
foreach(row IN LISTS _schema_bad)
  string(REGEX REPLACE "\\|.*" "" name "${row}")
  set_tests_properties(schema_fails_${name} PROPERTIES FIXTURES_REQUIRED schema_file)
endforeach()

if(PP_HAVE_MPI)
  # Two ranks: two system records, in rank order, each with its devices.
  pp_mpi_command(_mpi2 2)
  pp_test(schema_mpi2 COMMAND ${SCH} --ranks 2 --expect system.1.rank=1 --expect system.1.local_rank=1
    --run schema_mpi2.json -- ${_mpi2} ${SCH_MB} LABELS mpi unit)
endif()

# An environment variable's value is written escaped, and a name that could
# not be a JSON key as it stands is left out (the file must still validate).
pp_test(schema_env_hostile COMMAND ${SCH} --run schema_env_hostile.json
  --expect "system.0.env.GOMP_PP_TEST=\"a\\\"b\\\\c\"" -- env "GOMP_A\"B=1" "GOMP_PP_TEST=a\"b\\c" ${SCH_MB} LABELS unit input)
