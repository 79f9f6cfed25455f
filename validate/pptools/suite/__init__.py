"""validate/suite: the suite run (run.py), its cases per app (cases.py), the
run rules of RUNRULES.md (rules.py) and the summary with figures (summary.py)."""
from .run import main  # noqa: F401
