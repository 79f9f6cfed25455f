# cmake -DSRC=<source dir> -DFILE=<manifest> -P app_manifest_read.cmake: reads one
# manifest as the build does (cmake/AppManifest.cmake); FATAL_ERROR on a bad one.
cmake_minimum_required(VERSION 3.25)
include(${SRC}/cmake/AppManifest.cmake)
pp_read_manifest(planted ${FILE})
message("read: ${PP_APP_planted.keys}")
