"""validate/scaling: strong and weak scaling of MPI runs from their result files."""
from .command import main  # noqa: F401
