/* testsnap's per-item math, written once for every model (PP_HD: host,
 * OpenMP offload, CUDA/HIP device code): the Cayley-Klein map and the
 * switching function, one step of the U and dU recursions, Z, Y and B
 * elements, the force gather; the whole-atom forms the host model runs and
 * the level-by-level forms of the device models (lanes share one neighbour;
 * checked against the whole-atom ones by testsnap_selftest). */
#ifndef SNAP_MATH_H
#define SNAP_MATH_H
#include <math.h>
#include "snap_kernels.h"
PP_EXTERN_C_BEGIN

#define SNAP_PI 3.14159265358979323846

PP_BEGIN_DEVICE

typedef struct snap_c { double r, i; } snap_c;
/* Cayley-Klein parameters (a, b) of one neighbour and its switching weight. */
typedef struct snap_ck { double ar, ai, br, bi, sfac; } snap_ck;
/* The same with their gradients in r_ij and the switching derivative. */
typedef struct snap_dck {
  snap_ck c;
  double dar[3], dai[3], dbr[3], dbi[3];
  double dsfac_u[3];       /* d(sfac w_j)/dr * r_hat */
} snap_dck;

/* First element of level j in a full U array: sum_{k<j} (k+1)^2. */
PP_HD static inline int snap_ublock(int j) { return j * (j + 1) * (2 * j + 1) / 6; }
/* Element (j, ma, mb) of a full U/Y array. */
PP_HD static inline int snap_uidx(int j, int ma, int mb) { return snap_ublock(j) + mb * (j + 1) + ma; }

/* Switching function (LAMMPS switchflag 1: cosine from rmin0 to rcut). */
PP_HD static inline double snap_sfac(const snap_data *d, double r) {
  if (!d->switchflag || r <= d->rmin0) return 1.0;
  if (r > d->rcut) return 0.0;
  return 0.5 * (cos((r - d->rmin0) * SNAP_PI / (d->rcut - d->rmin0)) + 1.0);
}
PP_HD static inline double snap_dsfac(const snap_data *d, double r) {
  if (!d->switchflag || r <= d->rmin0 || r > d->rcut) return 0.0;
  const double f = SNAP_PI / (d->rcut - d->rmin0);
  return -0.5 * sin((r - d->rmin0) * f) * f;
}

/* Maps r_ij onto the 3-sphere: theta0 = (r - rmin0) rfac0 pi / (rcut - rmin0),
 * z0 = r cot(theta0), (a, b) = (z0 - i z, y - i x) / |(x, y, z, z0)|. */
PP_HD static inline snap_ck snap_ck_of(const snap_data *d, const double *rij) {
  const double x = rij[0], y = rij[1], z = rij[2];
  const double r = sqrt(x * x + y * y + z * z);
  const double theta0 = (r - d->rmin0) * d->rfac0 * SNAP_PI / (d->rcut - d->rmin0);
  const double z0 = r / tan(theta0);
  const double r0inv = 1.0 / sqrt(r * r + z0 * z0);
  snap_ck c = {r0inv * z0, -r0inv * z, r0inv * y, -r0inv * x, snap_sfac(d, r) * d->wj};
  return c;
}

/* The same and its gradients (chain rule through r, z0 and 1/|r0|). */
PP_HD static inline snap_dck snap_dck_of(const snap_data *d, const double *rij) {
  const double x = rij[0], y = rij[1], z = rij[2];
  const double rsq = x * x + y * y + z * z, r = sqrt(rsq);
  const double rscale0 = d->rfac0 * SNAP_PI / (d->rcut - d->rmin0);
  const double theta0 = (r - d->rmin0) * rscale0;
  const double z0 = r * cos(theta0) / sin(theta0);
  const double dz0dr = z0 / r - (r * rscale0) * (rsq + z0 * z0) / rsq;
  const double r0inv = 1.0 / sqrt(rsq + z0 * z0);
  const double dr0invdr = -r0inv * r0inv * r0inv * (r + z0 * dz0dr);
  const double u[3] = {x / r, y / r, z / r};
  const double dsfac = snap_dsfac(d, r) * d->wj;
  snap_dck g;
  g.c.ar = z0 * r0inv, g.c.ai = -z * r0inv, g.c.br = y * r0inv, g.c.bi = -x * r0inv;
  g.c.sfac = snap_sfac(d, r) * d->wj;
  for (int k = 0; k < 3; k++) {
    const double dr0inv = dr0invdr * u[k];
    g.dar[k] = dz0dr * u[k] * r0inv + z0 * dr0inv;
    g.dai[k] = -z * dr0inv;
    g.dbr[k] = y * dr0inv;
    g.dbi[k] = -x * dr0inv;
    g.dsfac_u[k] = dsfac * u[k];
  }
  g.dai[2] -= r0inv;
  g.dbi[0] -= r0inv;
  g.dbr[1] += r0inv;
  return g;
}

