# validate/refs (issue 17's public reference codes): parse.py on sample
# outputs in each code's format, planted malformed ones rejected, and run.sh
# end to end on stand-in binaries (the real ones run only on the GPU node).
set(pp_refs ${PROJECT_SOURCE_DIR}/validate/refs)
foreach(case xsbench:xsbench-k0 xsbench:xsbench-k6 babelstream:babelstream-cuda testsnap:testsnap
                 testsnap:testsnap-ompt)
  string(REPLACE ":" ";" kv ${case})
  list(GET kv 0 kind)
  list(GET kv 1 file)
  pp_test(refs_parse_${file} COMMAND python3 ${pp_refs}/parse.py ${kind} ${pp_refs}/samples/${file}.txt
          LABELS unit EXPECT 0 "\"[a-z_]+\": [0-9]")
endforeach()
foreach(case xsbench:checksum:not\ valid xsbench:lookups:unreadable\ lookups/s
             babelstream:truncated:bad\ result\ row babelstream:validation:validation\ failed
             testsnap:forces:force\ deviation testsnap:nogrind:no\ grind\ time)
  string(REPLACE ":" ";" kv "${case}")
  list(GET kv 0 kind)
  list(GET kv 1 what)
  list(GET kv 2 re)
  pp_test(refs_reject_${kind}_${what} COMMAND python3 ${pp_refs}/parse.py ${kind}
          ${pp_refs}/samples/bad-${kind}-${what}.txt LABELS unit EXPECT 1 "${re}")
endforeach()
pp_test(refs_run_good COMMAND ${pp_refs}/test-run.sh GOOD LABELS unit EXPECT 0 "GOOD ok")
pp_test(refs_run_planted_bad COMMAND ${pp_refs}/test-run.sh BAD LABELS unit EXPECT 0 "BAD ok")
# the TestSNAP header generator: the right header, and a case it must refuse
pp_test(refs_testsnap_refdata COMMAND python3 ${pp_refs}/test_refdata.py GOOD LABELS unit EXPECT 0 "GOOD ok")
pp_test(refs_testsnap_refdata_planted COMMAND python3 ${pp_refs}/test_refdata.py PLANTED LABELS unit
        EXPECT 0 "neighbour counts differ")
