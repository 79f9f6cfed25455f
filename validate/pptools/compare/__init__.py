"""validate/compare: A/B comparison of result files across runs (command.py),
its statistics (stats.py), the compiler report (report.py) and compile facts
beside rows (facts.py)."""
from .command import main  # noqa: F401
