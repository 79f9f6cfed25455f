"""`validate/compare ... | head -1`: the tool's reader goes away. It must end as
cat or grep do, killed by SIGPIPE (the shell's 141) with nothing on stderr,
never a BrokenPipeError traceback. The pipe's read end is closed before the
tool starts, so its first write fails every time (no race with head).
Usage: test_broken_pipe.py TOOL ARG..."""
import os
import signal
import subprocess
import sys

r, w = os.pipe()
os.close(r)
p = subprocess.run([sys.executable, *sys.argv[1:]], stdout=w, stderr=subprocess.PIPE, text=True)
os.close(w)
ok = p.returncode == -signal.SIGPIPE and p.stderr == ""
print(f"exit {p.returncode} (want {-signal.SIGPIPE}: SIGPIPE), stderr {len(p.stderr)} chars (want 0)")
if p.stderr:
    print(p.stderr[-2000:])
print("test_broken_pipe:", "PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
