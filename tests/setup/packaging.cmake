# The Spack package (packaging/spack/spack_repo/proxyport/packages/proxyport/package.py), checked without Spack
# (tests/setup/spack_package.py): imported with a stub spack.package; every variant
# combination it allows must be one the offload table builds and must name only
# cache variables this configure really has (written below: CMake's view, not a
# copy). Planted faults, each must FAIL: the cuda_arch mapping without "sm_", a
# misspelt variable, a variant cmake_args ignores, a conflict of the table missing.
set(SPK ${PROJECT_SOURCE_DIR}/packaging/spack/spack_repo/proxyport/packages/proxyport/package.py)
set(SPT ${CMAKE_CURRENT_LIST_DIR}/spack_package.py)
set(SPF ${CMAKE_CURRENT_BINARY_DIR}/spack_facts.txt)
set(_facts "")
get_cmake_property(_cache CACHE_VARIABLES)
foreach(_v ${_cache})
  get_property(_t CACHE ${_v} PROPERTY TYPE)
  if(NOT _t STREQUAL "UNINITIALIZED") # a -D the project never declared stays UNINITIALIZED
    string(APPEND _facts "var ${_v}\n")
  endif()
endforeach()
foreach(_r ${PP_OFFLOAD_ROWS})
  set(_o "${PP_ROW_${_r}_OMPX}")
  if(NOT _o)
    set(_o -)
  endif()
  string(APPEND _facts "row ${_r} ${PP_ROW_${_r}_MIN} ${_o}")
  foreach(_t NVIDIA AMD INTEL CPU)
    if(PP_ROW_${_r}_${_t})
      string(APPEND _facts " ${_t}")
    endif()
  endforeach()
  string(APPEND _facts "\n")
endforeach()
file(WRITE ${SPF} "${_facts}")
set(SPCHECK python3 ${SPT} ${SPK} ${SPF} ${PROJECT_SOURCE_DIR} ${CMAKE_COMMAND})
pp_test(spack_package COMMAND ${SPCHECK} LABELS unit)
# spack_package_<fault>: sed EXPR applied to a copy of package.py, then the check must FAIL with
# REGEX (exit 3 when EXPR changed nothing: a fault that is not planted proves nothing).
function(pp_spack_fault fault expr regex)
  set(copy ${CMAKE_CURRENT_BINARY_DIR}/package_${fault}.py)
  pp_test(spack_package_${fault} LABELS unit EXPECT 1 "${regex}"
    COMMAND sh -c "sed '${expr}' '${SPK}' > '${copy}' && cmp -s '${SPK}' '${copy}' && exit 3 || python3 '${SPT}' '${copy}' '${SPF}' '${PROJECT_SOURCE_DIR}' '${CMAKE_COMMAND}'")
endfunction()
pp_spack_fault(wrong_arch "s/\"sm_\" + self._one/self._one/" "FAIL.*PP_NVIDIA_ARCH=sm_90.*missing")
pp_spack_fault(misspelt_variable "s/\"PP_ENABLE_HIP\"/\"PP_ENABLE_ROCM\"/"
  "FAIL.*cmake_args names PP_ENABLE_ROCM, not a CMake cache variable")
pp_spack_fault(unmapped_variant "/variant(\"tests\"/a\\    variant(\"lto\", default=False, description=\"x\")"
  "FAIL.*variant lto changes no cmake_args")
pp_spack_fault(missing_conflict "/conflicts(\"+ompx\", when=\"%llvm@:17\"/d"
  "FAIL.*package allows %llvm@1[67] .*\\+ompx.*row clang builds ompx from 18")
pp_spack_fault(builtin_import "s/^from spack_repo.builtin.build_systems.cmake import CMakePackage/from spack.package import CMakePackage/"
  "FAIL.*CMakePackage is not imported from spack_repo.builtin.build_systems.cmake")
pp_spack_fault(no_license "/^    license(/d" "FAIL.*license\\(\\) \\[\\] is not the LICENSE file's")
# Each release's sha256 is that of scripts/release's tarball of its tag (skipped, exit 77 with
# the reason, outside a git checkout or without the tag); planted: one digit of it changed.
set(SPREL python3 ${CMAKE_CURRENT_LIST_DIR}/spack_release.py)
pp_test(spack_package_release COMMAND ${SPREL} ${SPK} ${PROJECT_SOURCE_DIR} LABELS unit)
pp_test(spack_package_release_wrong_sha COMMAND ${SPREL} --plant-wrong-sha ${SPK} ${PROJECT_SOURCE_DIR}
  EXPECT 1 "FAIL: .*package.py's sha256 [0-9a-f]+ is not the tarball's" LABELS unit)
set_tests_properties(spack_package_release spack_package_release_wrong_sha PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 60)
# `cmake --install`, the prefix moved, every app's small run from it, as its installed manifest says (tests/setup/install.sh).
add_test(NAME install_relocated COMMAND ${CMAKE_CURRENT_LIST_DIR}/install.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR})
set_tests_properties(install_relocated PROPERTIES LABELS validate ENVIRONMENT "${PP_TEST_ENV}" TIMEOUT 600)
# --version: every app prints its build record (what a module or Spack user asks first).
# The revision is a commit in a git checkout, "unknown" in a release tarball (Spack's stage).
if(EXISTS ${PROJECT_SOURCE_DIR}/.git)
  set(_rev "[0-9a-f]+")
else()
  set(_rev "unknown")
endif()
# The version: the last release (CHANGELOG.md, its commit) and, in a checkout after it, the
# commits since and the revision (0.3.1+12.g79f2b21e4764): never the last release's alone.
if(EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND git -C ${PROJECT_SOURCE_DIR} rev-list --count 7716daa594e8fbb1f1ef925bc4b6eccb2cfa11f4..HEAD
                  OUTPUT_VARIABLE _since OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(_ver "[0-9]+\\.[0-9]+\\.[0-9]+(\\+[0-9]+\\.g[0-9a-f]+)?")
  if(_since GREATER 0)
    set(_ver "[0-9]+\\.[0-9]+\\.[0-9]+\\+[0-9]+\\.g[0-9a-f]+") # past 0.3.1: never 0.3.1 alone
  endif()
else()
  set(_ver "${PROJECT_VERSION}")
endif()
foreach(app ${PP_APPS})
  pp_test(version_${app} COMMAND $<TARGET_FILE:${app}> --version LABELS unit
    EXPECT 0 "^${app} \\(ProxyPort ${_ver}\\)\n  git revision +${_rev}\n  C compiler +\n  models +host")
endforeach()
# The release named in CMakeLists.txt is the newest one CHANGELOG.md records with its commit.
file(STRINGS ${PROJECT_SOURCE_DIR}/CHANGELOG.md _rel REGEX "^## \\[[0-9.]+\\] .*\\(commit [0-9a-f]+\\)" LIMIT_COUNT 1)
pp_test(version_changelog COMMAND ${CMAKE_COMMAND} -E echo "${_rel}" LABELS unit
  EXPECT 0 "^## \\[${PROJECT_VERSION}\\] ")
# The tools as a Python package (pyproject.toml): the project's version, a console script
# for every script of validate/, and those scripts run from any folder without PYTHONPATH.
pp_pytest(tools_package MODULE test_package.py LABELS unit TIMEOUT 120)
