# The ReFrame checks (validate/reframe): their JSON reading without ReFrame,
# then, where ReFrame is installed (validate/reframe/install.sh; else skipped),
# that the five checks load, and that spmv's check passes on this build and
# fails on a planted fault (a row that does not validate).
set(RF ${CMAKE_CURRENT_LIST_DIR}/reframe_check.sh)
set(RF_OUT ${CMAKE_CURRENT_BINARY_DIR}/reframe)
pp_pytest(tools_reframe_rows MODULE test_reframe_rows.py LABELS unit TIMEOUT 60)
pp_test(reframe_list COMMAND ${RF} ${RF_OUT}/list -l LABELS unit
        EXPECT 0 "microbench_check %model=host %case=small\nspmv_check %model=omp %case=reference\ncgsolve_check\nxsbench_like_check\ntestsnap_check")
# the build fixture and spmv on host and omp; a build without omp (host-gcc) skips that one
if(PP_TEST_MODELS MATCHES "omp")
  set(rf_ran "PASSED .*Ran 3/3 test case")
else()
  set(rf_ran "PASSED .*Ran 2/3 test case.*[(]0 failure.*, 1 skipped")
endif()
pp_test(reframe_spmv_small COMMAND ${RF} ${RF_OUT}/pass -r -t small -n spmv_check
        LABELS validate EXPECT 0 "${rf_ran}" ENV PP_BUILD_DIR=${PROJECT_BINARY_DIR})
pp_test(reframe_spmv_fault COMMAND ${RF} ${RF_OUT}/fault -r -t small -n spmv_check -S inject_fault=spmv-y
        LABELS validate fault ENV PP_BUILD_DIR=${PROJECT_BINARY_DIR}
        EXPECT 1 "spmv host: exit code 1 .*1 of 1 host row\\(s\\) not validated: spmv@10")
set_tests_properties(reframe_list reframe_spmv_small reframe_spmv_fault PROPERTIES SKIP_RETURN_CODE 77)
# The documented site configs (made from site/perlmutter.toml and site/frontier.toml)
# load and plan one whole-node job per build (the node check: every app and model of
# the case), not one per app and model; the job script carries the account (with
# Perlmutter's _g), the node's cores and GPUs (dry run: nothing is submitted; Lmod
# replaced by no module system here).
pp_test(reframe_perlmutter_config LABELS unit
        ENV PP_RFM_SITE=perlmutter PP_RFM_MODULES=nomod SBATCH_ACCOUNT=m1234 PP_SITE_FILE=
        EXPECT 0 "proxyport_node %case=reference .*@perlmutter:gpu\\+gnu\nproxyport_node %case=reference .*@perlmutter:gpu\\+nvhpc\nproxyport_node %case=reference .*@perlmutter:gpu\\+llvm\nRan 6/6 test case\n#SBATCH --cpus-per-task=128\n#SBATCH --exclusive\n#SBATCH --account=m1234_g\n#SBATCH --constraint=gpu\n#SBATCH --gpus-per-node=4\nsrun --cpus-per-task=128 --cpu-bind=cores --gpu-bind=closest bash node_run.sh"
        COMMAND sh -c "rm -rf '${RF_OUT}/perlmutter' && '${RF}' '${RF_OUT}/perlmutter' --system perlmutter --dry-run -t reference && cat '${RF_OUT}'/perlmutter/stage/perlmutter/gpu/gnu/proxyport_node_*/rfm_job.sh")
pp_test(reframe_frontier_config LABELS unit
        ENV PP_RFM_SITE=frontier PP_RFM_MODULES=nomod SBATCH_ACCOUNT=ABC123 PP_SITE_FILE=
        EXPECT 0 "proxyport_node %case=reference .*@frontier:gpu\\+cray\nproxyport_node %case=reference .*@frontier:gpu\\+amd\nRan 4/4 test case\n#SBATCH --cpus-per-task=56\n#SBATCH --account=ABC123\n#SBATCH --partition=batch\n#SBATCH --gpus-per-node=8"
        COMMAND sh -c "rm -rf '${RF_OUT}/frontier' && '${RF}' '${RF_OUT}/frontier' --system frontier --dry-run -t reference && cat '${RF_OUT}'/frontier/stage/frontier/gpu/cray/proxyport_node_*/rfm_job.sh")
set_tests_properties(reframe_perlmutter_config reframe_frontier_config PROPERTIES SKIP_RETURN_CODE 77)
# The node check on this machine (local.py --system node: all cores, no GPU), two apps
# of the small case, fast timing: passes here, fails on a planted fault.
if(PP_TEST_MODELS MATCHES "omp")
  pp_test(reframe_node_small COMMAND ${RF} ${RF_OUT}/node --system node -r -n proxyport_node -t small
          -S proxyport_node.fast=true -S proxyport_node.apps=spmv,microbench
          LABELS validate EXPECT 0 "PASSED .*Ran 2/2 test case" ENV PP_BUILD_DIR=${PROJECT_BINARY_DIR})
  pp_test(reframe_node_fault COMMAND ${RF} ${RF_OUT}/node-fault --system node -r -n proxyport_node -t small
          -S proxyport_node.fast=true -S proxyport_node.apps=spmv -S proxyport_node.inject_fault=spmv:spmv-y
          LABELS validate fault ENV PP_BUILD_DIR=${PROJECT_BINARY_DIR}
          EXPECT 1 "spmv host: exit code 1 .*spmv host: 1 of 1 host row\\(s\\) not validated: spmv@10")
  set_tests_properties(reframe_node_small reframe_node_fault PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
endif()
