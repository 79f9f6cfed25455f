/* SNAP's index tables and Clebsch-Gordan coefficients, built once on the
 * host (the layouts of LAMMPS's ML-SNAP: U blocks (j+1)^2 per level, mb
 * major; Z and B in (j1 >= j2, j from j1-j2 in steps of 2) order). */
#include <math.h>
#include <stdlib.h>
#include "problem.h"
#include "snap_math.h"

#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

int snap_ncoeff(int twojmax) {
  int n = 0;
  for (int j1 = 0; j1 <= twojmax; j1++)
    for (int j2 = 0; j2 <= j1; j2++)
      for (int j = j1 - j2; j <= MIN(twojmax, j1 + j2); j += 2)
        if (j >= j1) n++;
  return n;
}

static double fact(int n) {
  double f = 1.0;
  for (int k = 2; k <= n; k++) f *= k;
  return f;
}

/* <j1 m1 j2 m2 | j m> by the quasi-binomial formula (VMK 8.2.1(3)); the
 * arguments are doubled: aa2 = 2 m1 - j1 etc. m is the index of j's m. */
static double clebsch_gordan(int j1, int j2, int j, int aa2, int bb2, int m) {
  const int cc2 = 2 * m - j;
  double sum = 0.0;
  const int zmin = MAX(0, MAX(-(j - j2 + aa2) / 2, -(j - j1 - bb2) / 2));
  const int zmax = MIN((j1 + j2 - j) / 2, MIN((j1 - aa2) / 2, (j2 + bb2) / 2));
  for (int z = zmin; z <= zmax; z++)
    sum += (z % 2 ? -1.0 : 1.0) /
           (fact(z) * fact((j1 + j2 - j) / 2 - z) * fact((j1 - aa2) / 2 - z) * fact((j2 + bb2) / 2 - z) *
            fact((j - j2 + aa2) / 2 + z) * fact((j - j1 - bb2) / 2 + z));
  const double delta = sqrt(fact((j1 + j2 - j) / 2) * fact((j1 - j2 + j) / 2) * fact((-j1 + j2 + j) / 2) /
                            fact((j1 + j2 + j) / 2 + 1));
  const double norm = sqrt(fact((j1 + aa2) / 2) * fact((j1 - aa2) / 2) * fact((j2 + bb2) / 2) *
                           fact((j2 - bb2) / 2) * fact((j + cc2) / 2) * fact((j - cc2) / 2) * (j + 1));
  return sum * delta * norm;
}

