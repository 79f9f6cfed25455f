#!/usr/bin/env python3
"""Fails when a file of the repository names a path outside it.

usage: outside_paths.py ROOT

Reads every tracked file (`git ls-files`; every file under ROOT when ROOT is
not a git checkout) except the published raw records under results/, which
keep the paths their runs printed. A line fails when it names a folder beside
the checkout (a `shared` folder reached through `..`), a file that lives only
there (the toolchain and examples notes), an absolute path of a build
machine's work, home or root folders, or the tools of the machines the
project was developed on. Exit 0 none, 1 one line per hit (file:line: what),
2 bad usage.
"""
import os
import re
import subprocess
import sys

# Written so that this file does not match itself.
BEFORE = r"(?<![\w$}).\]-])"
RULES = [
    (re.compile(r"(?:\.\./)+shared\b"), "a folder outside the repository"),
    (re.compile(BEFORE + r"shared/(?:gpu|TOOLCHAIN|EXAMPLES)\b"), "a folder outside the repository"),
    (re.compile(BEFORE + r"(?:TOOLCHAIN|EXAMPLES)\.md\b"), "a file outside the repository"),
    (re.compile(BEFORE + r"/(?:work|root)(?=/)"), "an absolute path of a build machine"),
    (re.compile(BEFORE + r"/home/[A-Za-z_][\w.-]*(?=/)"), "an absolute path of a build machine"),
    (re.compile(BEFORE + r"/tmp/(?:helpers|setup-deps)\b"), "an absolute path of a build machine"),
    (re.compile(r"\bthe\s+(?:fetch|device)\s+tool\b", re.I), "a tool of the development machines"),
    (re.compile(r"\.mirror/[<]owner"), "a tool of the development machines"),
]
EXCLUDED = ("results/",)


def tracked(root):
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True)
        if out.stdout:
            return [f for f in out.stdout.decode("utf-8", "replace").split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        pass
    # Not a checkout (a source tarball, a package's stage): every file but the
    # build outputs and tool folders .gitignore lists, which hold this machine's paths.
    skip = {".git", "build", "runs", ".toolchain", ".gpu-rt", ".gpu-rt-extra", ".refs", "__pycache__", ".venv"}
    files = []
    for d, dirs, names in os.walk(root):
        dirs[:] = [x for x in dirs if x not in skip and not x.startswith("spack-build")]
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return sorted(files)


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip(), file=sys.stderr if len(argv) != 2 else sys.stdout)
        return 0 if len(argv) == 2 else 2
    root = argv[1]
    if not os.path.isdir(root):
        print(f"outside_paths.py: '{root}' is not a folder", file=sys.stderr)
        return 2
    hits, n = [], 0
    for rel in tracked(root):
        if rel.startswith(EXCLUDED):
            continue
        path = os.path.join(root, rel)
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        with open(path, "rb") as f:
            data = f.read(4 << 20)
        if b"\0" in data:
            continue                       # a binary file
        n += 1
        for i, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
            for rx, what in RULES:
                m = rx.search(line)
                if m:
                    hits.append(f"{rel}:{i}: '{m.group(0)}' names {what}: {line.strip()[:120]}")
                    break
    for h in hits:
        print(h)
    print(f"outside_paths.py: {n} files read (results/ excluded), {len(hits)} lines name a path outside the repository")
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
