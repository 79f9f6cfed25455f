#!/usr/bin/env python3
"""numbers.py REPO [--allowed FILE] [DOC...]: every measured figure in README.md and docs/*.md is
written by a tool from the published sets, never typed. Outside the generated blocks (between
`<!-- doc-table:begin`, `<!-- results-table:begin`, `<!-- portability:begin` and their end
markers), code spans and code blocks, a document may hold no figure that looks measured: a ratio
(0.93, 1.64x), a percentage, a rate (GB/s, GFLOP/s, lookups/s, ms/atom-step, GB/J) or a time,
power or energy (us, ms, s, W, J) with a fractional part or of three digits or more. The few that
are facts, not results (a counter's update interval, a default), are listed in
tests/docs/numbers-allowed.txt, each with its reason ("FILE<TAB>TEXT<TAB>why"). Exit 0 none
unlisted, 1 (each printed with its file and line), 2 usage."""
import os
import re
import sys

FIGURE = re.compile(
    r"(?<![\w.^/=-])("
    r"\d+(?:\.\d+)?\s?x\b(?!\d)"                      # 1.64x, 2x
    r"|\d+(?:\.\d+)?\s?%"                               # 97%, 71.8%
    r"|[01]\.\d{2,}\b"                                  # 0.93, 1.027
    r"|\d+(?:\.\d+)?\s?(?:[GTMk]B/s|GFLOP/s|M? ?lookups/s|ms/atom-step|GB/J|GFLOP/J|lookups/J)"
    r"|\d+\.\d+\s?(?:us|ms|s|W|J|mJ|GHz|MHz)\b"       # 4.6 ms, 0.5 s
    r"|\d{3,}\s?(?:us|ms|W|J|mJ)\b"                    # 417 us, 700 W
    r")")
BLOCKS = [("<!-- doc-table:begin", "<!-- doc-table:end"), ("<!-- results-table:begin", "<!-- results-table:end"),
          ("<!-- portability:begin", "<!-- portability:end")]


def prose_lines(text):
    """(line number, line) of the prose: generated blocks and code left out."""
    out, skip, fence = [], None, False
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if skip:
            if s.startswith(skip):
                skip = None
            continue
        hit = next((end for beg, end in BLOCKS if s.startswith(beg)), None)
        if hit:
            skip = hit
            continue
        if s.startswith("```"):
            fence = not fence
            continue
        if not fence:
            out.append((n, re.sub(r"`[^`]*`", "``", line)))
    return out


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    repo, rest = argv[0], argv[1:]
    allowed_file = os.path.join(repo, "tests", "docs", "numbers-allowed.txt")
    if rest[:1] == ["--allowed"]:
        allowed_file, rest = rest[1], rest[2:]
    docs = rest or ([os.path.join(repo, "README.md")] +
                    sorted(os.path.join(repo, "docs", f) for f in os.listdir(os.path.join(repo, "docs")) if f.endswith(".md")))
    allowed = {}
    if os.path.exists(allowed_file):
        for line in open(allowed_file, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                f, text, _why = (line.rstrip("\n").split("\t") + ["", ""])[:3]
                allowed.setdefault(f, []).append(text)
    bad = 0
    for d in docs:
        rel = os.path.relpath(d, repo)
        for n, line in prose_lines(open(d, encoding="utf-8").read()):
            for m in FIGURE.finditer(line):
                if any(a in line and m.group(0) in a for a in allowed.get(rel, [])):
                    continue
                print(f"{rel}:{n}: typed figure '{m.group(0)}': {line.strip()[:160]}")
                bad += 1
    print(f"numbers: {bad} typed figure{'s' if bad != 1 else ''} in {len(docs)} documents" if bad else
          f"numbers: no typed figure in {len(docs)} documents")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
