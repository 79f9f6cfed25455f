#!/usr/bin/env python3
"""Independent reference for cgsolve: SciPy's CG on the miniFE matrix assembled
here, element by element, from the Q1 element stiffness (the tensor product of
the 1D linear element's stiffness and mass, integrated analytically), with no
code shared with ProxyPort's C generator, SpMV kernels or CG.

The problem is cgsolve's: an N^3 cube of unit hexahedra, one unknown per node
(x fastest), surface nodes Dirichlet (identity rows, their columns absent from
the other rows), x*_i = 2 u(seed, i) - 1 with u ProxyPort's pp_hash_uniform
(splitmix64 of seed ^ (i * 0xD1B54A32D192ED03), top 53 bits), b = A x*, x0 = 0,
exactly `iters` CG iterations. Prints the true relative residual
||b - A x|| / ||b|| and ||x - x*|| / ||x*||; with --write, records them in the
deck as cg_iters, cg_seed, cg_relres, cg_xerr (what cgsolve compares against).

  python3 inputs/minife/reference/cg_reference.py [--iters 200] [--seed 42] [--write] DECK...
"""
import argparse
import re
import sys
import time

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as spla

M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def hash_uniform(seed, i):
    """pp_hash_uniform(seed, i) for an array i (uint64 arithmetic wraps)."""
    with np.errstate(over="ignore"):
        s = np.uint64(seed) ^ (i.astype(np.uint64) * np.uint64(0xD1B54A32D192ED03))
        z = s + np.uint64(0x9E3779B97F4A7C15)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) * (1.0 / 9007199254740992.0)


def element_stiffness():
    """8x8 Q1 stiffness of the unit cube, corner c = cx + 2 cy + 4 cz."""
    k1 = np.array([[1.0, -1.0], [-1.0, 1.0]])  # int l_a' l_b' on [0, 1]
    m1 = np.array([[1 / 3, 1 / 6], [1 / 6, 1 / 3]])  # int l_a l_b on [0, 1]
    # np.kron(A, B)[2a+b] pairs A's index with the higher bit: order (z, y, x)
    return (np.kron(m1, np.kron(m1, k1)) + np.kron(m1, np.kron(k1, m1))
            + np.kron(k1, np.kron(m1, m1)))


def assemble(N, planes_per_block=8):
    """The whole matrix, assembled per block of node z-planes (bounded memory)."""
    n1 = N + 1
    plane = n1 * n1
    Ke = element_stiffness()
    corner = [(c & 1, (c >> 1) & 1, (c >> 2) & 1) for c in range(8)]
    blocks = []
    for k0 in range(0, n1, planes_per_block):
        k1_ = min(k0 + planes_per_block, n1)
        r0, r1 = k0 * plane, k1_ * plane
        ez = np.arange(max(k0 - 1, 0), min(k1_, N))
        EX, EY, EZ = np.meshgrid(np.arange(N), np.arange(N), ez, indexing="ij")
        EX, EY, EZ = EX.ravel(), EY.ravel(), EZ.ravel()
        nodes, inner = [], []
        for cx, cy, cz in corner:
            i, j, k = EX + cx, EY + cy, EZ + cz
            nodes.append(i + n1 * j + plane * k)
            inner.append((i > 0) & (i < N) & (j > 0) & (j < N) & (k > 0) & (k < N))
        rows, cols, vals = [], [], []
        for a in range(8):
            for c in range(8):
                keep = inner[a] & inner[c] & (nodes[a] >= r0) & (nodes[a] < r1)
                rows.append(nodes[a][keep] - r0)
                cols.append(nodes[c][keep])
                vals.append(np.full(int(keep.sum()), Ke[a, c]))
        g = np.arange(r0, r1)
        i, j, k = g % n1, (g // n1) % n1, g // plane
        surf = g[(i == 0) | (i == N) | (j == 0) | (j == N) | (k == 0) | (k == N)]
        rows.append(surf - r0)
        cols.append(surf)
        vals.append(np.ones(surf.size))
        blk = sp.coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                            shape=(r1 - r0, n1 ** 3)).tocsr()
        blocks.append(blk)
    return sp.vstack(blocks, format="csr")


def reference(N, iters, seed):
    t0 = time.time()
    A = assemble(N)
    n = A.shape[0]
    xstar = 2.0 * hash_uniform(seed, np.arange(n)) - 1.0
    b = A @ xstar
    calls = [0]

    def mv(v):
        calls[0] += 1
        return A @ v

    op = spla.LinearOperator(A.shape, matvec=mv, dtype=np.float64)
    # rtol = atol = 0: never stop early; exactly `iters` iterations from x0 = 0
    x, info = spla.cg(op, b, x0=np.zeros(n), rtol=0.0, atol=0.0, maxiter=iters)
    relres = np.linalg.norm(b - A @ x) / np.linalg.norm(b)
    xerr = np.linalg.norm(x - xstar) / np.linalg.norm(xstar)
    return relres, xerr, calls[0], A.nnz, time.time() - t0


def write_keys(path, keys):
    text = open(path).read()
    text = re.sub(r"(?m)^(# CG reference.*\n|cg_(iters|seed|relres|xerr) *=.*\n)", "", text)
    if not text.endswith("\n"):
        text += "\n"
    text += ("# CG reference (inputs/minife/reference/cg_reference.py, SciPy %s): the true relative\n"
             "# residual and x error after cg_iters iterations from x0 = 0, x* from seed cg_seed.\n"
             % scipy.__version__)
    text += "".join("%s = %s\n" % kv for kv in keys)
    open(path, "w").write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("decks", nargs="+")
    ap.add_argument("--iters", type=int, default=200)
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--write", action="store_true", help="record the values in the deck")
    a = ap.parse_args()
    for deck in a.decks:
        m = re.search(r"(?m)^\s*N\s*=\s*(\d+)", open(deck).read())
        if not m:
            sys.exit("%s: no 'N = ...' line" % deck)
        N = int(m.group(1))
        relres, xerr, calls, nnz, secs = reference(N, a.iters, a.seed)
        if calls != a.iters:  # one product per iteration (r0 = b: x0 = 0 needs none)
            sys.exit("%s: SciPy's CG made %d products for %d iterations" % (deck, calls, a.iters))
        print("%s: N=%d nnz=%d iters=%d seed=%d relres=%.17g xerr=%.17g (%.1f s)"
              % (deck, N, nnz, a.iters, a.seed, relres, xerr, secs))
        if a.write:
            write_keys(deck, [("cg_iters", a.iters), ("cg_seed", a.seed),
                              ("cg_relres", "%.17g" % relres), ("cg_xerr", "%.17g" % xerr)])


if __name__ == "__main__":
    main()
