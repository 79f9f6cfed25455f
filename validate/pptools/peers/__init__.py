"""The public reference codes run beside ProxyPort by the same method (issue 28).

  xsbench, testsnap, babelstream   one module per public code: its builds, its runs,
                 the one reader of its output, its rows, its device-time figure
  codes          the three in the step's order, and codes.parse (a public run's figures)
  public         what the readers share (Rejected, the spin library's line)
  rows           what the rows share (medians, ratio, comparable or why not)
  devtime        what the device-time cells share
  plan           what runs, alternating public and ProxyPort
  runner         runs it
  analyze        the runs read into rows
  method         the arithmetic
  report         peers.md/.json/.png
  step           the `peers` tool and `suite --peers`
"""
from .step import main, preflight, suite_step  # noqa: F401
