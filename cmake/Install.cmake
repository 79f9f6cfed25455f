# `cmake --install build/<preset> --prefix P`: the apps in P/bin, the inputs
# they read in P/share/proxyport/inputs (found relative to the executable, so
# the prefix can be moved), the result tools in P/share/proxyport/validate,
# the site files (site/) in P/share/proxyport/site,
# README.md, RUNRULES.md and docs/ in P/share/doc/proxyport, and the app list (PP_APPS, read from
# apps.txt by cmake/Apps.cmake) in P/share/proxyport/apps.txt, where the tools read it.
include(GNUInstallDirs)
install(TARGETS ${PP_APPS} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_BINARY_DIR}/share/proxyport/apps.txt DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport)
install(DIRECTORY inputs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/inputs)
install(PROGRAMS validate/compare validate/compile-facts validate/gpu-check.sh validate/gpu-run.sh
        validate/site validate/suite DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/validate)
# the tools' package (validate/pptools), and the model list it reads at the same
# place relative to validate/ as in the source tree (P/share/proxyport/common/...)
install(DIRECTORY validate/pptools DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/validate
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
install(FILES common/include/pp/model.h DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/common/include/pp)
# the published reference rows the suite's summary compares with (validate/pptools/suite/cases.py)
set(_ref results/nvidia-h200)
# (each app's published case)
install(FILES
        ${_ref}/microbench.json
        ${_ref}/spmv-n150.json
        ${_ref}/cgsolve-n150.json
        ${_ref}/xsbench-large.json
        ${_ref}/testsnap-W_2J14_2000_disp.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/${_ref})
install(FILES validate/schema/result.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/validate/schema)
# the site files and their schema, where the installed tools look (pptools/site: <root>/site)
install(FILES site/schema.json site/debian.toml site/perlmutter.toml site/frontier.toml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/site)
# the configure presets a site file's builds must name (pptools/site checks them: <root>/CMakePresets.json)
install(FILES CMakePresets.json DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport)
install(FILES README.md RUNRULES.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/proxyport)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/proxyport/docs FILES_MATCHING PATTERN "*.md")