/* One U recursion step (VMK 4.8.2), for 2 mb <= j:
 *   U(j; ma, mb) = [ma < j] sqrt((j-ma)/(j-mb)) conj(a) U(j-1; ma, mb)
 *                - [ma > 0] sqrt(ma/(j-mb))     conj(b) U(j-1; ma-1, mb)
 * ua = U(j-1; ma, mb) (unused when ma == j), ub = U(j-1; ma-1, mb) (unused
 * when ma == 0). */
PP_HD static inline snap_c snap_u_step(const snap_tables *t, const snap_ck *c, int j, int ma, int mb,
                                       snap_c ua, snap_c ub) {
  const int jd = t->twojmax + 2;
  snap_c u = {0.0, 0.0};
  if (ma > 0) {
    const double rp = t->rootpq[ma * jd + (j - mb)];
    u.r = -rp * (c->br * ub.r + c->bi * ub.i);
    u.i = -rp * (c->br * ub.i - c->bi * ub.r);
  }
  if (ma < j) {
    const double rp = t->rootpq[(j - ma) * jd + (j - mb)];
    u.r += rp * (c->ar * ua.r + c->ai * ua.i);
    u.i += rp * (c->ar * ua.i - c->ai * ua.r);
  }
  return u;
}

/* One dU step: the same recursion differentiated (product rule); u* are the
 * values, d*[k] their gradient components. Returns U, writes dU[3]. */
PP_HD static inline snap_c snap_du_step(const snap_tables *t, const snap_dck *g, int j, int ma, int mb,
                                        snap_c ua, const snap_c dua[3], snap_c ub, const snap_c dub[3],
                                        snap_c du[3]) {
  const int jd = t->twojmax + 2;
  const snap_ck *c = &g->c;
  snap_c u = {0.0, 0.0};
  for (int k = 0; k < 3; k++) du[k].r = du[k].i = 0.0;
  if (ma > 0) {
    const double rp = t->rootpq[ma * jd + (j - mb)];
    u.r = -rp * (c->br * ub.r + c->bi * ub.i);
    u.i = -rp * (c->br * ub.i - c->bi * ub.r);
    for (int k = 0; k < 3; k++) {
      du[k].r = -rp * (g->dbr[k] * ub.r + g->dbi[k] * ub.i + c->br * dub[k].r + c->bi * dub[k].i);
      du[k].i = -rp * (g->dbr[k] * ub.i - g->dbi[k] * ub.r + c->br * dub[k].i - c->bi * dub[k].r);
    }
  }
  if (ma < j) {
    const double rp = t->rootpq[(j - ma) * jd + (j - mb)];
    u.r += rp * (c->ar * ua.r + c->ai * ua.i);
    u.i += rp * (c->ar * ua.i - c->ai * ua.r);
    for (int k = 0; k < 3; k++) {
      du[k].r += rp * (g->dar[k] * ua.r + g->dai[k] * ua.i + c->ar * dua[k].r + c->ai * dua[k].i);
      du[k].i += rp * (g->dar[k] * ua.i - g->dai[k] * ua.r + c->ar * dua[k].i - c->ai * dua[k].r);
    }
  }
  return u;
}

/* Inversion symmetry (VMK 4.4(2)): U(j; ma, mb) = (-1)^(ma+mb) conj(U(j; j-ma, j-mb)).
 * Given the source value s = U(j; j-ma, j-mb), the element (ma, mb). */
PP_HD static inline snap_c snap_u_mirror(int ma, int mb, snap_c s) {
  snap_c u;
  if ((ma + mb) & 1) u.r = -s.r, u.i = s.i;
  else u.r = s.r, u.i = -s.i;
  return u;
}

/* U of one neighbour, every level, into u[idxu_max] (full layout): the
 * recursion for 2 mb <= j, the rest mirrored. */
PP_HD static inline void snap_u_all(const snap_tables *t, const snap_ck *c, snap_c *u) {
  const snap_c zero = {0.0, 0.0};
  u[0].r = 1.0, u[0].i = 0.0;
  for (int j = 1; j <= t->twojmax; j++) {
    for (int mb = 0; 2 * mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) {
        const snap_c ua = ma < j ? u[snap_uidx(j - 1, ma, mb)] : zero;
        const snap_c ub = ma > 0 ? u[snap_uidx(j - 1, ma - 1, mb)] : zero;
        u[snap_uidx(j, ma, mb)] = snap_u_step(t, c, j, ma, mb, ua, ub);
      }
    for (int mb = j / 2 + 1; mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) u[snap_uidx(j, ma, mb)] = snap_u_mirror(ma, mb, u[snap_uidx(j, j - ma, j - mb)]);
  }
}

