# Full system disclosure in the result file (common/src/system_disclose.c):
# modules, Cray PE, MPI library, CPU governor, load average, the scheduler's
# allocation and the site file, each a value or "not available: <reason>".
# Uses check_schema.py and the microbench run of schema.cmake (SCH, SCH_MB).
set(_sys ${CMAKE_CURRENT_BINARY_DIR}/system_fixtures)

# Modules, the Cray PE (search paths left out) and Slurm's allocation, as set.
# env -i empties the environment; a sanitizer build's leak policy (scripts/sanitize:
# the apps exit without freeing) is kept, harmless elsewhere.
set(_keep_san ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:exitcode=99 UBSAN_OPTIONS=halt_on_error=1)
pp_test(system_modules_cray_alloc COMMAND ${SCH} --run system_env.json
  --expect "system.0.modules.loaded=[\"gcc/12.2\",\"openmpi/4.1\"]"
  --expect "system.0.modules.files=[\"/m/gcc/12.2.lua\",\"/m/openmpi/4.1.lua\"]"
  --expect "system.0.cray_pe={\"CRAYPE_VERSION\":\"2.7.30\",\"PE_ENV\":\"GNU\"}"
  --expect "system.0.allocation.SLURM_NTASKS=\"4\"" --expect "system.0.allocation.SLURM_GPUS_PER_NODE=\"4\""
  -- env -i PATH=$ENV{PATH} ${_keep_san} LOADEDMODULES=gcc/12.2:openmpi/4.1 _LMFILES_=/m/gcc/12.2.lua:/m/openmpi/4.1.lua
  CRAYPE_VERSION=2.7.30 PE_ENV=GNU CRAY_LD_LIBRARY_PATH=/opt/cray/lib SLURM_JOB_ID=9 SLURM_NTASKS=4
  SLURM_GPUS_PER_NODE=4 ${SCH_MB} LABELS unit)
# ... and without them, each says why.
pp_test(system_not_available COMMAND ${SCH} --run system_none.json
  --expect "system.0.modules=\"not available: LOADEDMODULES is not set (no environment modules loaded)\""
  --expect "system.0.cray_pe=\"not available: no CRAY* or PE_* variables set (not a Cray Programming Environment)\""
  --expect "system.0.allocation=\"not available: no batch job (SLURM_JOB_ID, FLUX_JOB_ID and PBS_JOBID are not set)\""
  --expect "site_file=\"not available: PP_SITE_FILE is not set\""
  -- env -i PATH=$ENV{PATH} ${_keep_san} ${SCH_MB} LABELS unit)

# The governor of each CPU the rank may use, from a planted cpufreq tree (CPU 0 only: taskset).
file(WRITE ${_sys}/cpu/cpu0/cpufreq/scaling_governor "performance\n")
file(WRITE ${_sys}/cpu/cpu0/cpufreq/scaling_driver "acpi-cpufreq\n")
pp_test(system_governor COMMAND ${SCH} --run system_governor.json
  --expect "system.0.cpu_governor=\"performance (1 CPU, 0-0)\""
  --expect "system.0.cpu_freq_driver=\"acpi-cpufreq\""
  -- taskset -c 0 ${SCH_MB} ENV PP_CPUFREQ_ROOT=${_sys}/cpu LABELS unit)
# A FIFO where the governor should be is refused at once, never waited on.
file(MAKE_DIRECTORY ${_sys}/cpu-fifo/cpu0/cpufreq)
execute_process(COMMAND mkfifo ${_sys}/cpu-fifo/cpu0/cpufreq/scaling_governor ERROR_QUIET)
pp_test(system_governor_fifo COMMAND ${SCH} --run system_governor_fifo.json
  --expect "system.0.cpu_governor=\"not available: ${_sys}/cpu-fifo/cpu0/cpufreq: not a regular file\""
  -- taskset -c 0 ${SCH_MB} ENV PP_CPUFREQ_ROOT=${_sys}/cpu-fifo LABELS unit)
set_tests_properties(system_governor_fifo PROPERTIES TIMEOUT 30)