int snap_tables_build(int J, const double *beta, snap_host_tables *h) {
  const int jd = J + 1, jdpq = J + 2;
  int *cg_block = calloc((size_t)jd * jd * jd, sizeof(int));
  int *b_block = calloc((size_t)jd * jd * jd, sizeof(int));
  int *z_block = calloc((size_t)jd * jd * jd, sizeof(int));
#define BLK(a, j1, j2, j) a[((j1) * jd + (j2)) * jd + (j)]
  snap_tables *t = &h->t;
  t->twojmax = J;
  int ncg = 0, nb = 0, nz = 0;
  for (int j1 = 0; j1 <= J; j1++)
    for (int j2 = 0; j2 <= j1; j2++)
      for (int j = j1 - j2; j <= MIN(J, j1 + j2); j += 2) {
        BLK(cg_block, j1, j2, j) = ncg;
        ncg += (j1 + 1) * (j2 + 1);
        BLK(z_block, j1, j2, j) = nz;
        nz += (j / 2 + 1) * (j + 1);
        if (j >= j1) BLK(b_block, j1, j2, j) = nb++;
      }
  t->idxcg_max = ncg, t->idxz_max = nz, t->idxb_max = nb;
  t->idxu_max = snap_ublock(J + 1);
  t->idxu_half = 0;
  for (int j = 0; j <= J; j++) t->idxu_half += (j / 2 + 1) * (j + 1);
  t->idxy_items = 0;
  for (int j = 0; j <= J; j++) t->idxy_items += snap_level_yitems(j);
  h->cg = calloc((size_t)ncg, sizeof(double));
  h->rootpq = calloc((size_t)jdpq * jdpq, sizeof(double));
  h->zbeta = calloc((size_t)nz, sizeof(double));
  h->beta = calloc((size_t)nb, sizeof(double));
  h->idxz = calloc((size_t)nz, sizeof(snap_zidx));
  h->idxb = calloc((size_t)nb, sizeof(snap_bidx));
  h->yblk_start = calloc((size_t)J + 2, sizeof(int));
  h->yblk = calloc((size_t)jd * jd * jd, sizeof(int));
  if (!h->yblk_start || !h->yblk || !cg_block || !b_block || !z_block || !h->cg || !h->rootpq || !h->zbeta || !h->beta || !h->idxz || !h->idxb) {
    free(cg_block), free(b_block), free(z_block);
    snap_tables_free(h);
    return -1;
  }

  for (int k = 0; k < nb && beta; k++) h->beta[k] = beta[k];
  for (int p = 1; p < jdpq; p++)
    for (int q = 1; q < jdpq; q++) h->rootpq[p * jdpq + q] = sqrt((double)p / q);

  int icg = 0, ib = 0, iz = 0;
  for (int j1 = 0; j1 <= J; j1++)
    for (int j2 = 0; j2 <= j1; j2++)
      for (int j = j1 - j2; j <= MIN(J, j1 + j2); j += 2) {
        for (int m1 = 0; m1 <= j1; m1++)
          for (int m2 = 0; m2 <= j2; m2++, icg++) {
            const int aa2 = 2 * m1 - j1, bb2 = 2 * m2 - j2, m = (aa2 + bb2 + j) / 2;
            h->cg[icg] = (m < 0 || m > j) ? 0.0 : clebsch_gordan(j1, j2, j, aa2, bb2, m);
          }
        if (j >= j1) h->idxb[ib++] = (snap_bidx){j1, j2, j, BLK(z_block, j1, j2, j)};
        /* Factor of this triple's Z in Y: the beta of the sorted triple, times
         * its multiplicity among the permutations, times (j1+1)/(j+1) where Z's
         * roles are swapped (LAMMPS's compute_yi). */
        double bj = 0.0;
        if (beta) {
          if (j >= j1) {
            const double b = beta[BLK(b_block, j1, j2, j)];
            bj = j1 == j ? (j2 == j ? 3 * b : 2 * b) : b;
          } else if (j >= j2) {
            const double b = beta[BLK(b_block, j, j2, j1)];
            bj = (j2 == j ? 2 * b : b) * (j1 + 1) / (j + 1.0);
          } else {
            bj = beta[BLK(b_block, j2, j, j1)] * (j1 + 1) / (j + 1.0);
          }
        }
        for (int mb = 0; 2 * mb <= j; mb++)
          for (int ma = 0; ma <= j; ma++, iz++) {
            snap_zidx *z = &h->idxz[iz];
            z->j1 = j1, z->j2 = j2, z->j = j;
            z->ma1min = MAX(0, (2 * ma - j - j2 + j1) / 2);
            z->ma2max = (2 * ma - j - (2 * z->ma1min - j1) + j2) / 2;
            z->na = MIN(j1, (2 * ma - j + j2 + j1) / 2) - z->ma1min + 1;
            z->mb1min = MAX(0, (2 * mb - j - j2 + j1) / 2);
            z->mb2max = (2 * mb - j - (2 * z->mb1min - j1) + j2) / 2;
            z->nb = MIN(j1, (2 * mb - j + j2 + j1) / 2) - z->mb1min + 1;
            z->jju = snap_uidx(j, ma, mb);
            z->cg = BLK(cg_block, j1, j2, j);
            h->zbeta[iz] = bj;
          }
      }
  /* Y by element: the blocks coupling into each j, in (j1, j2) order. */
  int nyb = 0;
  for (int j = 0; j <= J; j++) {
    h->yblk_start[j] = nyb;
    for (int j1 = 0; j1 <= J; j1++)
      for (int j2 = 0; j2 <= j1; j2++)
        if (j >= j1 - j2 && j <= MIN(J, j1 + j2) && (j - (j1 - j2)) % 2 == 0) h->yblk[nyb++] = BLK(z_block, j1, j2, j);
  }
  h->yblk_start[J + 1] = nyb;
#undef BLK
  free(cg_block), free(b_block), free(z_block);
  t->idxz = h->idxz, t->idxb = h->idxb, t->cg = h->cg, t->rootpq = h->rootpq, t->zbeta = h->zbeta, t->beta = h->beta;
  t->yblk_start = h->yblk_start, t->yblk = h->yblk;
  return 0;
}

void snap_tables_free(snap_host_tables *h) {
  free(h->idxz), free(h->idxb), free(h->cg), free(h->rootpq), free(h->zbeta), free(h->beta);
  free(h->yblk_start), free(h->yblk);
  h->yblk_start = h->yblk = NULL;
  h->idxz = NULL, h->idxb = NULL, h->cg = h->rootpq = h->zbeta = h->beta = NULL;
}

double snap_e0(const snap_potential *p, const snap_tables *t) {
  double e0 = p->beta0;
  if (p->bzeroflag) /* wself = 1: bzero(j) = j + 1 */
    for (int k = 0; k < t->idxb_max; k++) e0 -= p->beta[k] * (t->idxb[k].j + 1);
  return e0;
}
