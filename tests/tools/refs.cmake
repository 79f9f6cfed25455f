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
# Issue 45's seeds (validate/refs/papers.sh, papers.py): each planted output of the
# papers' CGSolve (three builds' layouts), XSBench's openmp-offload and ProxyPort's
# cgsolve CSV parsed; the planted wrong ones refused with their reason; papers.sh end to
# end on stand-in binaries (GOOD; BAD: a wrong output and a missing build; PARTS: the two
# runtime parts run apart and merged)
foreach(case cgsolve-paper:papers-cgsolve-cuda:CGSolve-kokkos-cuda cgsolve-paper:papers-cgsolve-ompt:CGSolve-kokkos-kmode
             cgsolve-paper:papers-cgsolve-ompx:CGSolve-kokkos-ompt22-ompx
             xsbench-omp:papers-xsbench-omp-l17000000:17000000 xsbench-omp:papers-xsbench-omp-l170000000:170000000)
  string(REPLACE ":" ";" kv ${case})
  list(GET kv 0 kind)
  list(GET kv 1 file)
  list(GET kv 2 arg)
  pp_test(refs_papers_parse_${file} COMMAND python3 ${pp_refs}/papers.py ${kind} ${pp_refs}/samples/${file}.txt ${arg}
          LABELS unit EXPECT 0 "\"[a-z_]+\": [0-9]")
endforeach()
pp_test(refs_papers_parse_cgsolve_pp COMMAND python3 ${pp_refs}/papers.py cgsolve-pp
        ${PROJECT_SOURCE_DIR}/results/nvidia-h200/cgsolve/run1.csv 150 LABELS unit EXPECT 0 "\"spmv_ms\": 0.40")
foreach(case cgsolve-paper:cgsolve-sizes:solves\ KK\ N=150 cgsolve-paper:cgsolve-residual:but\ ..b..\ of\ N=255
             cgsolve-paper:cgsolve-truncated:ends\ inside\ a\ solve cgsolve-paper:cgsolve-nan:spmv_gbs\ not\ a\ positive
             cgsolve-paper:cgsolve-time:shorter\ than\ its\ 201\ SpMV xsbench-omp:xsbench-omp-checksum:XSBench.s\ is\ 525004)
  string(REPLACE ":" ";" kv "${case}")
  list(GET kv 0 kind)
  list(GET kv 1 what)
  list(GET kv 2 re)
  pp_test(refs_papers_reject_${what} COMMAND python3 ${pp_refs}/papers.py ${kind}
          ${pp_refs}/samples/bad-papers-${what}.txt LABELS unit EXPECT 1 "${re}")
endforeach()
pp_test(refs_papers_reject_cgsolve_pp COMMAND python3 ${pp_refs}/papers.py cgsolve-pp
        ${pp_refs}/samples/bad-papers-cgsolve-pp-n150.csv 150 LABELS unit EXPECT 1 "ompx cg_solve N=150: FAIL")
# a CUDA build's output is not an OpenMPTarget build's (its rows and execution space)
pp_test(refs_papers_reject_wrong_build COMMAND python3 ${pp_refs}/papers.py cgsolve-paper
        ${pp_refs}/samples/papers-cgsolve-cuda.txt CGSolve-kokkos-ompt LABELS unit EXPECT 1 "expected KK N=150, OMPT N=150")
foreach(mode GOOD BAD PARTS)
  pp_test(refs_papers_run_${mode} COMMAND ${pp_refs}/test-papers.sh ${mode} LABELS unit EXPECT 0 "${mode} ok")
endforeach()
