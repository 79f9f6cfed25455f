#!/usr/bin/env python3
"""Checks every relative link of the project's Markdown documents.

usage: links.py ROOT [FILE.md ...]

A link's file (or folder) must exist, inside ROOT, and its #anchor must be a
heading of the target as GitHub names it (lower case, punctuation dropped,
spaces to hyphens, -1, -2 ... for repeats) or an explicit <a id/name>.
Without FILEs: README.md, RUNRULES.md, docs/**/*.md and
packaging/spack/README.md. Exit 0 all links resolve, 1 a broken link (one
line each: file, line, target, why), 2 bad usage.
"""
import os
import re
import sys
import urllib.parse

DEFAULT = ["README.md", "RUNRULES.md", "packaging/spack/README.md"]
FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")
HTML = re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)\s*=\s*[\"']([^\"']*)[\"']", re.I)
HTML_ID = re.compile(r"<a\s[^>]*?(?:id|name)\s*=\s*[\"']([^\"']+)[\"']", re.I)
ATX = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def lines_outside_code(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            mark = m.group(1)
            if fence is None:
                fence = mark[0] * len(mark)
            elif mark.startswith(fence):
                fence = None
            continue
        if fence is None:
            yield n, line


def drop_code_spans(line):
    return re.sub(r"(`+)(.+?)\1", lambda m: "\0" * len(m.group(0)), line)


def slug(heading):
    """GitHub's anchor for a heading's text."""
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # links: their text
    t = re.sub(r"<[^>]+>", "", t)                             # HTML tags
    t = t.replace("`", "").replace("*", "")
    t = re.sub(r"(?<!\w)_+|_+(?!\w)", "", t)                  # _emphasis_, not snake_case
    t = t.strip().lower()
    t = "".join(c for c in t if c.isalnum() or c in " -_")
    return t.replace(" ", "-")


_ANCHORS = {}  # path -> its anchors, read once


def anchors(path, cache=_ANCHORS):
    if path not in cache:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        seen, out = {}, set()
        prev = None
        for _, line in lines_outside_code(text):
            m = ATX.match(line)
            head = m.group(1) if m else None
            if head is None and prev and prev.strip() and re.match(r"^\s{0,3}(=+|-+)\s*$", line):
                head = prev.strip()
            if head is not None:
                s = slug(head)
                k = seen.get(s, 0)
                seen[s] = k + 1
                out.add(s if k == 0 else f"{s}-{k}")
            out.update(a.lower() for a in HTML_ID.findall(line))
            prev = line if not m else None
        cache[path] = out
    return cache[path]


def targets(text):
    for n, line in lines_outside_code(text):
        bare = drop_code_spans(line)
        for rx in (INLINE, REFDEF, HTML):
            for m in rx.finditer(bare):
                yield n, m.group(1)


def check(root, rel):
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    errors, count = [], 0
    real_root = os.path.abspath(root)
    for n, target in targets(text):
        if not target or SCHEME.match(target):
            continue
        count += 1
        where = f"{rel}:{n}: link '{target}'"
        file_part, _, anchor = target.partition("#")
        file_part = urllib.parse.unquote(file_part)
        if file_part.startswith("/"):
            errors.append(f"{where}: absolute path (write it relative to {rel})")
            continue
        dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        if os.path.commonpath([os.path.abspath(dest), real_root]) != real_root:
            errors.append(f"{where}: points outside the repository")
            continue
        if not os.path.exists(dest):
            errors.append(f"{where}: no such file or folder")
            continue
        if anchor:
            if not dest.endswith(".md") or os.path.isdir(dest):
                errors.append(f"{where}: an anchor into a file that is not Markdown")
            elif urllib.parse.unquote(anchor).lower() not in anchors(dest):
                errors.append(f"{where}: no heading with anchor '#{anchor}' in {os.path.relpath(dest, root)}")
    return errors, count


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) < 2 else sys.stdout)
        return 2 if len(argv) < 2 else 0
    root = argv[1]
    if not os.path.isdir(root):
        print(f"links.py: '{root}' is not a folder", file=sys.stderr)
        return 2
    files = argv[2:]
    if not files:
        files = [f for f in DEFAULT if os.path.isfile(os.path.join(root, f))]
        for d, _, names in os.walk(os.path.join(root, "docs")):
            files += sorted(os.path.relpath(os.path.join(d, n), root) for n in names if n.endswith(".md"))
    errors, count = [], 0
    for rel in files:
        if not os.path.isfile(os.path.join(root, rel)):
            print(f"links.py: no file '{rel}' in {root}", file=sys.stderr)
            return 2
        e, c = check(root, rel)
        errors += e
        count += c
    for e in errors:
        print(e)
    print(f"links.py: {count} relative links in {len(files)} files, {len(errors)} broken")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
