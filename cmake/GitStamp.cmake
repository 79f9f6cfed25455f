# Build-time source stamp: `cmake -DSRC=<repo> -DOUT=<file.c> -P GitStamp.cmake`.
# Runs at every build (target pp_gitstamp) so results name the code they came
# from, not the code of the last configure; the output file is rewritten only
# when the stamp changes, so an unchanged tree rebuilds nothing.
# Stamp: 12-hex commit, "-dirty" when tracked files differ from HEAD, and the
# first 12 hex of sha256(`git diff HEAD`) naming that difference.
set(rev "unknown")
set(dirty 0)
set(diff_hash "")
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
endif()
string(CONCAT _text "/* Generated at build time by cmake/GitStamp.cmake. */\n"
       "const char pp_git_revision[] = \"${rev}\";\n"
       "const int pp_git_dirty = ${dirty};\n"
       "const char pp_git_diff_hash[] = \"${diff_hash}\";\n")
set(_old "")
if(EXISTS "${OUT}")
  file(READ "${OUT}" _old)
endif()
if(NOT _old STREQUAL _text)
  file(WRITE "${OUT}" "${_text}")
endif()
