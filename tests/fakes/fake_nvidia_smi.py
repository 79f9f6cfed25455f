#!/usr/bin/env python3
"""A stand-in for `nvidia-smi --query-gpu=timestamp,power.draw ... -lms N` in
tests: prints "YYYY/MM/DD HH:MM:SS.mmm, W" (UTC) every N ms with W from
FAKE_SMI_WATTS, until terminated."""
import datetime
import os
import sys
import time

ms = int(sys.argv[sys.argv.index("-lms") + 1]) if "-lms" in sys.argv else 100
watts = float(os.environ.get("FAKE_SMI_WATTS", "50"))
while True:
    now = datetime.datetime.now(datetime.timezone.utc)
    print(f"{now:%Y/%m/%d %H:%M:%S}.{now.microsecond // 1000:03d}, {watts:.2f}", flush=True)
    time.sleep(ms / 1000)
