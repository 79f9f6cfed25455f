# The programming models, read from their one list, PP_MODELS in
# common/include/pp/model.h, so that CMake's loops over them (PP_ENABLE_<M>
# options, PP_HAVE_<M> definitions, the configure summary) follow it.
# Results: PP_MODELS (enum names in the list's order: HOST;OMP;...),
# PP_OPTIONAL_MODELS (those whose row's built flag is PP_HAVE_<M>).
set(_list ${CMAKE_CURRENT_LIST_DIR}/../common/include/pp/model.h)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_list}) # a new row reconfigures
file(READ ${_list} _text)
# the rows' line continuations would escape CMake's list separators
string(REPLACE "\\\n" "\n" _text "${_text}")
string(REGEX MATCHALL "\n *X\\([A-Z0-9_]+, *[a-z0-9_]+,[^\n]*" _rows "${_text}")
set(PP_MODELS "")
set(PP_OPTIONAL_MODELS "")
foreach(_row IN LISTS _rows)
  string(REGEX REPLACE "^\n *X\\(([A-Z0-9_]+),.*" "\\1" _m "${_row}")
  list(APPEND PP_MODELS ${_m})
  if(_row MATCHES "PP_HAVE_${_m},")
    list(APPEND PP_OPTIONAL_MODELS ${_m})
  endif()
endforeach()
if(NOT PP_MODELS)
  message(FATAL_ERROR "cmake/Models.cmake found no X(...) rows in common/include/pp/model.h")
endif()