/* The gradient of the scaled neighbour term sfac w U: dsfac r_hat U + sfac dU. */
PP_HD static inline void snap_du_scale(const snap_dck *g, snap_c u, const snap_c du[3], snap_c out[3]) {
  for (int k = 0; k < 3; k++) {
    out[k].r = g->dsfac_u[k] * u.r + g->c.sfac * du[k].r;
    out[k].i = g->dsfac_u[k] * u.i + g->c.sfac * du[k].i;
  }
}

/* Weight of element (j, ma, mb) in the half sums (0 for the mirrored half). */
PP_HD static inline double snap_half_weight(int j, int ma, int mb) {
  if (2 * mb < j) return 1.0;
  if (2 * mb > j || ma > mb) return 0.0;
  return ma == mb ? 0.5 : 1.0;
}

/* One Z element: the Clebsch-Gordan coupling of U blocks j1 and j2 into
 * (j, ma, mb). Element e of U is (ur[e*s], ui[e*s]) (s: the layout's stride,
 * 1 on the host, SNAP_TILE on GPUs: a constant once inlined, so the unrolled
 * loop's addresses become immediate offsets; its index arithmetic otherwise
 * costs as much as its loads and FMAs). */
PP_HD static inline snap_c snap_z_elem(const snap_tables *t, int jjz, const double *ur, const double *ui,
                                       long s) {
  const snap_zidx z = t->idxz[jjz];
  const double *cgb = t->cg + z.cg;
  const int st = (int)s;
  snap_c zt = {0.0, 0.0};
  int o1 = (snap_ublock(z.j1) + (z.j1 + 1) * z.mb1min + z.ma1min) * st;
  int o2 = (snap_ublock(z.j2) + (z.j2 + 1) * z.mb2max + z.ma2max) * st;
  int icgb = z.mb1min * (z.j2 + 1) + z.mb2max;
  const int icga0 = z.ma1min * (z.j2 + 1) + z.ma2max;
  for (int ib = 0; ib < z.nb; ib++) {
    double sr = 0.0, si = 0.0;
    int a = o1, b = o2, icga = icga0;
    for (int ia = 0; ia < z.na; ia++) {
      const double u1r = ur[a], u1i = ui[a], u2r = ur[b], u2i = ui[b], cg = cgb[icga];
      sr += cg * (u1r * u2r - u1i * u2i);
      si += cg * (u1r * u2i + u1i * u2r);
      a += st, b -= st, icga += z.j2;
    }
    zt.r += cgb[icgb] * sr;
    zt.i += cgb[icgb] * si;
    o1 += (z.j1 + 1) * st, o2 -= (z.j2 + 1) * st, icgb += z.j2;
  }
  return zt;
}

/* Z elements (j, ma, mb) and (j, ma+1, mb) of one block at once, the two
 * added into y0, y1 with the block's beta factor. Z(ma) sums
 * cg U1(ma1) U2(c-ma1) over ma1 in [max(0, c-j2), min(j1, c)], Z(ma+1) the
 * same with c+1; so each U1 element is loaded once for both, and the U2
 * element Z(ma) reads at one step is the one Z(ma+1) reads at the next:
 * 2 U loads per 2 products instead of 4. */
