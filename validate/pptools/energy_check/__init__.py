"""validate/energy-check: the energy meter against nvidia-smi's power samples
over the same interval (issue 29's GPU check)."""
from .tool import main  # noqa: F401
