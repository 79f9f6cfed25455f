"""validate/results-table.py: the published results table of docs/results.md."""
from .command import main  # noqa: F401