PP_HD static inline void snap_z_pair(const snap_tables *t, int jjz, const double *ur, const double *ui, long s,
                                     snap_c *y0, snap_c *y1) {
  const snap_zidx z = t->idxz[jjz];
  const double *cgb = t->cg + z.cg;
  const int st = (int)s, j2 = z.j2;
  const int c = z.ma1min + z.ma2max;                    /* ma1 + ma2 of Z(ma) */
  const int lo0 = z.ma1min, hi0 = z.ma1min + z.na - 1;  /* Z(ma)'s ma1 range */
  const int lo1 = c + 1 - j2 > 0 ? c + 1 - j2 : 0;      /* Z(ma+1)'s */
  const int hi1 = c + 1 < z.j1 ? c + 1 : z.j1;
  int o1 = (snap_ublock(z.j1) + (z.j1 + 1) * z.mb1min) * st;
  int o2 = (snap_ublock(j2) + (j2 + 1) * z.mb2max) * st;
  int icgb = z.mb1min * (j2 + 1) + z.mb2max;
  double r0 = 0.0, i0 = 0.0, r1 = 0.0, i1 = 0.0;
  for (int ib = 0; ib < z.nb; ib++) {
    double s0r = 0.0, s0i = 0.0, s1r = 0.0, s1i = 0.0, pr, pi;
    int ma1 = lo0;
    if (lo0 < lo1) { /* Z(ma) alone at its first ma1 */
      const int a = o1 + ma1 * st, b = o2 + (c - ma1) * st;
      const double cg = cgb[ma1 * j2 + c];
      s0r = cg * (ur[a] * ur[b] - ui[a] * ui[b]);
      s0i = cg * (ur[a] * ui[b] + ui[a] * ur[b]);
      pr = ur[b], pi = ui[b];
      ma1++;
    } else {
      pr = ur[o2 + (c + 1 - ma1) * st], pi = ui[o2 + (c + 1 - ma1) * st];
    }
    int a = o1 + ma1 * st, b = o2 + (c - ma1) * st, icg = ma1 * j2 + c;
    for (; ma1 <= hi0; ma1++) { /* both: U1(ma1) with U2(c-ma1) and U2(c+1-ma1) */
      const double u1r = ur[a], u1i = ui[a], u2r = ur[b], u2i = ui[b];
      const double cg0 = cgb[icg], cg1 = cgb[icg + 1];
      s0r += cg0 * (u1r * u2r - u1i * u2i);
      s0i += cg0 * (u1r * u2i + u1i * u2r);
      s1r += cg1 * (u1r * pr - u1i * pi);
      s1i += cg1 * (u1r * pi + u1i * pr);
      pr = u2r, pi = u2i;
      a += st, b -= st, icg += j2;
    }
    if (hi1 > hi0) { /* Z(ma+1) alone at its last ma1 */
      const double u1r = ur[a], u1i = ui[a], cg1 = cgb[icg + 1];
      s1r += cg1 * (u1r * pr - u1i * pi);
      s1i += cg1 * (u1r * pi + u1i * pr);
    }
    r0 += cgb[icgb] * s0r, i0 += cgb[icgb] * s0i;
    r1 += cgb[icgb] * s1r, i1 += cgb[icgb] * s1i;
    o1 += (z.j1 + 1) * st, o2 -= (j2 + 1) * st, icgb += j2;
  }
  const double b0 = t->zbeta[jjz], b1 = t->zbeta[jjz + 1];
  y0->r += b0 * r0, y0->i += b0 * i0;
  y1->r += b1 * r1, y1->i += b1 * i1;
}

/* Y elements (j, ma, mb) and (j, ma+1, mb) (ma+1 <= j) together. */
PP_HD static inline void snap_y_pair(const snap_tables *t, int j, int ma, int mb, const double *ur, const double *ui,
                                     long s, snap_c *y0, snap_c *y1) {
  y0->r = y0->i = y1->r = y1->i = 0.0;
  const int off = mb * (j + 1) + ma;
  for (int b = t->yblk_start[j]; b < t->yblk_start[j + 1]; b++) snap_z_pair(t, t->yblk[b] + off, ur, ui, s, y0, y1);
}

/* One bispectrum component B(j1, j2, j) = 2 sum_half U(j) : conj(Z(j1, j2, j))
 * (LAMMPS's compute_bi, before the bzero shift), Z computed here. */
PP_HD static inline double snap_b_elem(const snap_tables *t, int jjb, const double *ur, const double *ui,
                                       long s) {
  const snap_bidx b = t->idxb[jjb];
  double sum = 0.0;
  int jjz = b.jjz;
  for (int mb = 0; 2 * mb <= b.j; mb++)
    for (int ma = 0; ma <= b.j; ma++, jjz++) {
      const double w = snap_half_weight(b.j, ma, mb);
      if (w == 0.0) continue;
      const snap_c z = snap_z_elem(t, jjz, ur, ui, s);
      const int e = snap_uidx(b.j, ma, mb);
      sum += w * (ur[e * s] * z.r + ui[e * s] * z.i);
    }
  return 2.0 * sum;
}

/* Term of element (j, ma, mb) in dE_i/dr_j: 2 w Re(dU[k] conj(Y)), k = 0..2. */
PP_HD static inline void snap_dedr_term(int j, int ma, int mb, const snap_c du[3], snap_c y, double acc[3]) {
  const double w = 2.0 * snap_half_weight(j, ma, mb);
  for (int k = 0; k < 3; k++) acc[k] += w * (du[k].r * y.r + du[k].i * y.i);
}

/* Term of element (j, ma, mb) in E_i - e0: (2/3) w Re(U conj(Y)). */
PP_HD static inline double snap_energy_term(int j, int ma, int mb, snap_c u, snap_c y) {
  return (2.0 / 3.0) * snap_half_weight(j, ma, mb) * (u.r * y.r + u.i * y.i);
}

/* Force on atom a from the pair derivatives dedr[p*3 + k] (p = i*nmax + jj):
 * + its own pairs' dE_a/dr_j, - every dE_i/dr_a of the pairs whose neighbour
 * is a. A fixed order: the same sum every run, no atomics needed. */
