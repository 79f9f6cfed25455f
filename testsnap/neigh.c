/* Periodic neighbour lists: minimum image (valid when every box side is at
 * least twice the cutoff: then at most one image of each atom is inside),
 * found through cells at least rcut wide. Lists are rectangular (nmax slots
 * per atom, nneigh used) with a reverse index for the force gather. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "problem.h"

const char *snap_box_check(const double box[3], double rcut) {
  static char msg[256];
  if (!isfinite(box[0] * box[1] * box[2])) {
    snprintf(msg, sizeof msg, "the box (%.6g x %.6g x %.6g A) is not finite: its volume overflows", box[0], box[1],
             box[2]);
    return msg;
  }
  for (int d = 0; d < 3; d++)
    if (box[d] < 2.0 * rcut) {
      snprintf(msg, sizeof msg,
               "the box (%.6g x %.6g x %.6g A) is smaller than twice the cutoff %.6g A along %c "
               "(%.6g < %.6g): minimum-image neighbours would be wrong; use a larger box",
               box[0], box[1], box[2], rcut, 'x' + d, box[d], 2.0 * rcut);
      return msg;
    }
  return NULL;
}

static int reverse(snap_neigh *nl) {
  const long np = (long)nl->natoms * nl->nmax;
  nl->rev_start = calloc((size_t)nl->nall + 1, sizeof(int));
  int npairs = 0;
  for (int i = 0; i < nl->natoms; i++) npairs += nl->nneigh[i];
  nl->rev_pair = malloc(sizeof(int) * (size_t)(npairs ? npairs : 1));
  int *fill = calloc((size_t)nl->nall + 1, sizeof(int));
  if (!nl->rev_start || !nl->rev_pair || !fill) return free(fill), -1;
  for (long p = 0; p < np; p++)
    if (p % nl->nmax < nl->nneigh[p / nl->nmax]) nl->rev_start[nl->jatom[p] + 1]++;
  for (int a = 0; a < nl->nall; a++) nl->rev_start[a + 1] += nl->rev_start[a];
  for (long p = 0; p < np; p++)
    if (p % nl->nmax < nl->nneigh[p / nl->nmax]) {
      const int a = nl->jatom[p];
      nl->rev_pair[nl->rev_start[a] + fill[a]++] = (int)p;
    }
  free(fill);
  return 0;
}

/* Bins of at least rcut along each axis; fewer than 3 bins: every bin is a
 * neighbour bin (so none is visited twice). No more bins than the atoms
 * need (about two per atom): a huge box or a tiny cutoff would otherwise
 * ask for billions of empty ones. */
typedef struct bins {
  int nb[3];
  int *start, *atom; /* atoms of bin b: atom[start[b] .. start[b+1]) */
} bins;

static int bin_of(const bins *b, const double *box, const double *x) {
  int c[3];
  for (int d = 0; d < 3; d++) {
    double w = x[d] - box[d] * floor(x[d] / box[d]);
    c[d] = (int)(w / box[d] * b->nb[d]);
    if (c[d] >= b->nb[d]) c[d] = b->nb[d] - 1;
    if (c[d] < 0) c[d] = 0;
  }
  return (c[2] * b->nb[1] + c[1]) * b->nb[0] + c[0];
}

