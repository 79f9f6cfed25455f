# The programming models, read from their one list, PP_MODELS in
# common/include/pp/model.h, so that CMake's loops over them (PP_ENABLE_<M>
# options, PP_HAVE_<M> definitions, the configure summary, the kernel files
# pp_add_app takes) follow it.
# Results: PP_MODELS (enum names in the list's order: HOST;OMP;...),
# PP_OPTIONAL_MODELS (those whose row's built flag is PP_HAVE_<M>),
# PP_MODEL_NAME_<M> (its name: host, omp, ...), PP_MODEL_DEVICE_<M> and
# PP_MODEL_CC_<M> (the row's device and cc columns, 0 or 1),
# PP_OFFLOAD_MODELS (the models the C compiler builds for a device: OpenMP offload).
set(_list ${CMAKE_CURRENT_LIST_DIR}/../common/include/pp/model.h)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_list}) # a new row reconfigures
file(READ ${_list} _text)
# the rows' line continuations would escape CMake's list separators
string(REPLACE "\\\n" "\n" _text "${_text}")
# X(ENUM, name, device, native, cc, ...: the columns CMake reads are on the row's first line
set(_row_re "\n *X\\(([A-Z0-9_]+), *([a-z0-9_]+), *([01]), *([01]), *([01]),")
string(REGEX MATCHALL "${_row_re}[^\n]*" _rows "${_text}")
set(PP_MODELS "")
set(PP_OPTIONAL_MODELS "")
set(PP_OFFLOAD_MODELS "")
foreach(_row IN LISTS _rows)
  string(REGEX MATCH "${_row_re}" _ "${_row}")
  set(_m ${CMAKE_MATCH_1})
  list(APPEND PP_MODELS ${_m})
  set(PP_MODEL_NAME_${_m} ${CMAKE_MATCH_2})
  set(PP_MODEL_DEVICE_${_m} ${CMAKE_MATCH_3})
  set(PP_MODEL_CC_${_m} ${CMAKE_MATCH_5})
  if(_row MATCHES "PP_HAVE_${_m},")
    list(APPEND PP_OPTIONAL_MODELS ${_m})
  endif()
  if(PP_MODEL_DEVICE_${_m} AND PP_MODEL_CC_${_m})
    list(APPEND PP_OFFLOAD_MODELS ${_m})
  endif()
endforeach()
if(NOT PP_MODELS)
  message(FATAL_ERROR "cmake/Models.cmake found no X(...) rows in common/include/pp/model.h")
endif()
