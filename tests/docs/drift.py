#!/usr/bin/env python3
"""drift.py REPO: the documents against the tree, so that what they name cannot drift.
  - version: CMakeLists.txt's project(VERSION), pyproject.toml's version, the newest
    release of CHANGELOG.md and the newest release of the Spack package are one version;
    the README's "Release X" names it; wherever a document lists "the release(s)" of the
    Spack package it lists the package's releases, no more and no fewer;
  - machines: every published machine folder (results/<machine>/README.md) has its row
    in docs/results.md and results/README.md;
  - folders: every path in a code span of README.md, RUNRULES.md, docs/*.md and
    results/README.md that starts at a top folder of the tree exists (globs, <names>,
    placeholders in capitals such as tests/apps/APP.cmake, and EXAMPLES aside), so a renamed
    or removed folder is not left named;
  - counts: no document states how many tests the suite has ("557 tests"): it changes
    with every test added; ctest -N says it.
Exit 0 none, 1 each printed as FILE:LINE: what, 2 usage."""
import glob
import os
import re
import sys

DOCS = ["README.md", "RUNRULES.md", "docs/*.md", "results/README.md", "packaging/*/README.md"]
CODE = re.compile(r"`([^`\n]+)`")
TESTS_COUNT = re.compile(r"\b\d{3,} tests\b")
RELEASES = re.compile(r"\bthe releases? ((?:`[0-9.]+`(?:,? (?:and )?)?)+)")
VERSION = re.compile(r"\d+\.\d+\.\d+")
# paths the documents name that are not meant to exist, each with why
EXAMPLES = {"tests/apps/stencil.cmake": "docs/developer-guide.md's worked example of a new app, stencil"}


def read(repo, rel):
    with open(os.path.join(repo, rel), encoding="utf-8") as f:
        return f.read()


def first(pattern, text, what):
    m = re.search(pattern, text, re.M)
    if not m:
        raise SystemExit(f"drift.py: {what} not found")
    return m.group(1)


def versions(repo):
    """{where: version} of the tree's own statements of its version."""
    spack = glob.glob(os.path.join(repo, "packaging/spack/**/package.py"), recursive=True)
    out = {"CMakeLists.txt": first(r"project\(\w+ VERSION ([0-9.]+)", read(repo, "CMakeLists.txt"), "project(VERSION)"),
           "pyproject.toml": first(r'^version = "([0-9.]+)"', read(repo, "pyproject.toml"), "pyproject version"),
           "CHANGELOG.md": first(r"^## \[(\d+\.\d+\.\d+)\]", read(repo, "CHANGELOG.md"), "a CHANGELOG release")}
    if spack:
        rel = os.path.relpath(spack[0], repo)
        out[rel] = first(r'version\("(\d+\.\d+\.\d+)"', read(repo, rel), "a Spack release")
    return out


def spack_releases(repo):
    spack = glob.glob(os.path.join(repo, "packaging/spack/**/package.py"), recursive=True)
    return set(re.findall(r'version\("(\d+\.\d+\.\d+)"', read(repo, os.path.relpath(spack[0], repo)))) if spack else None


def lines(repo):
    """(file, line number, line) of every document, code blocks included (their paths count)."""
    for pat in DOCS:
        for path in sorted(glob.glob(os.path.join(repo, pat))):
            rel = os.path.relpath(path, repo)
            for n, line in enumerate(read(repo, rel).splitlines(), 1):
                yield rel, n, line


def top_folders(repo):
    return {e for e in os.listdir(repo) if os.path.isdir(os.path.join(repo, e)) and not e.startswith(".")
            and e not in ("build", "runs")}


def check(repo):
    bad = []
    vs = versions(repo)
    current = vs["CMakeLists.txt"]
    bad += [f"{f}:1: version {v}, but CMakeLists.txt says {current}" for f, v in vs.items() if v != current]
    releases = spack_releases(repo)
    tops = top_folders(repo)
    for f, n, line in lines(repo):
        if f == "README.md":
            for v in re.findall(r"\bRelease (\d+\.\d+\.\d+)", line):
                if v != current:
                    bad.append(f"{f}:{n}: names release {v} as current; the tree is {current}")
        m = RELEASES.search(line)
        if m and releases is not None and set(VERSION.findall(m.group(1))) != releases:
            bad.append(f"{f}:{n}: lists the release(s) {', '.join(VERSION.findall(m.group(1)))}; "
                       f"the Spack package has {', '.join(sorted(releases))}")
        for t in TESTS_COUNT.findall(line):
            bad.append(f"{f}:{n}: '{t}': a count of the suite's tests goes stale (ctest -N says it)")
        for span in CODE.findall(line):
            for word in span.split():
                p = word.rstrip(".,;:)").lstrip("(")
                if "/" not in p or p.split("/")[0] not in tops or re.search(r"[*<>{}$\[\]]|\.\.\.", p) \
                        or p in EXAMPLES or any(re.fullmatch(r"[A-Z_]+(\.\w+)?", c) for c in p.split("/")):
                    continue
                if not os.path.exists(os.path.join(repo, p.split("#")[0])):
                    bad.append(f"{f}:{n}: `{p}` does not exist")
    for readme in sorted(glob.glob(os.path.join(repo, "results/*/README.md"))):
        machine = os.path.basename(os.path.dirname(readme))
        for index, rows in (("docs/results.md", [f"](../results/{machine}/README.md)"]),
                            ("results/README.md", [f"]({machine}/README.md)", f"| `{machine}/` |"])):
            if os.path.exists(os.path.join(repo, index)) and not any(r in read(repo, index) for r in rows):
                bad.append(f"{index}:1: results/{machine}/ is published but has no row here")
    return bad


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: drift.py REPO", file=sys.stderr)
        return 2
    bad = check(argv[1])
    for b in bad:
        print(b)
    print(f"drift.py: {len(bad)} document(s) out of step with the tree" if bad else "drift.py: the documents match the tree")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