/* Calls visit(j) for every atom j in the bins around atom i's bin. */
#define FOR_NEAR_ATOMS(b, box, x, i, j, body)                                                     \
  do {                                                                                            \
    const int c_ = bin_of(b, box, x + 3 * (i));                                                   \
    const int c0_[3] = {c_ % (b)->nb[0], c_ / (b)->nb[0] % (b)->nb[1], c_ / (b)->nb[0] / (b)->nb[1]}; \
    int lo_[3], hi_[3];                                                                           \
    for (int d_ = 0; d_ < 3; d_++) {                                                              \
      if ((b)->nb[d_] < 3) lo_[d_] = 0, hi_[d_] = (b)->nb[d_] - 1;                                \
      else lo_[d_] = c0_[d_] - 1, hi_[d_] = c0_[d_] + 1;                                          \
    }                                                                                             \
    for (int z_ = lo_[2]; z_ <= hi_[2]; z_++)                                                     \
      for (int y_ = lo_[1]; y_ <= hi_[1]; y_++)                                                   \
        for (int x_ = lo_[0]; x_ <= hi_[0]; x_++) {                                               \
          const int w_[3] = {(x_ + (b)->nb[0]) % (b)->nb[0], (y_ + (b)->nb[1]) % (b)->nb[1],       \
                             (z_ + (b)->nb[2]) % (b)->nb[2]};                                     \
          const int bb_ = (w_[2] * (b)->nb[1] + w_[1]) * (b)->nb[0] + w_[0];                      \
          for (int q_ = (b)->start[bb_]; q_ < (b)->start[bb_ + 1]; q_++) {                        \
            const int j = (b)->atom[q_];                                                          \
            body                                                                                  \
          }                                                                                       \
        }                                                                                         \
  } while (0)

/* r_ij = x_j - x_i by minimum image; returns |r_ij|^2. */
static double min_image(const double *box, const double *x, int i, int j, double r[3]) {
  double s = 0.0;
  for (int d = 0; d < 3; d++) {
    double v = x[3 * j + d] - x[3 * i + d];
    v -= box[d] * nearbyint(v / box[d]);
    r[d] = v;
    s += v * v;
  }
  return s;
}

int snap_neigh_build(const snap_atoms *a, double rcut, snap_neigh *nl) {
  return snap_neigh_build_block(a, rcut, 0, a->n, a->n, nl, NULL);
}

int snap_neigh_build_block(const snap_atoms *a, double rcut, int lo, int hi, int nmax_limit, snap_neigh *nl,
                           int *over) {
  memset(nl, 0, sizeof *nl);
  const int n = a->n, nloc = hi - lo;
  const double rc2 = rcut * rcut;
  bins b;
  double want[3], all = 1.0;
  for (int d = 0; d < 3; d++) { /* in double: box / rcut may be beyond any int */
    want[d] = fmax(1.0, fmin(floor(a->box[d] / rcut), 1024.0));
    all *= want[d];
  }
  const double most = 2.0 * n + 27.0, shrink = all > most ? cbrt(all / most) : 1.0;
  long nbins = 1;
  for (int d = 0; d < 3; d++) {
    b.nb[d] = (int)fmax(1.0, floor(want[d] / shrink)); /* wider bins stay at least rcut wide */
    nbins *= b.nb[d];
  }
  b.start = calloc((size_t)nbins + 1, sizeof(int));
  b.atom = malloc(sizeof(int) * (size_t)n);
  int *binof = malloc(sizeof(int) * (size_t)n), *fill = calloc((size_t)nbins, sizeof(int));
  nl->nneigh = calloc((size_t)(nloc ? nloc : 1), sizeof(int));
  if (!b.start || !b.atom || !binof || !fill || !nl->nneigh) goto oom;
  for (int i = 0; i < n; i++) binof[i] = bin_of(&b, a->box, a->x + 3 * i), b.start[binof[i] + 1]++;
  for (long k = 0; k < nbins; k++) b.start[k + 1] += b.start[k];
  for (int i = 0; i < n; i++) b.atom[b.start[binof[i]] + fill[binof[i]]++] = i;

  /* local atom k is atom i = lo + k; neighbour j is stored as (j - lo) mod n.
   * Counted first: lists are rectangular (nmax slots for every atom), so the
   * first atom with more than nmax_limit neighbours decides that they cannot
   * fit; the count stops there (clustered atoms: each candidate is a distance
   * to check, so a full count would take minutes before failing). */
  int nmax = 0, first_over = -1;
#pragma omp parallel for reduction(max : nmax) schedule(static)
  for (int k = 0; k < nloc; k++) {
    int stop;
#pragma omp atomic read
    stop = first_over;
    if (stop >= 0) continue;
    const int i = lo + k;
    int c = 0;
    double r[3];
    FOR_NEAR_ATOMS(&b, a->box, a->x, i, j, { if (j != i && min_image(a->box, a->x, i, j, r) < rc2) c++; });
    nl->nneigh[k] = c;
    if (c > nmax) nmax = c;
    if (c > nmax_limit) {
#pragma omp atomic write
      first_over = i;
    }
  }
  if (first_over >= 0) {
    if (over) over[0] = first_over, over[1] = nl->nneigh[first_over - lo];
    free(b.start), free(b.atom), free(binof), free(fill);
    snap_neigh_free(nl);
    return -2;
  }
  nl->natoms = nloc, nl->nall = n;
  nl->nmax = nmax ? nmax : 1;
  if ((double)nloc * nl->nmax > 2147483647.0) goto oom;
  nl->jatom = malloc(sizeof(int) * (size_t)(nloc ? nloc : 1) * nl->nmax);
  nl->rij = calloc((size_t)(nloc ? nloc : 1) * nl->nmax * 3, sizeof(double));
  if (!nl->jatom || !nl->rij) goto oom;
#pragma omp parallel for schedule(static)
  for (int k = 0; k < nloc; k++) {
    const int i = lo + k;
    int c = 0;
    double r[3];
    FOR_NEAR_ATOMS(&b, a->box, a->x, i, j, {
      if (j != i && min_image(a->box, a->x, i, j, r) < rc2) {
        const long p = (long)k * nl->nmax + c++;
        nl->jatom[p] = (j - lo + n) % n;
        for (int d = 0; d < 3; d++) nl->rij[3 * p + d] = r[d];
      }
    });
    for (; c < nl->nmax; c++) nl->jatom[(long)k * nl->nmax + c] = k; /* padding, never read */
  }
  free(b.start), free(b.atom), free(binof), free(fill);
  return reverse(nl);
oom:
  free(b.start), free(b.atom), free(binof), free(fill);
  snap_neigh_free(nl);
  return -1;
}

