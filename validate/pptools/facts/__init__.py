"""validate/compile-facts: registers, shared memory, stack, spills and occupancy
of every GPU kernel of a build, from its own compile commands.

  tool             the compile-facts command: options, the text table, the JSON
  build_folder     the build's cache, tag, kernel files and their compile commands
  recompile        the commands re-run (or the app relinked) for the compilers' reports
  compiler_output  the parsers of those reports (ptxas, AMDGPU, remarks, PTX bounds)
  kernel_names     kernel symbols to ProxyPort's kernel names, sources and launches
  occupancy        NVIDIA's theoretical occupancy per kernel
"""
from .tool import main  # noqa: F401
