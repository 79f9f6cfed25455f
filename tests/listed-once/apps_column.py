# Fixture of tests/models_listed_once.sh: a list of the apps, one a line.
APPS = (
    "@APP1@",
    "@APP2@",
    "@APP3@",  # planted
)
PAIR = ("@APP1@",
        "x",
        "@APP2@")
