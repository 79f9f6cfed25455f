"""validate/suite: the suite run (command.py), its cases per app (cases.py), the
run rules of RUNRULES.md (rules.py) and the summary with figures (summary.py)."""
from .command import main  # noqa: F401
