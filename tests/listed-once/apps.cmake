# Fixture of tests/models_listed_once.sh (names filled in from apps.txt): the
# lines marked below must be reported, the others not.
foreach(app @APP1@ @APP2@ @APP3@) # planted
set(PP_PAIR @APP1@ @APP2@)
set(_ab @APP1@ @APP3@) # two apps are a fact about them, not a list
