# The apps, read from their one list, apps.txt at the repository root (one
# folder name a line, in the order the suite runs them; # comments), so that
# the build, the install rules and the tests follow it. The list is copied
# into the build tree and installed as share/proxyport/apps.txt, where the
# scripts and the Python tools of a build or an install read it. Each app's
# manifest, <app>/app.toml (what the tests and the tools know of the app beyond
# its folder), is read into PP_APP_<app>.<key> (cmake/AppManifest.cmake).
# Result: PP_APPS (the names in the list's order) and the manifests' variables.
set(PP_APPS_FILE ${CMAKE_CURRENT_LIST_DIR}/../apps.txt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PP_APPS_FILE}) # a new line reconfigures
file(STRINGS ${PP_APPS_FILE} _lines)
set(PP_APPS "")
foreach(_line IN LISTS _lines)
  string(STRIP "${_line}" _app)
  if(_app STREQUAL "" OR _app MATCHES "^#")
    continue()
  endif()
  # an app names a folder, an executable and its result files
  if(NOT _app MATCHES "^[a-z][a-z0-9_]*$" OR NOT EXISTS ${CMAKE_CURRENT_LIST_DIR}/../${_app}/CMakeLists.txt)
    message(FATAL_ERROR "apps.txt: '${_app}' is not an app (a folder with a CMakeLists.txt, named in lower case)")
  endif()
  if(_app IN_LIST PP_APPS)
    message(FATAL_ERROR "apps.txt: '${_app}' is listed twice")
  endif()
  list(APPEND PP_APPS ${_app})
endforeach()
if(NOT PP_APPS)
  message(FATAL_ERROR "apps.txt lists no app")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/AppManifest.cmake)
foreach(_app IN LISTS PP_APPS)
  set(_manifest ${CMAKE_CURRENT_LIST_DIR}/../${_app}/app.toml)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_manifest})
  pp_read_manifest(${_app} ${_manifest})
endforeach()
