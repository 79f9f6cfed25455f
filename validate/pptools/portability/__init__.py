"""validate/portability: performance portability of the models across machines."""
from .tool import main  # noqa: F401
