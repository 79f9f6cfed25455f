#!/usr/bin/env python3
"""The published results table of docs/results.md, from the committed JSON (pptools/tables)."""
from pptools.tables import main

main()
