"""The warnings gate: every warning or remark line of build (and run) logs is a
finding unless an entry of the allowlist matches it, and each entry says why
it is allowed. CI (scripts/test) runs it over its steps' logs; a new warning
fails it.

  warnings-gate [--allow FILE] LOG...   exit 0: none unlisted; 1: some (listed,
                                        with their logs and counts); 2: bad input

The allowlist (default .ci/warnings-allow.toml) is TOML:
  [[allow]]
  match = "regex, searched in the warning's line"
  reason = "why it is allowed: a known finding, a compiler's noise, ..."
Entries that matched nothing are named (a machine without that compiler never
sees them), not failed."""
import argparse
import os
import re
import sys
import tomllib

from . import cli, project
from .result import BadInput

PROG = "warnings-gate"
DEFAULT_ALLOW = os.path.join(project.ROOT, ".ci", "warnings-allow.toml")

# What a compiler, linker, CMake or OpenMP runtime prints as a warning or remark.
WARNING = re.compile(r"\bwarning\s*(#\d+)?:|^CMake Warning|^OMP: Warning|\bremark:", re.IGNORECASE)


def load_allow(path):
    """[(compiled regex, reason)] from the allowlist; BadInput for an entry without a reason."""
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise BadInput(f"allowlist {path}: {e.strerror}") from e
    except tomllib.TOMLDecodeError as e:
        raise BadInput(f"allowlist {path}: not TOML: {e}") from e
    entries = []
    for i, a in enumerate(doc.get("allow", []), 1):
        if set(a) != {"match", "reason"} or not str(a["reason"]).strip():
            raise BadInput(f"allowlist {path}: entry {i}: needs exactly 'match' and a non-empty 'reason'")
        try:
            entries.append((re.compile(a["match"]), a["reason"]))
        except re.error as e:
            raise BadInput(f"allowlist {path}: entry {i}: match is not a regex: {e}") from e
    return entries


# A parallel make's progress line written into a warning that another job had
# begun: "remark: [ 88%] Building C object ..." (the warning's text follows on
# the next line). Seen in a -j2 build's log of clang 22's device link.
INTERLEAVED = re.compile(r"^(?P<head>.*?(?:\bwarning\s*(?:#\d+)?|\bremark):\s*)"
                         r"(?:\[\s*\d+%\] .*|Scanning dependencies of target .*|Built target .*)$",
                         re.IGNORECASE)


def unmix(lines):
    """The log's lines with each warning that make's progress line cut in two made whole again
    (its head and the next line), the progress line left out."""
    it = iter(lines)
    for line in it:
        line = line.rstrip("\n")
        m = INTERLEAVED.match(line)
        if m:
            rest = next(it, "").rstrip("\n")
            yield m.group("head") + rest
        else:
            yield line


def scan(lines, allow):
    """(unlisted warning lines, {entry index: count}) of an iterable of lines."""
    new, used = [], {}
    for line in unmix(lines):
        if not WARNING.search(line):
            continue
        hit = next((i for i, (rx, _) in enumerate(allow) if rx.search(line)), None)
        if hit is None:
            new.append(line)
        else:
            used[hit] = used.get(hit, 0) + 1
    return new, used


def run(argv):
    p = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("--allow", default=DEFAULT_ALLOW, help="the allowlist (default: .ci/warnings-allow.toml)")
    p.add_argument("logs", nargs="+")
    a = p.parse_args(argv)
    allow = load_allow(a.allow)
    found, used = 0, {}
    for log in a.logs:
        try:
            with open(log, errors="replace") as f:
                new, u = scan(f, allow)
        except OSError as e:
            raise BadInput(f"log {log}: {e.strerror}") from e
        for k, n in u.items():
            used[k] = used.get(k, 0) + n
        counts = {}
        for line in new:
            counts[line] = counts.get(line, 0) + 1
        for line, n in counts.items():
            print(f"{log}: NEW WARNING{f' (x{n})' if n > 1 else ''}: {line}")
        found += len(new)
    for i, (rx, reason) in enumerate(allow):
        print(f"allowed x{used[i]}: /{rx.pattern}/ ({reason})" if i in used else f"allowed, not seen: /{rx.pattern}/")
    if found:
        print(f"{PROG}: {found} warning line(s) not in {a.allow}: fix them, or add an entry with its reason",
              file=sys.stderr)
        return 1
    print(f"{PROG}: no warning outside the allowlist in {len(a.logs)} log(s)")
    return 0


def main():
    cli.run(PROG, run, sys.argv[1:])


if __name__ == "__main__":
    main()
