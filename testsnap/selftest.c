/* testsnap_selftest COEFF PARAM [--plant|--plant-level|--plant-split]: checks
 * the identity the GPU models' energies rest on, the level-by-level forms of
 * the U and dU recursions the GPU models use (two level buffers per
 * neighbour, snap_math.h) and the path forms of --deidrj split (one row per
 * diagonal and gradient component) against the whole-neighbour forms of the
 * host model. B is cubic in U, so U : dE/dU = 3 E_B and
 *   E_i = e0 + (2/3) sum_half w U_i : conj(Y_i)      (snap_energy_term)
 * must equal the host model's E_i = e0 + sum_k beta_k B_k,i (through Z and
 * B, LAMMPS's way) on a disordered bcc lattice. --plant perturbs one Y
 * energy by 1e-6 eV, --plant-level one level-form dE_i/dr_j by 1e-6 eV/A,
 * --plant-split drops one diagonal of one path-form dE_i/dr_j; each must be
 * reported (exit 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "problem.h"
#include "snap_math.h"

#define TOL 1e-10 /* eV */
#define TOL_LEVEL 1e-10 /* U elements and dE_i/dr_j (eV/A): rounding only */

/* U_i of atom i (ur, ui: [idxu_max]) as the GPU kernels build it: per
 * neighbour, level by level through two level buffers (lvl: 2 level
 * buffers), the computed half added, then the mirrored half filled. */
static void level_ui(const snap_data *d, int i, double *ur, double *ui, snap_c *lvl) {
  const snap_tables *t = &d->t;
  const int n = snap_level_elems(t->twojmax);
  for (int e = 0; e < t->idxu_max; e++) {
    const snap_jm m = snap_uidx_split(e);
    ur[e] = m.ma == m.mb ? d->wself : 0.0, ui[e] = 0.0;
  }
  for (int jj = 0; jj < d->nneigh[i]; jj++) {
    const snap_ck c = snap_ck_of(d, d->rij + ((long)i * d->nmax + jj) * 3);
    for (int j = 0; j <= t->twojmax; j++) {
      snap_c *cur = lvl + (j & 1) * n, *prev = lvl + ((j & 1) ^ 1) * n;
      for (int k = 0; k < snap_level_half(j); k++) {
        const snap_c u = snap_u_level_elem(t, &c, j, k, prev, cur);
        ur[snap_ublock(j) + k] += c.sfac * u.r, ui[snap_ublock(j) + k] += c.sfac * u.i;
      }
      if (j & 1)
        for (int ma = 0; ma <= j; ma++) snap_level_mirror(j, ma, cur, NULL);
    }
  }
  for (int e = 0; e < t->idxu_max; e++) {
    const snap_jm m = snap_uidx_split(e);
    if (2 * m.mb <= m.j) continue;
    const int src = snap_uidx(m.j, m.j - m.ma, m.j - m.mb);
    const snap_c v = {ur[src], ui[src]}, u = snap_u_mirror(m.ma, m.mb, v);
    ur[e] = u.r, ui[e] = u.i;
  }
}

/* dE_i/dr_j of pair (i, jj) as the GPU kernels compute it (lvl: 8 level buffers). */
static void level_dedr(const snap_data *d, int i, int jj, const double *yr, const double *yi, snap_c *lvl,
                       double acc[3]) {
  const snap_tables *t = &d->t;
  const int n = snap_level_elems(t->twojmax);
  const snap_dck g = snap_dck_of(d, d->rij + ((long)i * d->nmax + jj) * 3);
  acc[0] = acc[1] = acc[2] = 0.0;
  for (int j = 0; j <= t->twojmax; j++) {
    const int c = j & 1;
    snap_c *cur = lvl + c * n, *prev = lvl + (c ^ 1) * n;
    snap_c *dcur = lvl + 2 * n + 3 * c * n, *dprev = lvl + 2 * n + 3 * (c ^ 1) * n;
    for (int k = 0; k < snap_level_half(j); k++)
      snap_dedr_level_elem(t, &g, j, k, prev, dprev, cur, dcur, yr, yi, 1, acc);
    if (j & 1)
      for (int ma = 0; ma <= j; ma++) snap_level_mirror(j, ma, cur, dcur);
  }
}

/* dE_i/dr_j of pair (i, jj) as --deidrj split computes it: every diagonal
 * and component alone through one row (row: 2 x (twojmax+1)), summed;
 * skip: a diagonal left out (-1: none), the planted fault. */
