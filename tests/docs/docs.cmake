# The documents and the repository's self-containment: every relative link of
# README.md, RUNRULES.md and docs/ resolves (file and #anchor), the README stays
# a page (at most 250 lines), the documents' version, test counts, folders and
# published machines match the tree (drift.py), no file outside results/ names a path outside the
# repository, and scripts/gpu-runtime packs a usable runtime. Each check is
# shown failing on planted input (planted.sh, readme_length_planted).
set(DOCS ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME doc_links COMMAND python3 ${DOCS}/links.py ${PROJECT_SOURCE_DIR})
add_test(NAME doc_links_planted COMMAND sh ${DOCS}/planted.sh links ${PROJECT_SOURCE_DIR})
add_test(NAME doc_drift COMMAND python3 ${DOCS}/drift.py ${PROJECT_SOURCE_DIR})
add_test(NAME doc_drift_planted COMMAND sh ${DOCS}/planted.sh drift ${PROJECT_SOURCE_DIR})
# every measured figure of README.md and docs/ is generated, never typed (numbers.py, its
# allowlist numbers-allowed.txt); the generated tables match the published sets
# (validate/doc-tables); results/ holds published sets only, each as its manifest says
# (validate/published check; its READMEs as index writes them)
add_test(NAME doc_numbers COMMAND python3 ${DOCS}/numbers.py ${PROJECT_SOURCE_DIR})
add_test(NAME doc_numbers_planted COMMAND sh ${DOCS}/planted.sh numbers ${PROJECT_SOURCE_DIR})
add_test(NAME doc_tables COMMAND python3 ${PROJECT_SOURCE_DIR}/validate/doc-tables --check)
add_test(NAME doc_tables_planted COMMAND sh ${DOCS}/planted.sh tables ${PROJECT_SOURCE_DIR})
add_test(NAME published_check COMMAND python3 ${PROJECT_SOURCE_DIR}/validate/published check)
add_test(NAME published_index COMMAND python3 ${PROJECT_SOURCE_DIR}/validate/published index --check)
add_test(NAME published_planted COMMAND sh ${DOCS}/planted.sh published ${PROJECT_SOURCE_DIR})
add_test(NAME published_energy_cost_planted COMMAND sh ${DOCS}/planted.sh energy-cost ${PROJECT_SOURCE_DIR})
add_test(NAME published_manifest_written COMMAND sh ${DOCS}/planted.sh manifest ${PROJECT_SOURCE_DIR})
set_tests_properties(doc_numbers doc_numbers_planted doc_tables doc_tables_planted published_check published_index
  published_planted published_energy_cost_planted published_manifest_written PROPERTIES LABELS unit TIMEOUT 120)
add_test(NAME no_outside_paths COMMAND python3 ${DOCS}/outside_paths.py ${PROJECT_SOURCE_DIR})
add_test(NAME no_outside_paths_planted COMMAND sh ${DOCS}/planted.sh paths ${PROJECT_SOURCE_DIR})
add_test(NAME readme_length COMMAND sh ${DOCS}/readme_length.sh ${PROJECT_SOURCE_DIR}/README.md)
# the same check on the README padded to 251 lines must fail
add_test(NAME readme_length_planted COMMAND sh -c "(cat \"$0\"; yes x | head -n 251) | head -n 251 > \"$1\" && sh \"$2\" \"$1\""
  ${PROJECT_SOURCE_DIR}/README.md ${CMAKE_CURRENT_BINARY_DIR}/readme_length_planted.md ${DOCS}/readme_length.sh)
set_tests_properties(readme_length_planted PROPERTIES WILL_FAIL TRUE)
add_test(NAME gpu_runtime_pack COMMAND sh ${DOCS}/gpu_runtime.sh ${PROJECT_SOURCE_DIR} ${CMAKE_BINARY_DIR})
set_tests_properties(doc_links doc_links_planted doc_drift doc_drift_planted no_outside_paths no_outside_paths_planted gpu_runtime_pack
  readme_length readme_length_planted
  PROPERTIES LABELS unit TIMEOUT 60)
set_tests_properties(gpu_runtime_pack PROPERTIES SKIP_RETURN_CODE 77)
