/* The device models' layout (omp, ompx, cuda/hip) of U_i and Y_i: tiles of
 * SNAP_TILE atoms, element-major inside a tile. Neighbouring atoms (threads)
 * read neighbouring words, and the element stride is the constant SNAP_TILE
 * (see snap_z_elem). The items of their kernels on that layout, and the
 * neighbour-major order of their pair kernels. */
#ifndef SNAP_TILED_H
#define SNAP_TILED_H
#include "snap_math.h"
PP_EXTERN_C_BEGIN

#define SNAP_TILE 32
PP_BEGIN_DEVICE
PP_HD static inline long snap_tiles(const snap_data *d) { return (d->natoms + SNAP_TILE - 1) / SNAP_TILE; }
/* Doubles of one tiled array (padding atoms included). */
PP_HD static inline long snap_tiled_len(const snap_data *d) { return snap_tiles(d) * d->t.idxu_max * SNAP_TILE; }
/* Element 0 of atom i; element e is e * SNAP_TILE further. */
PP_HD static inline long snap_tiled_base(const snap_data *d, int i) {
  return (long)(i / SNAP_TILE) * d->t.idxu_max * SNAP_TILE + i % SNAP_TILE;
}

/* compute_ui, first pass, word q of the tiled U: the self term wself on the diagonal. */
PP_HD static inline void snap_ui_init_item(const snap_data *d, long q, double *ur, double *ui) {
  const snap_jm m = snap_uidx_split((int)((q / SNAP_TILE) % d->t.idxu_max));
  ur[q] = m.ma == m.mb ? d->wself : 0.0;
  ui[q] = 0.0;
}
/* compute_ui, last pass, word q: the mirrored half (2 mb > j) from the computed one. */
PP_HD static inline void snap_ui_mirror_item(const snap_data *d, long q, double *ur, double *ui) {
  const int e = (int)((q / SNAP_TILE) % d->t.idxu_max);
  const snap_jm m = snap_uidx_split(e);
  if (2 * m.mb <= m.j) return;
  const long src = q + (long)(snap_uidx(m.j, m.j - m.ma, m.j - m.mb) - e) * SNAP_TILE;
  const snap_c v = {ur[src], ui[src]};
  const snap_c u = snap_u_mirror(m.ma, m.mb, v);
  ur[q] = u.r, ui[q] = u.i;
}

/* compute_yi, one writer per Y element, no atomics. Nested form and the item
 * of both: Y item h (snap_yitem_split: one or two elements) of atom i. */
PP_HD static inline void snap_yi_atom_item(const snap_data *d, int i, int h, const double *ur, const double *ui,
                                           double *yr, double *yi) {
  int two;
  const snap_jm m = snap_yitem_split(h, &two);
  const long base = snap_tiled_base(d, i), e = base + (long)snap_uidx(m.j, m.ma, m.mb) * SNAP_TILE;
  if (two) {
    snap_c y0, y1;
    snap_y_pair(&d->t, m.j, m.ma, m.mb, ur + base, ui + base, SNAP_TILE, &y0, &y1);
    yr[e] = y0.r, yi[e] = y0.i;
    yr[e + SNAP_TILE] = y1.r, yi[e + SNAP_TILE] = y1.i;
  } else {
    const snap_c y = snap_y_elem(&d->t, m.j, m.ma, m.mb, ur + base, ui + base, SNAP_TILE);
    yr[e] = y.r, yi[e] = y.i;
  }
}
/* Collapsed form: a flat launch cut into blocks of `wpb` warps; a block is
 * one tile of atoms (lanes) and wpb consecutive Y elements (warps), so its
 * warps read the same U rows of the same atoms and share them in L1; the
 * heaviest levels (high j) come first, so the tail is light. */
PP_HD static inline long snap_yi_tile_blocks(const snap_data *d, int wpb) {
  return snap_tiles(d) * ((d->t.idxy_items + wpb - 1) / wpb);
}
/* The item (block b, warp w, lane); nothing out of range. */
PP_HD static inline void snap_yi_tile_item(const snap_data *d, long b, int w, int wpb, int lane, const double *ur,
                                           const double *ui, double *yr, double *yi) {
  const long ntiles = snap_tiles(d);
  const int h = d->t.idxy_items - 1 - (int)((b / ntiles) * wpb + w);
  const int i = (int)(b % ntiles) * SNAP_TILE + lane;
  if (h >= 0 && i < d->natoms) snap_yi_atom_item(d, i, h, ur, ui, yr, yi);
}

