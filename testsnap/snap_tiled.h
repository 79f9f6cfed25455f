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
