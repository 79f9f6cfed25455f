# The scripts' own messages: --help answers before any work starts, and a --site
# file that is not there is named with the folder it was looked for from and the
# site files this checkout ships.

# scripts/sanitize --help: its usage, and neither cmake nor ctest run (stubs on PATH
# that say so: the help once started a whole sanitizer build, then printed ctest's).
set(_stubs ${CMAKE_CURRENT_BINARY_DIR}/scripts-stubs)
foreach(tool cmake ctest)
  file(WRITE ${_stubs}/${tool} "#!/bin/sh\necho \"stub ${tool} ran: $*\"\nexit 3\n")
  file(CHMOD ${_stubs}/${tool} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
       WORLD_READ WORLD_EXECUTE)
endforeach()
add_test(NAME scripts_sanitize_help COMMAND ${PP_EXPECT} --absent "stub (cmake|ctest) ran" 0 "^Usage: scripts/sanitize "
  -- sh -c "PATH=\"$0:$PATH\" exec \"$@\"" ${_stubs} ${PROJECT_SOURCE_DIR}/scripts/sanitize --help)
set_tests_properties(scripts_sanitize_help PROPERTIES LABELS unit TIMEOUT 30)

# --site perlmutter.toml from the tests' folder (not the checkout): every script that
# takes --site says where it looked and which site files there are, and which was meant.
set(_missing "site file perlmutter.toml: no such file \\(a path is relative to the current folder, /[^)]*\\); the shipped site files, in [^:]+: site/debian.toml, site/frontier.toml, site/perlmutter.toml; did you mean --site /.*/site/perlmutter.toml\\?")
pp_test(scripts_run_site_missing COMMAND ${PROJECT_SOURCE_DIR}/scripts/run --site perlmutter.toml
  EXPECT 2 "${_missing}" LABELS unit input)
pp_test(scripts_setup_site_missing COMMAND ${PROJECT_SOURCE_DIR}/scripts/setup --site perlmutter.toml --no-install
  EXPECT 2 "${_missing}" LABELS unit input)
pp_test(scripts_compilers_site_missing COMMAND ${PROJECT_SOURCE_DIR}/scripts/compilers --site perlmutter.toml build
  EXPECT 2 "${_missing}" LABELS unit input)