# The site file, whole: its digest as CMake computes it (a second implementation).
set(_site_text "# a site file\n[site]\nname = \"test \\\"quoted\\\" é\"\n")
file(WRITE ${_sys}/site.toml "${_site_text}")
file(SHA256 ${_sys}/site.toml _site_sha)
string(LENGTH "${_site_text}" _site_len)
pp_test(system_site_file COMMAND ${SCH} --run system_site.json
  --expect "site_file.sha256=\"${_site_sha}\"" --expect "site_file.path=\"${_sys}/site.toml\""
  --expect "site_file.text=\"# a site file\\n[site]\\nname = \\\"test \\\\\\\"quoted\\\\\\\" é\\\"\\n\""
  -- ${SCH_MB} ENV PP_SITE_FILE=${_sys}/site.toml LABELS unit)
# Not a regular file, missing, too large: recorded as not available, the run goes on.
string(REPEAT "0123456789abcdef" 16385 _big) # 262160 bytes: 16 over the limit
file(WRITE ${_sys}/big.toml "${_big}")
set(_site_bad
  "dir|${_sys}|not available: PP_SITE_FILE '${_sys}' is not a regular file"
  "missing|${_sys}/none.toml|not available: PP_SITE_FILE '${_sys}/none.toml': No such file or directory"
  "big|${_sys}/big.toml|not available: PP_SITE_FILE '${_sys}/big.toml' has 262160 bytes, more than 262144"
  # the kernel's files claim to be regular (size 0 in /proc): /proc/self/environ
  # copied the process environment into the result before
  "proc_environ|/proc/self/environ|not available: PP_SITE_FILE '/proc/self/environ' is a kernel file (procfs), not a file on a real file system")
if(EXISTS /sys/devices/system/cpu/online)
  list(APPEND _site_bad "sysfs|/sys/devices/system/cpu/online|not available: PP_SITE_FILE '/sys/devices/system/cpu/online' is a kernel file (sysfs), not a file on a real file system")
endif()
foreach(row IN LISTS _site_bad)
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 name)
  list(GET parts 1 path)
  list(GET parts 2 want)
  pp_test(system_site_${name} COMMAND ${SCH} --run system_site_${name}.json --expect "site_file=\"${want}\""
    -- ${SCH_MB} ENV PP_SITE_FILE=${path} LABELS unit)
endforeach()

# The schema refuses a record without the new fields or with a zero for a reason.
set(_sys_bad
  "no_load|del:system.0.load_average|system/0: 'load_average' is a required property"
  "mpi_zero|set:system.0.mpi_library:0|system/0/mpi_library: 0 is not of type 'string'"
  "site_empty|set:site_file:\"\"|site_file: '' is not valid under any of the given schemas"
  "gpu_zero|set:system.0.devices.0.gpu_state_open:0|gpu_state_open: 0 is not valid under any of the given schemas")
foreach(row IN LISTS _sys_bad)
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 name)
  list(GET parts 1 mutation)
  list(GET parts 2 re)
  pp_test(system_fails_${name} COMMAND ${SCH} schema_microbench.json --mutate ${mutation} EXPECT 1 "${re}" LABELS unit)
  set_tests_properties(system_fails_${name} PROPERTIES FIXTURES_REQUIRED schema_file)
endforeach()

foreach(t system_modules_cray_alloc system_not_available system_governor system_site_file system_site_dir
          system_site_missing system_site_big system_site_proc_environ)
  set_tests_properties(${t} PROPERTIES TIMEOUT 60)
endforeach()

# A GPU's state as NVML gives it (numbers and text) passes; a reading that is
# neither a number nor text fails.
set(_gs "{\"source\":\"NVML (driver 580.95.05)\",\"sm_clock_mhz\":1755,\"power_limit_w\":700,\"ecc_mode\":\"enabled\",\"sm_app_clock_mhz\":\"not available: Not Supported\"}")
pp_test(system_gpu_state_object COMMAND ${SCH} schema_microbench.json --mutate "set:system.0.devices.0.gpu_state_open:${_gs}"
  EXPECT 0 "check_schema: OK" LABELS unit)
pp_test(system_fails_gpu_state_null_field COMMAND ${SCH} schema_microbench.json
  --mutate "set:system.0.devices.0.gpu_state_end:{\"source\":\"NVML\",\"ecc_mode\":null}"
  EXPECT 1 "gpu_state_end: .* is not valid under any of the given schemas" LABELS unit)
set_tests_properties(system_gpu_state_object system_fails_gpu_state_null_field PROPERTIES FIXTURES_REQUIRED schema_file TIMEOUT 30)
