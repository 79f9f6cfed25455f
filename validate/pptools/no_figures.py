"""What a tool says when it draws no figure for want of matplotlib: one line naming
the Python that lacks it and the route that works without root on Debian 12 and
Ubuntu 24.04 (where pip install --user is refused, PEP 668) and on a module-based
system: the tools' own venv, made by scripts/tools-venv."""
import sys


def reason(rerun="validate/suite --summarize DIR"):
    return (f"matplotlib is missing for {sys.executable}: scripts/tools-venv makes the tools' venv "
            f"with it (no root; on a module-based system after module load python), then .venv/bin/python {rerun}")
