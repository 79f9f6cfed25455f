# Fixture of tests/models_listed_once.sh: model names as Python strings.
NATIVE = ("@M1@", "@M2@")  # planted
ONE = "@M1@"
