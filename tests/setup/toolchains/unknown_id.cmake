# A real C compiler that CMake is told not to identify: its id is empty, as for a
# compiler CMake does not know, so no per-compiler rules or flags apply and the
# OpenMP offload table has no row for it (the generic path: PP_OMP_OFFLOAD_FLAGS).
# CMake still checks that it compiles and links (not forced).
set(CMAKE_C_COMPILER_ID_RUN TRUE)
set(CMAKE_C_COMPILER_ID "")
