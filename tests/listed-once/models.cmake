# Fixture of tests/models_listed_once.sh (names filled in from PP_MODELS): the
# @M1@ and @M2@ models named in a comment are prose, not a list.
foreach(m @M1@ @M2@) # planted
cmake_parse_arguments(A "" "NAME" "SOURCES;@M1U@;@M2U@") # planted
foreach(M ${PP_MODELS})
