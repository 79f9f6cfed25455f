#!/usr/bin/env python3
"""The published results table of docs/results.md, from the committed JSON (pptools/tables).

Runs from a checkout as it is: the package (validate/pptools) is found beside
this file, wherever it is called from. Installed (pip install -e .): pp-results-table."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from pptools.tables import main  # noqa: E402

main()
