# The Spack package (packaging/spack/proxyport/package.py), checked without Spack:
# imported with a stub spack.package, cmake_args() checked for variant combinations;
# a copy whose cuda_arch mapping drops "sm_" must FAIL (the check can fail).
set(SPK ${PROJECT_SOURCE_DIR}/packaging/spack/proxyport/package.py)
set(SPT ${CMAKE_CURRENT_SOURCE_DIR}/spack_package.py)
pp_test(spack_package COMMAND python3 ${SPT} ${SPK} LABELS unit)
pp_test(spack_package_wrong_arch LABELS unit EXPECT 1 "FAIL.*PP_NVIDIA_ARCH=sm_90.*missing"
  COMMAND sh -c "sed 's/\"sm_\" + archs/archs/' '${SPK}' > '${CMAKE_CURRENT_BINARY_DIR}/package_wrong_arch.py' && python3 '${SPT}' '${CMAKE_CURRENT_BINARY_DIR}/package_wrong_arch.py'")
# `cmake --install`, the prefix moved, every app's default case from it (tests/install.sh).
add_test(NAME install_relocated COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/install.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(install_relocated PROPERTIES LABELS validate ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 600)
# --version: every app prints its build record (what a module or Spack user asks first).
foreach(app microbench spmv cgsolve xsbench_like testsnap)
  if(TARGET ${app})
    pp_test(version_${app} COMMAND $<TARGET_FILE:${app}> --version LABELS unit
      EXPECT 0 "^${app} \\(ProxyPort [0-9.]+\\)\n  git revision +[0-9a-f]+\n  C compiler +\n  models +host")
  endif()
endforeach()
