"""validate/portability: performance portability of the models across machines."""
from .command import main  # noqa: F401
