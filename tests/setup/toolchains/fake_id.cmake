# A C compiler whose CMake identity is given, not detected (tests/setup/compiler_table.cmake):
# -DPP_FAKE_ID=<id> -DPP_FAKE_VERSION=<version> -DCMAKE_C_COMPILER=<script printing
# the vendor's --version banner>. What CMakeForceCompiler did: CMake then loads
# that id's rules and never runs the script but for --version (configure only).
set(CMAKE_C_COMPILER_ID_RUN TRUE)
set(CMAKE_C_COMPILER_ID "${PP_FAKE_ID}")
set(CMAKE_C_COMPILER_VERSION "${PP_FAKE_VERSION}")
set(CMAKE_C_COMPILER_FORCED TRUE)