PP_HD static inline void snap_force_gather(const snap_data *d, const double *dedr, int a, double f[3]) {
  f[0] = f[1] = f[2] = 0.0;
  if (a < d->natoms)
    for (int jj = 0; jj < d->nneigh[a]; jj++)
      for (int k = 0; k < 3; k++) f[k] += dedr[((long)a * d->nmax + jj) * 3 + k];
  for (int q = d->rev_start[a]; q < d->rev_start[a + 1]; q++)
    for (int k = 0; k < 3; k++) f[k] -= dedr[(long)d->rev_pair[q] * 3 + k];
}

/* ---- level-by-level forms (device models: lanes share one neighbour) -------------- */
/* (j, ma, mb) of element e of a full U/Y array. */
typedef struct snap_jm { int j, ma, mb; } snap_jm;
PP_HD static inline snap_jm snap_uidx_split(int e) {
  snap_jm r = {0, 0, 0};
  while (snap_ublock(r.j + 1) <= e) r.j++;
  const int k = e - snap_ublock(r.j);
  r.mb = k / (r.j + 1), r.ma = k % (r.j + 1);
  return r;
}

/* A level buffer holds the rows of level j that level j+1 reads: its computed
 * half (mb <= j/2, element k = mb*(j+1) + ma) and, for odd j, the mirrored
 * row (j+1)/2. Two buffers (levels j-1 and j) make the whole recursion. */
PP_HD static inline int snap_level_elems(int twojmax) { return (twojmax / 2 + 1) * (twojmax + 1); }
/* Elements k of level j that the recursion computes (rows mb <= j/2). */
PP_HD static inline int snap_level_half(int j) { return (j / 2 + 1) * (j + 1); }

/* Y element (j, ma, mb), 2 mb <= j: the beta-weighted sum of every Z
 * element that pairs with it (blocks in (j1, j2) order, the order of
 * LAMMPS's jjz loop). One writer per element: no atomics, no zeroing. */
PP_HD static inline snap_c snap_y_elem(const snap_tables *t, int j, int ma, int mb, const double *ur,
                                       const double *ui, long s) {
  snap_c y = {0.0, 0.0};
  const int off = mb * (j + 1) + ma;
  for (int b = t->yblk_start[j]; b < t->yblk_start[j + 1]; b++) {
    const int jjz = t->yblk[b] + off;
    const snap_c z = snap_z_elem(t, jjz, ur, ui, s);
    y.r += t->zbeta[jjz] * z.r;
    y.i += t->zbeta[jjz] * z.i;
  }
  return y;
}

/* The Y elements of level j that are ever read (nonzero half weight: rows
 * 2 mb < j, and for even j the middle row up to ma = mb), in items of two
 * neighbours along ma (ma even; a row of odd length ends with a single):
 * (j + 2) / 2 items per full row. */
PP_HD static inline int snap_level_yitems(int j) {
  return (j + 1) / 2 * ((j + 2) / 2) + (j % 2 ? 0 : (j / 2 + 2) / 2);
}
/* (j, ma, mb) of the h-th item, and whether (j, ma+1, mb) belongs to it. */
PP_HD static inline snap_jm snap_yitem_split(int h, int *two) {
  snap_jm r = {0, 0, 0};
  while (h >= snap_level_yitems(r.j)) h -= snap_level_yitems(r.j), r.j++;
  const int per = (r.j + 2) / 2, full = (r.j + 1) / 2;
  if (h < full * per) {
    r.mb = h / per, r.ma = 2 * (h % per);
    *two = r.ma + 1 <= r.j;
  } else {
    r.mb = r.j / 2, r.ma = 2 * (h - full * per);
    *two = r.ma + 1 <= r.mb;
  }
  return r;
}

/* Element k of level j of one neighbour's U, from level j-1 (prev) into cur. */
PP_HD static inline snap_c snap_u_level_elem(const snap_tables *t, const snap_ck *c, int j, int k, const snap_c *prev,
                                             snap_c *cur) {
  const snap_c zero = {0.0, 0.0}, one = {1.0, 0.0};
  if (j == 0) return cur[0] = one;
  const int mb = k / (j + 1), ma = k % (j + 1);
  const snap_c ua = ma < j ? prev[mb * j + ma] : zero;
  const snap_c ub = ma > 0 ? prev[mb * j + ma - 1] : zero;
  return cur[k] = snap_u_step(t, c, j, ma, mb, ua, ub);
}

/* For odd j, element ma of the mirrored row (j+1)/2 of level j (and of its
 * gradient when dcur is not NULL; gradients are dcur[3*k + dim]). */