/* Pair kernels: item q of a launch over natoms * nmax neighbour slots,
 * neighbour-major (q = jj * natoms + i), so that neighbouring items are
 * different atoms and their adds into U_i go to different words (atom-major,
 * a team's neighbours of one atom collide on the same words). Returns the
 * slot p = i * nmax + jj of the neighbour lists, or -1 (empty slot, or q
 * out of range); *i is the atom. */
PP_HD static inline long snap_pair_slot(const snap_data *d, long q, int *i) {
  *i = 0;
  if (q >= (long)d->natoms * d->nmax) return -1;
  const int a = (int)(q % d->natoms), jj = (int)(q / d->natoms);
  *i = a;
  return jj < d->nneigh[a] ? (long)a * d->nmax + jj : -1;
}
/* --deidrj split (snap_dedr_path): work items (atom, neighbour slot,
 * gradient component, diagonal) in warps of SNAP_TILE atoms, in chunks of
 * atom tiles [t0, t0 + nt) (the chunk's Cayley-Klein parameters and their
 * gradients, snap_dck, are computed once per pair into dck[] first, at most
 * SNAP_SPLIT_DCK_BYTES). Warp v, lane l: atom (t0 + v % nt) * SNAP_TILE + l,
 * slot (v / nt) % nmax, then component and diagonal, the long diagonals
 * (bend >= twojmax / 2, all of the same length) first. A warp's lanes walk
 * the same diagonal of the same slot: they diverge only where a neighbour
 * list ends. */
#ifndef SNAP_SPLIT_DCK_BYTES /* a -D value tests the chunking on small cases */
#define SNAP_SPLIT_DCK_BYTES (32.0 * 1048576.0)
#endif
PP_HD static inline long snap_split_warps(const snap_data *d, long nt) {
  return nt * d->nmax * 3L * (d->t.twojmax + 1);
}
/* Atom tiles per chunk (at least one). */
PP_HD static inline long snap_split_chunk(const snap_data *d) {
  const long per_tile = (long)SNAP_TILE * (d->nmax ? d->nmax : 1) * (long)sizeof(snap_dck);
  long nt = (long)(SNAP_SPLIT_DCK_BYTES / per_tile);
  if (nt > snap_tiles(d)) nt = snap_tiles(d);
  return nt < 1 ? 1 : nt;
}
/* Item q of the chunk's first pass (nt * SNAP_TILE * nmax slots): slot
 * (i, jj)'s dE_i/dr_j zeroed (the paths add into it), its snap_dck into dck[q]. */
PP_HD static inline void snap_split_dck_item(const snap_data *d, long t0, long q, snap_dck *dck, double *dedr) {
  const int i = (int)(t0 * SNAP_TILE + q / d->nmax), jj = (int)(q % d->nmax);
  if (i >= d->natoms) return;
  const long p = (long)i * d->nmax + jj;
  dedr[3 * p] = dedr[3 * p + 1] = dedr[3 * p + 2] = 0.0;
  if (jj < d->nneigh[i]) dck[q] = snap_dck_of(d, d->rij + 3 * p);
}
/* Warp v, lane l of the chunk: the pair slot p (or -1: nothing to do), its
 * component *dim, diagonal *bend and snap_dck index *c in the chunk. */
PP_HD static inline long snap_split_slot(const snap_data *d, long t0, long nt, long v, int lane, int *dim, int *bend,
                                         long *c) {
  const long r = v / nt;
  const int i = (int)((t0 + v % nt) * SNAP_TILE + lane), jj = (int)(r % d->nmax);
  const int w = (int)(r / d->nmax);
  *dim = w % 3, *bend = d->t.twojmax - w / 3;
  *c = ((long)i - t0 * SNAP_TILE) * d->nmax + jj;
  if (*bend < 0 || i >= d->natoms || jj >= d->nneigh[i]) return -1;
  return (long)i * d->nmax + jj;
}

/* Pair kernels: the U_i word of element e of atom i, and Y_i's base. */
PP_HD static inline long snap_tiled(const snap_data *d, int e, int i) {
  return snap_tiled_base(d, i) + (long)e * SNAP_TILE;
}
/* compute_energies of atom i through Y, on the tiled layout. */
PP_HD static inline double snap_tiled_energy(const snap_data *d, int i, const double *ur, const double *ui,
                                             const double *yr, const double *yi) {
  const long b = snap_tiled_base(d, i);
  return snap_atom_energy_y(d, ur + b, ui + b, yr + b, yi + b, SNAP_TILE);
}
PP_END_DEVICE

PP_EXTERN_C_END
#endif
