"""validate/compile-facts: registers, shared memory, stack, spills and occupancy
of every GPU kernel of a build, from its own compile commands."""
from .command import main  # noqa: F401