static void path_dedr(const snap_data *d, int i, int jj, const double *yr, const double *yi, snap_c *row, int skip,
                      double acc[3]) {
  const snap_tables *t = &d->t;
  const snap_dck g = snap_dck_of(d, d->rij + ((long)i * d->nmax + jj) * 3);
  for (int k = 0; k < 3; k++) {
    const snap_dck1 g1 = snap_dck_dim(&g, k);
    acc[k] = 0.0;
    for (int bend = 0; bend <= t->twojmax; bend++)
      if (bend != skip) acc[k] += snap_dedr_path(t, &g1, bend, row, row + t->twojmax + 1, 1, yr, yi, 1);
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: testsnap_selftest COEFF PARAM [--plant|--plant-level|--plant-split]\n");
    return 2;
  }
  const int plant = argc > 3 && !strcmp(argv[3], "--plant");
  const int plant_level = argc > 3 && !strcmp(argv[3], "--plant-level");
  const int plant_split = argc > 3 && !strcmp(argv[3], "--plant-split");
  snap_potential *p = snap_read_potential(argv[1], argv[2]);
  snap_host_tables h;
  snap_atoms a;
  snap_neigh nl;
  if (snap_bcc(3, 3, 3, 3.1803, 0.2, 7, &a) || /* 54 atoms, neighbour counts vary */
      snap_tables_build(p->twojmax, p->beta, &h) || snap_neigh_build(&a, p->rcut, &nl))
    return 3;
  double *eb = malloc(sizeof(double) * (size_t)a.n), *f = malloc(sizeof(double) * 3 * (size_t)a.n);
  snap_data d;
  ts_data_fill(&d, p, &h, &nl, eb, f);
  if (ts_host_eval(&d, 0)) return 3;
  const int nu = h.t.idxu_max;
  snap_c *u = malloc(sizeof(snap_c) * (size_t)nu);
  double *ur = malloc(sizeof(double) * (size_t)nu), *ui = malloc(sizeof(double) * (size_t)nu);
  double *yr = malloc(sizeof(double) * (size_t)nu), *yi = malloc(sizeof(double) * (size_t)nu);
  double *lr = malloc(sizeof(double) * (size_t)nu), *li = malloc(sizeof(double) * (size_t)nu);
  snap_c *lvl = malloc(sizeof(snap_c) * 8 * (size_t)snap_level_elems(p->twojmax));
  snap_c *du = malloc(sizeof(snap_c) * 4 * (size_t)nu);
  snap_c *row = malloc(sizeof(snap_c) * 2 * (size_t)(p->twojmax + 1));
  double worst = 0.0, worst_u = 0.0, worst_f = 0.0, worst_p = 0.0;
  int nmin = nl.nmax;
  for (int i = 0; i < a.n; i++) {
    snap_atom_ui(&d, i, ur, ui, 1, u);
    snap_atom_yi(&d, ur, ui, yr, yi, 1);
    double ey = snap_atom_energy_y(&d, ur, ui, yr, yi, 1);
    if (plant && i == 0) ey += 1e-6;
    const double err = fabs(ey - eb[i]);
    if (!(err <= worst)) worst = err;
    if (nl.nneigh[i] < nmin) nmin = nl.nneigh[i];
    level_ui(&d, i, lr, li, lvl);
    for (int e = 0; e < nu; e++) {
      const double eu = fabs(lr[e] - ur[e]) + fabs(li[e] - ui[e]);
      if (!(eu <= worst_u)) worst_u = eu;
    }
    for (int jj = 0; jj < nl.nneigh[i]; jj++) {
      double a0[3], a1[3], a2[3];
      snap_pair_dedr(&d, i, jj, yr, yi, 1, du, du + nu, a0);
      level_dedr(&d, i, jj, yr, yi, lvl, a1);
      path_dedr(&d, i, jj, yr, yi, row, plant_split && i == 0 && jj == 0 ? p->twojmax / 2 : -1, a2);
      if (plant_level && i == 0 && jj == 0) a1[1] += 1e-6;
      for (int k = 0; k < 3; k++) {
        if (!(fabs(a1[k] - a0[k]) <= worst_f)) worst_f = fabs(a1[k] - a0[k]);
        if (!(fabs(a2[k] - a0[k]) <= worst_p)) worst_p = fabs(a2[k] - a0[k]);
      }
    }
  }
  const int ok = worst <= TOL;
  printf("energy through Y vs through B: %d atoms (%d to %d neighbours), twojmax %d: max |dE_i| = %.3g eV "
         "(tolerance %.0e): %s\n", a.n, nmin, nl.nmax, p->twojmax, worst, TOL, ok ? "PASS" : "FAIL");
  const int ok_level = worst_u <= TOL_LEVEL && worst_f <= TOL_LEVEL;
  printf("level-by-level forms vs whole-neighbour forms: max |dU_i| = %.3g, max |d(dE_i/dr_j)| = %.3g eV/A "
         "(tolerance %.0e): %s\n", worst_u, worst_f, TOL_LEVEL, ok_level ? "PASS" : "FAIL");
  const int ok_split = worst_p <= TOL_LEVEL;
  printf("path forms (--deidrj split) vs whole-neighbour forms: max |d(dE_i/dr_j)| = %.3g eV/A (tolerance %.0e): "
         "%s\n", worst_p, TOL_LEVEL, ok_split ? "PASS" : "FAIL");
  return ok && ok_level && ok_split ? 0 : 1;
}