PP_HD static inline void snap_level_mirror(int j, int ma, snap_c *cur, snap_c *dcur) {
  const int mb = (j + 1) / 2, k = mb * (j + 1) + ma, src = (j - mb) * (j + 1) + (j - ma);
  cur[k] = snap_u_mirror(ma, mb, cur[src]);
  if (dcur)
    for (int q = 0; q < 3; q++) dcur[3 * k + q] = snap_u_mirror(ma, mb, dcur[3 * src + q]);
}

/* Element k of level j of one neighbour's U and dU (level j-1 in prev, dprev),
 * and its term in dE_i/dr_j (Y_i element e at (yr, yi)[e*s]) added to acc. */
PP_HD static inline void snap_dedr_level_elem(const snap_tables *t, const snap_dck *g, int j, int k,
                                              const snap_c *prev, const snap_c *dprev, snap_c *cur, snap_c *dcur,
                                              const double *yr, const double *yi, long s, double acc[3]) {
  const snap_c zero = {0.0, 0.0};
  const int mb = j ? k / (j + 1) : 0, ma = j ? k % (j + 1) : 0;
  snap_c u, *du = dcur + 3 * k;
  if (j == 0) {
    u.r = 1.0, u.i = 0.0;
    du[0] = du[1] = du[2] = zero;
  } else {
    /* A source outside level j-1 (ma == j, or ma == 0) is not read by
     * snap_du_step; element 0 stands in, so no pointer to a local is formed. */
    const int ea = ma < j ? mb * j + ma : 0, eb = ma > 0 ? mb * j + ma - 1 : 0;
    u = snap_du_step(t, g, j, ma, mb, prev[ea], dprev + 3 * ea, prev[eb], dprev + 3 * eb, du);
  }
  cur[k] = u;
  if (snap_half_weight(j, ma, mb) == 0.0) return;
  snap_c dus[3];
  snap_du_scale(g, u, du, dus);
  const long e = (long)snap_uidx(j, ma, mb) * s;
  const snap_c y = {yr[e], yi[e]};
  snap_dedr_term(j, ma, mb, dus, y, acc);
}

/* ---- path forms (--deidrj split: one thread per pair, direction and path) ---------- */
/* The half rows (j, mb), 2 mb <= j, fall on the diagonals j - mb = bend,
 * bend = 0..twojmax; diagonal `bend` holds the rows (bend + m, m) for
 * m = 0..min(bend, twojmax - bend). One thread walks one diagonal for one
 * gradient component, keeping a single row of U and of that component of
 * dU: row 0 of levels 1..bend by the ma recursion (snap_u_step with mb = 0),
 * then down the diagonal by the mb recursion
 *   U(j; ma, mb) = sqrt((j-ma)/mb) b U(j-1; ma, mb-1) + sqrt(ma/mb) a U(j-1; ma-1, mb-1),
 * each row contracted with Y_i on the way. Rows are updated in place (row
 * element ma at u[ma*rs], du[ma*rs]; rs: the stride between a thread's
 * elements, e.g. the threads of a team interleaved). */
/* A neighbour's Cayley-Klein parameters with one component of their
 * gradients (scalars only: no array indexed at run time is left for a
 * device compiler to put in local memory). */
typedef struct snap_dck1 {
  double ar, ai, br, bi, dar, dai, dbr, dbi;
  double sfac, dsf;        /* sfac w and d(sfac w)/dr * r_hat[dim] */
} snap_dck1;
PP_HD static inline snap_dck1 snap_dck_dim(const snap_dck *g, int dim) {
  snap_dck1 o = {g->c.ar, g->c.ai, g->c.br, g->c.bi, g->dar[dim], g->dai[dim], g->dbr[dim], g->dbi[dim],
                 g->c.sfac, g->dsfac_u[dim]};
  return o;
}

/* One in-place step of a row: row (j-1) of length j -> row j of length j+1.
 * Element ma of the new row is  ca(ma) x(old ma) + cb(ma) y(old ma-1) with
 * x, y = conj(a), -conj(b) (mb == 0: along the top row, q = j) or b, a
 * (mb > 0: down the diagonal, q = mb); ca, cb = sqrt((j-ma)/q), sqrt(ma/q).
 * When yr != NULL, the old row (level j-1, row mb-1) is contracted with Y_i
 * into *acc. */