int snap_neigh_coincident(const snap_atoms *a, const snap_neigh *nl, int lo, int *i, int *j, int *imaged) {
  for (long p = 0; p < (long)nl->natoms * nl->nmax; p++) {
    const int k = (int)(p / nl->nmax);
    if (p % nl->nmax >= nl->nneigh[k]) continue;
    const double *r = nl->rij + 3 * p;
    if (r[0] * r[0] + r[1] * r[1] + r[2] * r[2] >= DBL_MIN) continue;
    *i = (lo + k) % a->n, *j = (lo + nl->jatom[p]) % a->n;
    double raw = 0.0;
    for (int d = 0; d < 3; d++) {
      const double v = a->x[3 * *j + d] - a->x[3 * *i + d];
      raw += v * v;
    }
    *imaged = raw >= DBL_MIN;
    return 1;
  }
  return 0;
}

int snap_neigh_from_lists(int natoms, int nall, int ninside, const int *jlist, const double *rij,
                          snap_neigh *nl) {
  memset(nl, 0, sizeof *nl);
  nl->natoms = natoms, nl->nall = nall, nl->nmax = ninside;
  const size_t np = (size_t)natoms * ninside;
  nl->nneigh = malloc(sizeof(int) * (size_t)natoms);
  nl->jatom = malloc(sizeof(int) * np);
  nl->rij = malloc(sizeof(double) * 3 * np);
  if (!nl->nneigh || !nl->jatom || !nl->rij) return snap_neigh_free(nl), -1;
  for (int i = 0; i < natoms; i++) nl->nneigh[i] = ninside;
  memcpy(nl->jatom, jlist, sizeof(int) * np);
  memcpy(nl->rij, rij, sizeof(double) * 3 * np);
  return reverse(nl);
}

void snap_neigh_free(snap_neigh *nl) {
  free(nl->nneigh), free(nl->jatom), free(nl->rij), free(nl->rev_start), free(nl->rev_pair);
  memset(nl, 0, sizeof *nl);
}
