"""The public reference codes run beside ProxyPort by the same method (issue 28):
plan (what runs, alternating), runner (runs it), public (the public codes'
outputs and their rejections), analyze (rows), method (the arithmetic),
report (peers.md/.json/.png), step (the `peers` tool and `suite --peers`)."""
from .step import main, suite_step  # noqa: F401