PP_HD static inline void snap_path_step(const snap_tables *t, const snap_dck1 *g, int j, int mb, snap_c *u,
                                        snap_c *du, long rs, const double *yr, const double *yi, long s,
                                        double *acc) {
  const int jd = t->twojmax + 2, q = mb ? mb : j;
  /* x, v (the y above) and their gradients, as (re, im) */
  const double xr = mb ? g->br : g->ar, xi = mb ? g->bi : -g->ai;
  const double vr = mb ? g->ar : -g->br, vi = mb ? g->ai : g->bi;
  const double dxr = mb ? g->dbr : g->dar, dxi = mb ? g->dbi : -g->dai;
  const double dvr = mb ? g->dar : -g->dbr, dvi = mb ? g->dai : g->dbi;
  const double sfac = g->sfac, dsf = g->dsf;
  const int prow = mb ? mb - 1 : 0, plev = j - 1; /* the old row's (level, mb) */
  const long ybase = (long)snap_uidx(plev, 0, prow) * s;
  snap_c carry = {0.0, 0.0}, dcarry = {0.0, 0.0};
  double sum = 0.0;
  for (int ma = 0; ma < j; ma++) {
    const snap_c o = u[ma * rs], d = du[ma * rs];
    if (yr) { /* term of the old element (plev, ma, prow): 2 w Re(d(sfac U) conj(Y)) */
      const double w = snap_half_weight(plev, ma, prow);
      const long e = ybase + (long)ma * s;
      sum += w * ((dsf * o.r + sfac * d.r) * yr[e] + (dsf * o.i + sfac * d.i) * yi[e]);
    }
    const double ca = t->rootpq[(j - ma) * jd + q], cb = t->rootpq[(ma + 1) * jd + q];
    /* new element ma: carry + ca x o; new carry (element ma+1): cb v o */
    u[ma * rs].r = carry.r + ca * (xr * o.r - xi * o.i);
    u[ma * rs].i = carry.i + ca * (xr * o.i + xi * o.r);
    du[ma * rs].r = dcarry.r + ca * (dxr * o.r - dxi * o.i + xr * d.r - xi * d.i);
    du[ma * rs].i = dcarry.i + ca * (dxr * o.i + dxi * o.r + xr * d.i + xi * d.r);
    carry.r = cb * (vr * o.r - vi * o.i);
    carry.i = cb * (vr * o.i + vi * o.r);
    dcarry.r = cb * (dvr * o.r - dvi * o.i + vr * d.r - vi * d.i);
    dcarry.i = cb * (dvr * o.i + dvi * o.r + vr * d.i + vi * d.r);
  }
  u[j * rs] = carry, du[j * rs] = dcarry;
  if (yr) *acc += 2.0 * sum;
}

/* The last row (level j, row mb) contracted with Y_i into *acc. */
PP_HD static inline void snap_path_row_term(const snap_dck1 *g, int j, int mb, const snap_c *u, const snap_c *du,
                                            long rs, const double *yr, const double *yi, long s, double *acc) {
  const long ybase = (long)snap_uidx(j, 0, mb) * s;
  double sum = 0.0;
  for (int ma = 0; ma <= j; ma++) {
    const snap_c o = u[ma * rs], d = du[ma * rs];
    const long e = ybase + (long)ma * s;
    sum += snap_half_weight(j, ma, mb) *
           ((g->dsf * o.r + g->sfac * d.r) * yr[e] + (g->dsf * o.i + g->sfac * d.i) * yi[e]);
  }
  *acc += 2.0 * sum;
}

/* Diagonal `bend`'s part of one component of dE_i/dr_j (g: snap_dck_dim of
 * that component; Y_i element e at (yr, yi)[e*s]); u, du: a row of
 * twojmax+1 elements, stride rs. The sum over bend = 0..twojmax is that
 * component of snap_pair_dedr's result. */
PP_HD static inline double snap_dedr_path(const snap_tables *t, const snap_dck1 *g, int bend, snap_c *u, snap_c *du,
                                          long rs, const double *yr, const double *yi, long s) {
  const snap_c one = {1.0, 0.0}, zero = {0.0, 0.0};
  u[0] = one, du[0] = zero;
  for (int j = 1; j <= bend; j++) snap_path_step(t, g, j, 0, u, du, rs, NULL, NULL, s, NULL);
  const int last = 2 * bend < t->twojmax ? 2 * bend : t->twojmax;
  double acc = 0.0;
  for (int j = bend + 1; j <= last; j++) snap_path_step(t, g, j, j - bend, u, du, rs, yr, yi, s, &acc);
  snap_path_row_term(g, last, last - bend, u, du, rs, yr, yi, s, &acc);
  return acc;
}

