# A GPU preset on a machine without its GPU (scripts/gpu-present; scripts/setup
# --require-gpu, which scripts/run passes): the probe on stand-ins for nvidia-smi,
# rocminfo and the drivers' files (tests/setup/gpu_present.sh), then scripts/run refusing
# in one line before anything is installed, downloaded or configured, as root and as
# a user without root, and --build-only going on to the build.
set(_gp ${CMAKE_CURRENT_LIST_DIR}/gpu_present.sh)
set(_gp_cases
  "nvidia_none|1|^no NVIDIA GPU: nvidia-smi not found and no .*/proc/driver/nvidia/gpus$"
  "nvidia_other_arch|1|^found 1 NVIDIA GPU\\(s\\), none of sm_90: NVIDIA A100-SXM4-80GB \\(sm_80\\)$"
  "nvidia_right_arch|0|^found 2 NVIDIA GPU\\(s\\) of sm_90 "
  "nvidia_no_devices|1|^nvidia-smi found no GPU of sm_90 \\(exit 6: No devices were found\\)$"
  "nvidia_no_driver|1|^nvidia-smi found no GPU of sm_80 \\(exit 9: NVIDIA-SMI has failed"
  "nvidia_driver_only|0|^the NVIDIA driver has 1 GPU\\(s\\) but nvidia-smi is not on PATH: sm_90 not checked$"
  "amd_rocminfo_right|0|^found 1 AMD GPU\\(s\\) of gfx90a$"
  "amd_kfd_other_arch|1|^found 1 AMD GPU\\(s\\), none of gfx90a: gfx942$"
  "amd_none|1|^no AMD GPU: rocminfo found none \\(exit 1\\), no .*/dev/kfd$"
  "run_refuses|2|^setup: preset nvidia-sm90 builds for an NVIDIA sm_90 GPU and none is here \\(no NVIDIA GPU: .*\\)\\. Nothing was downloaded or built: scripts/run --build-only .*--preset cpu runs here$"
  "run_refuses_user|2|^setup: preset nvidia-sm90 builds for an NVIDIA sm_90 GPU and none is here"
  "run_build_only|0|building to run elsewhere\nwent on to: ")
foreach(row IN LISTS _gp_cases)
  string(REPLACE "|" ";" parts "${row}")
  list(GET parts 0 name)
  list(GET parts 1 rc)
  list(GET parts 2 re)
  pp_test(gpu_present_${name} COMMAND ${_gp} ${name} EXPECT ${rc} "${re}" LABELS unit slow) # scripts, seconds each
  set_tests_properties(gpu_present_${name} PROPERTIES TIMEOUT 60 SKIP_RETURN_CODE 77)
endforeach()
