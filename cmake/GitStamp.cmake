# Build-time source stamp: `cmake -DSRC=<repo> -DOUT=<file.c> [-DVERSION=X.Y.Z] -P GitStamp.cmake`.
# Runs at every build (target pp_gitstamp) so results name the code they came
# from, not the code of the last configure; the output file is rewritten only
# when the stamp changes, so an unchanged tree rebuilds nothing.
# Stamp: 12-hex commit, "-dirty" when tracked files differ from HEAD, and the
# first 12 hex of sha256(`git diff HEAD`) naming that difference; the version:
# the last release of CHANGELOG.md that names its commit ("## [X.Y.Z] - DATE
# (commit SHA)") and HEAD descends from, "+N.gREV" when N commits later (no
# tags needed: the published main branch carries none); VERSION where there
# is no git checkout (a release tarball is its release).
set(rev "unknown")
set(dirty 0)
set(diff_hash "")
set(version "${VERSION}")
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD
                OUTPUT_VARIABLE _rev OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
if(_rc EQUAL 0 AND _rev)
  set(rev "${_rev}")
  # the same bytes as `git diff HEAD | sha256sum`, so anyone can recompute the hash
  execute_process(COMMAND git -C "${SRC}" diff HEAD
                  OUTPUT_VARIABLE _diff ERROR_QUIET RESULT_VARIABLE _rc)
  if(_rc EQUAL 0 AND NOT _diff STREQUAL "")
    set(dirty 1)
    string(SHA256 _h "${_diff}")
    string(SUBSTRING "${_h}" 0 12 diff_hash)
    set(rev "${rev}-dirty")
  endif()
  if(EXISTS "${SRC}/CHANGELOG.md")
    file(STRINGS "${SRC}/CHANGELOG.md" _releases REGEX "^## \\[[0-9]+\\.[0-9]+\\.[0-9]+\\] .*\\(commit [0-9a-f]+\\)")
    foreach(_line IN LISTS _releases) # newest first: the first HEAD descends from
      string(REGEX MATCH "^## \\[([0-9.]+)\\] .*\\(commit ([0-9a-f]+)\\)" _ "${_line}")
      set(_ver "${CMAKE_MATCH_1}")
      set(_commit "${CMAKE_MATCH_2}")
      execute_process(COMMAND git -C "${SRC}" rev-list --count "${_commit}..HEAD"
                      OUTPUT_VARIABLE _n OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _rc)
      execute_process(COMMAND git -C "${SRC}" merge-base --is-ancestor "${_commit}" HEAD
                      RESULT_VARIABLE _anc ERROR_QUIET)
      if(_rc EQUAL 0 AND _anc EQUAL 0)
        if(_n EQUAL 0)
          set(version "${_ver}")
        else()
          set(version "${_ver}+${_n}.g${_rev}")
        endif()
        break()
      endif()
    endforeach()
  endif()
endif()
string(CONCAT _text "/* Generated at build time by cmake/GitStamp.cmake. */\n"
       "const char pp_git_revision[] = \"${rev}\";\n"
       "const int pp_git_dirty = ${dirty};\n"
       "const char pp_git_diff_hash[] = \"${diff_hash}\";\n"
       "const char pp_version[] = \"${version}\";\n")
set(_old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" _old)
endif()
if(NOT _old STREQUAL _text)
  file(WRITE "${OUT}" "${_text}")
endif()