/* ---- whole-atom and whole-pair forms (host model, simple device forms) --------------- */
/* U_i of atom i, every element, into (ur, ui)[e*s]; u: scratch [idxu_max]. */
PP_HD static inline void snap_atom_ui(const snap_data *d, int i, double *ur, double *ui, long s, snap_c *u) {
  const snap_tables *t = &d->t;
  for (int e = 0; e < t->idxu_max; e++) ur[e * s] = ui[e * s] = 0.0;
  for (int j = 0; j <= t->twojmax; j++)
    for (int ma = 0; ma <= j; ma++) ur[snap_uidx(j, ma, ma) * s] = d->wself;
  for (int jj = 0; jj < d->nneigh[i]; jj++) {
    const snap_ck c = snap_ck_of(d, d->rij + ((long)i * d->nmax + jj) * 3);
    snap_u_all(t, &c, u);
    for (int e = 0; e < t->idxu_max; e++) ur[e * s] += c.sfac * u[e].r, ui[e * s] += c.sfac * u[e].i;
  }
}

/* Y_i from U_i, element by element (the elements never read are left zero). */
PP_HD static inline void snap_atom_yi(const snap_data *d, const double *ur, const double *ui, double *yr, double *yi,
                                      long s) {
  const snap_tables *t = &d->t;
  for (int e = 0; e < t->idxu_max; e++) yr[e * s] = yi[e * s] = 0.0;
  for (int j = 0; j <= t->twojmax; j++)
    for (int mb = 0; 2 * mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) {
        if (snap_half_weight(j, ma, mb) == 0.0) continue;
        const snap_c y = snap_y_elem(t, j, ma, mb, ur, ui, s);
        const long e = snap_uidx(j, ma, mb) * s;
        yr[e] = y.r, yi[e] = y.i;
      }
}

/* dE_i/dr_j of pair (i, jj) from Y_i: the dU recursion of the neighbour
 * (scratch u[idxu_max], du[3*idxu_max]), then the weighted contraction. */
PP_HD static inline void snap_pair_dedr(const snap_data *d, int i, int jj, const double *yr, const double *yi, long s,
                                        snap_c *u, snap_c *du, double out[3]) {
  const snap_tables *t = &d->t;
  const snap_c zero = {0.0, 0.0};
  const snap_c zero3[3] = {{0.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}};
  const snap_dck g = snap_dck_of(d, d->rij + ((long)i * d->nmax + jj) * 3);
  u[0].r = 1.0, u[0].i = 0.0;
  du[0] = du[1] = du[2] = zero;
  for (int j = 1; j <= t->twojmax; j++) {
    for (int mb = 0; 2 * mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) {
        const int ea = ma < j ? snap_uidx(j - 1, ma, mb) : -1;
        const int eb = ma > 0 ? snap_uidx(j - 1, ma - 1, mb) : -1;
        const int e = snap_uidx(j, ma, mb);
        u[e] = snap_du_step(t, &g, j, ma, mb, ea >= 0 ? u[ea] : zero, ea >= 0 ? du + 3 * ea : zero3,
                            eb >= 0 ? u[eb] : zero, eb >= 0 ? du + 3 * eb : zero3, du + 3 * e);
      }
    for (int mb = j / 2 + 1; mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) {
        const int e = snap_uidx(j, ma, mb), src = snap_uidx(j, j - ma, j - mb);
        u[e] = snap_u_mirror(ma, mb, u[src]);
        for (int k = 0; k < 3; k++) du[3 * e + k] = snap_u_mirror(ma, mb, du[3 * src + k]);
      }
  }
  out[0] = out[1] = out[2] = 0.0;
  for (int j = 0; j <= t->twojmax; j++)
    for (int mb = 0; 2 * mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) {
        if (snap_half_weight(j, ma, mb) == 0.0) continue;
        const int e = snap_uidx(j, ma, mb);
        snap_c dus[3];
        snap_du_scale(&g, u[e], du + 3 * e, dus);
        const snap_c y = {yr[e * s], yi[e * s]};
        snap_dedr_term(j, ma, mb, dus, y, out);
      }
}

/* E_i through the bispectrum: e0 + sum_k beta_k B_k (LAMMPS's way). */
PP_HD static inline double snap_atom_energy_b(const snap_data *d, const double *ur, const double *ui, long s) {
  double e = d->e0;
  for (int k = 0; k < d->t.idxb_max; k++) e += d->t.beta[k] * snap_b_elem(&d->t, k, ur, ui, s);
  return e;
}

/* E_i through Y: e0 + (2/3) sum_half U_i : conj(Y_i) (cheap once Y_i exists). */
PP_HD static inline double snap_atom_energy_y(const snap_data *d, const double *ur, const double *ui,
                                              const double *yr, const double *yi, long s) {
  double e = 0.0;
  for (int j = 0; j <= d->t.twojmax; j++)
    for (int mb = 0; 2 * mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) {
        const long q = snap_uidx(j, ma, mb) * s;
        const snap_c u = {ur[q], ui[q]}, y = {yr[q], yi[q]};
        e += snap_energy_term(j, ma, mb, u, y);
      }
  return d->e0 + e;
}

PP_END_DEVICE

PP_EXTERN_C_END
#endif
