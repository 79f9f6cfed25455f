# `cmake --install build/<preset> --prefix P`: the apps in P/bin, the inputs
# they read in P/share/proxyport/inputs (found relative to the executable, so
# the prefix can be moved), the result tools in P/share/proxyport/validate,
# the site files (site/) in P/share/proxyport/site,
# README.md, RUNRULES.md and docs/ in P/share/doc/proxyport, and the app list (PP_APPS, read from
# apps.txt by cmake/Apps.cmake) in P/share/proxyport/apps.txt and each app's manifest in
# P/share/proxyport/<app>/app.toml, where the tools read them.
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
# each app's manifest (<app>/app.toml), where the tools read it (pptools/apps.py:
# <validate dir>/../<app>/app.toml), and the published reference row of its suite
# case ([suite] published) that the suite's summary compares with
set(_ref results/nvidia-h200)
foreach(_app IN LISTS PP_APPS)
  install(FILES ${_app}/app.toml DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/${_app})
  pp_app_get(_published ${_app} suite.published)
  if(_published)
    get_filename_component(_pubdir ${_published} DIRECTORY)
    install(FILES ${_ref}/${_published} DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/${_ref}/${_pubdir})
  endif()
endforeach()
install(FILES validate/schema/result.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/validate/schema)
# the site files and their schema, where the installed tools look (pptools/site: <root>/site)
install(FILES site/schema.json site/debian.toml site/perlmutter.toml site/frontier.toml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport/site)
# the configure presets a site file's builds must name (pptools/site checks them: <root>/CMakePresets.json)
install(FILES CMakePresets.json DESTINATION ${CMAKE_INSTALL_DATADIR}/proxyport)
install(FILES README.md RUNRULES.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/proxyport)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/proxyport/docs FILES_MATCHING PATTERN "*.md")
