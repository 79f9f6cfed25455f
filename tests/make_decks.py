#!/usr/bin/env python3
"""Writes the hostile and edge-case input decks of tests/input.cmake into DIR
(binary content that cannot live in the source tree as text files)."""
import os
import sys

d = sys.argv[1]
os.makedirs(d, exist_ok=True)


def put(name, data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


put("ok.deck", b"# a plain deck\nN = 4\n")
put("bom.deck", b"\xef\xbb\xbfN = 4\n")                      # UTF-8 byte-order mark
put("crlf.deck", b"# windows\r\nN = 4\r\n")
put("utf8.deck", "# caf\u00e9 \u2713\nN = 4\n".encode())      # UTF-8 in a comment is fine
put("nul.deck", b"N = 4\n" + b"\0" * 5000 + b"\n")
put("escape.deck", b"N = 4\n# \x1b[2J\x1b]0;pwned\x07 comment\n")
put("lone_cr.deck", b"N = 4\rM = 5\n")
put("latin1.deck", b"# caf\xe9\nN = 4\n")
put("c1.deck", b"N = 4\nname = a\xc2\x9bb\n")                 # C1 control (CSI) as UTF-8: refused
put("del.deck", b"N = 4\x7f\n")
put("long_line.deck", b"N = 4\n# " + b"x" * 2000 + b"\n")
put("many_lines.deck", b"\n" * 100001)
put("too_big.deck", b"".join(b"k%d = 1\n" % i for i in range(200000)))   # 2.3 MB, 200k keys
put("too_many_keys.deck", b"".join(b"k%d=1\n" % i for i in range(10001)))
put("max_keys.deck", b"".join(b"k%d = %d\n" % (i, i) for i in range(10000)))
put("dup_far.deck", b"".join(b"k%d = 1\n" % i for i in range(5000)) + b"k17 = 2\n")
put("dup_order.deck", b"b = 1\na = 1\nb = 2\na = 2\n")   # first repeat in file order: line 3
put("unknown_case.deck", b"# deck\nN = 4\nn = 5\n")
put("unknown_typo.deck", b"N = 4\nmax_iter = 5\n")
put("unknown_far.deck", b"N = 4\nfrobnicate = 1\n")
put("empty.deck", b"")
fifo = os.path.join(d, "fifo.deck")
if not os.path.exists(fifo):
    os.mkfifo(fifo)
os.makedirs(os.path.join(d, "dir.deck"), exist_ok=True)
print("decks written to", d)
