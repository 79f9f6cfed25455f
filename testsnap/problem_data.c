/* The host snap_data of a configuration: potential + tables + neighbours,
 * and the host-model evaluation the reference and the finite differences use. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "problem.h"

void ts_data_fill(snap_data *d, const snap_potential *p, const snap_host_tables *h, const snap_neigh *nl,
                  double *energy, double *force) {
  memset(d, 0, sizeof *d);
  d->t = h->t;
  d->rcut = p->rcut, d->rfac0 = p->rfac0, d->rmin0 = p->rmin0, d->switchflag = p->switchflag;
  d->wj = p->weight, d->wself = 1.0, d->e0 = snap_e0(p, &h->t);
  d->natoms = nl->natoms, d->nall = nl->nall, d->nmax = nl->nmax;
  d->nneigh = nl->nneigh, d->jatom = nl->jatom, d->rij = nl->rij;
  d->rev_start = nl->rev_start, d->rev_pair = nl->rev_pair;
  d->energy = energy, d->force = force;
}

int ts_host_eval(const snap_data *d, int want_forces) {
  const snap_kernels *k = snap_kernels_host();
  snap_variant v = {SNAP_SCRATCH_DEFAULT, 0, -1, 0, SNAP_DEIDRJ_DEFAULT};
  char why[8];
  void *w = k->prepare(d, &v, why, sizeof why);
  if (!w) return -1;
  k->compute_ui(d, w);
  if (want_forces) {
    k->compute_yi(d, w);
    k->compute_deidrj(d, w);
    k->compute_forces(d, w);
  }
  k->compute_energies(d, w);
  k->release(w);
  return 0;
}

/* Per-atom energies of configuration a (host model). */
static int energies_of(const snap_atoms *a, const snap_potential *p, const snap_host_tables *h, double *e) {
  snap_neigh nl;
  if (snap_neigh_build(a, p->rcut, &nl) != 0) return -1;
  snap_data d;
  ts_data_fill(&d, p, h, &nl, e, NULL);
  int rc = ts_host_eval(&d, 0);
  snap_neigh_free(&nl);
  return rc;
}

static long gcd(long a, long b) { return b ? gcd(b, a % b) : a; }

int ts_fd_check(const snap_atoms *a, const snap_potential *p, const snap_host_tables *h, const double *force,
                int samples, double step, double *max_err, int *worst) {
  const int n = a->n;
  snap_atoms b = *a;
  b.x = malloc(sizeof(double) * 3 * (size_t)n);
  double *ep = malloc(sizeof(double) * (size_t)n), *em = malloc(sizeof(double) * (size_t)n);
  if (!b.x || !ep || !em) return free(b.x), free(ep), free(em), -1;
  *max_err = 0.0, *worst = 0;
  int rc = 0;
  long stride = 7919; /* spreads the samples over the atoms: a bijection of 0..n-1 when coprime to n */
  while (gcd(stride, n) != 1) stride++;
  for (int s = 0; s < samples && rc == 0; s++) {
    /* round r = s / n of the atoms moves each along component (k + r) mod 3:
     * the 3 n samples s < 3 n are distinct (atom, component) pairs */
    const int k = s % n, atom = (int)((stride * k) % n), c = (k + s / n) % 3;
    memcpy(b.x, a->x, sizeof(double) * 3 * (size_t)n);
    b.x[3 * atom + c] = a->x[3 * atom + c] + step;
    rc |= energies_of(&b, p, h, ep);
    b.x[3 * atom + c] = a->x[3 * atom + c] - step;
    rc |= energies_of(&b, p, h, em);
    /* per-atom differences first: atoms out of reach cancel exactly */
    double de = 0.0;
    for (int i = 0; i < n; i++) de += ep[i] - em[i];
    const double err = fabs(force[3 * atom + c] + de / (2.0 * step));
    if (!(err <= *max_err)) *max_err = err, *worst = 3 * atom + c;
  }
  free(b.x), free(ep), free(em);
  return rc;
}
