#!/usr/bin/env python3
"""The Spack package's releases are real: each version("X.Y.Z", sha256=...) of
package.py must be the sha256 of the tarball scripts/release makes from the
commit CHANGELOG.md names for X.Y.Z (git archive, pinned umask and gzip -n; no
tag needed). Exit 0 all match, 1 one differs, 77 (skipped, with the reason)
outside a git checkout (a tarball, a Spack stage: no history to archive) or
where the package names no release. Usage: spack_release.py [--plant-wrong-sha] PACKAGE_PY SOURCE_DIR
(--plant-wrong-sha: the last digit of each sha256 changed, which must FAIL)."""
import hashlib
import os
import re
import subprocess
import sys
import tempfile

plant = sys.argv[1:2] == ["--plant-wrong-sha"]
pkg, src = sys.argv[1 + plant:3 + plant]


def skip(why):
    print(f"skipped: {why}")
    sys.exit(77)


text = open(pkg, encoding="utf-8").read()
releases = re.findall(r'version\(\s*"([0-9][0-9.]*)",\s*sha256="([0-9a-f]*)"', text)
if plant:
    releases = [(v, sha[:-1] + ("0" if sha[-1:] != "0" else "1")) for v, sha in releases]
if not releases:
    skip("package.py names no release (only develop)")
top = subprocess.run(["git", "-C", src, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
if top.returncode != 0 or os.path.realpath(top.stdout.strip()) != os.path.realpath(src):
    skip(f"{src} is not a git checkout (a source tarball or a package's stage): no tags to check against")
fails = []
url = re.search(r'^\s*url = "([^"]+)"', text, re.M)
for ver, sha in releases:
    if len(sha) != 64:
        fails.append(f"{ver}: sha256 {sha!r} is not 64 hex digits")
        continue
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([os.path.join(src, "scripts", "release"), "tarball", ver, d], capture_output=True, text=True)
        if r.returncode != 0:
            fails.append(f"{ver}: scripts/release failed: {r.stderr.strip()}")
            continue
        with open(os.path.join(d, f"proxyport-{ver}.tar.gz"), "rb") as f:
            got = hashlib.sha256(f.read()).hexdigest()
    print(f"{ver}: package.py {sha}, tarball of {ver}'s commit {got}")
    if got != sha:
        fails.append(f"{ver}: package.py's sha256 {sha} is not the tarball's {got}")
if url and not re.search(r"/proxyport-[0-9.]+\.tar\.gz$", url.group(1)):
    fails.append(f"url {url.group(1)} does not end in proxyport-<version>.tar.gz (the tarball's name)")
print("FAIL: " + "; ".join(fails) if fails else f"PASS: {len(releases)} release(s), each the tarball of its commit")
sys.exit(1 if fails else 0)
