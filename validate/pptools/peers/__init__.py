"""The public reference codes run beside ProxyPort by the same method (issue 28):
plan (what runs, alternating), runner (runs it), public (the public codes'
outputs and their rejections), analyze (rows), method (the arithmetic),
report (peers.md/.json/.png), command (the `peers` tool and `suite --peers`)."""
from .command import main, preflight, suite_step  # noqa: F401
