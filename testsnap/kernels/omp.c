/* testsnap, omp model: standard OpenMP 5 target offload only. FIRST FORM
 * (correct, not tuned yet): one level of parallelism over atoms for
 * compute_ui and compute_deidrj, with the U / dU recursion scratch of each
 * atom in global device memory (--scratch global); compute_yi either as one
 * flattened (atom, Z element) loop, `collapse(2)` with `atomic` adds into
 * Y (--yi collapsed, the default) or one loop over atoms (--yi nested);
 * forces as a fixed-order gather over atoms; energies through Y
 * (snap_atom_energy_y), so they cross-check the host model's energies
 * through B. Team-shared scratch and 3 levels are not written yet: asked
 * for explicitly, prepare() says so and the model is reported as not run.
 * Layout: U_i, Y_i contiguous per atom (stride 1). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "pp/omp_device.h"
#include "testsnap.h"

#define TPB 128

typedef struct work {
  double *ur, *ui, *yr, *yi; /* [natoms * idxu_max] */
  double *dedr;              /* [natoms * nmax * 3] */
  snap_c *scr;               /* [natoms * idxu_max * 4]: U and dU of one neighbour per atom */
  int yi_collapsed;
} work;


static void release(void *p) {
  work *w = p;
  if (!w) return;
  pp_omp_free(w->ur), pp_omp_free(w->ui), pp_omp_free(w->yr), pp_omp_free(w->yi), pp_omp_free(w->dedr), pp_omp_free(w->scr);
  free(w);
}

static void *prepare(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  if (v->scratch == SNAP_SCRATCH_TEAM) {
    snprintf(why, len, "omp: team-shared scratch is not written yet (this form: --scratch global)");
    return NULL;
  }
  if (v->levels) {
    snprintf(why, len, "omp: --levels %d is not written yet (this form: one level, atoms)", v->levels);
    return NULL;
  }
  if (v->team_size) {
    snprintf(why, len, "omp: --team-size is not used by this form (thread_limit %d)", TPB);
    return NULL;
  }
  work *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->yi_collapsed = v->yi_collapsed != 0;
  const size_t nu = (size_t)d->natoms * d->t.idxu_max;
  w->ur = pp_omp_alloc(nu * sizeof(double)), w->ui = pp_omp_alloc(nu * sizeof(double));
  w->yr = pp_omp_alloc(nu * sizeof(double)), w->yi = pp_omp_alloc(nu * sizeof(double));
  w->dedr = pp_omp_alloc((size_t)d->natoms * d->nmax * 3 * sizeof(double));
  w->scr = pp_omp_alloc(nu * 4 * sizeof(snap_c));
  return w;
}

static void compute_ui(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  double *ur = w->ur, *ui = w->ui;
  snap_c *scr = w->scr;
  const long nu = d->t.idxu_max;
#pragma omp target teams distribute parallel for thread_limit(TPB) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(ur, ui, scr)
  for (int i = 0; i < dd.natoms; i++) snap_atom_ui(&dd, i, ur + i * nu, ui + i * nu, 1, scr + i * nu * 4);
}

static void compute_yi(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *ur = w->ur, *ui = w->ui;
  double *yr = w->yr, *yi = w->yi;
  const long nu = d->t.idxu_max;
  const int nz = d->t.idxz_max;
  if (!w->yi_collapsed) {
#pragma omp target teams distribute parallel for thread_limit(TPB) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(ur, ui, yr, yi)
    for (int i = 0; i < dd.natoms; i++) snap_atom_yi(&dd, ur + i * nu, ui + i * nu, yr + i * nu, yi + i * nu, 1);
    return;
  }
  const long ny = (long)d->natoms * nu;
#pragma omp target teams distribute parallel for thread_limit(TPB) device(pp_omp_device) is_device_ptr(yr, yi)
  for (long q = 0; q < ny; q++) yr[q] = yi[q] = 0.0;
#pragma omp target teams distribute parallel for collapse(2) thread_limit(TPB) device(pp_omp_device) \
    firstprivate(dd) is_device_ptr(ur, ui, yr, yi)
  for (int i = 0; i < dd.natoms; i++)
    for (int jjz = 0; jjz < nz; jjz++) {
      const snap_c z = snap_z_elem(&dd.t, jjz, ur + i * nu, ui + i * nu, 1);
      const long e = i * nu + dd.t.idxz[jjz].jju;
      const double b = dd.t.zbeta[jjz];
#pragma omp atomic update
      yr[e] += b * z.r;
#pragma omp atomic update
      yi[e] += b * z.i;
    }
}

static void compute_deidrj(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *yr = w->yr, *yi = w->yi;
  double *dedr = w->dedr;
  snap_c *scr = w->scr;
  const long nu = d->t.idxu_max;
#pragma omp target teams distribute parallel for thread_limit(TPB) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(yr, yi, dedr, scr)
  for (int i = 0; i < dd.natoms; i++) {
    snap_c *u = scr + i * nu * 4;
    for (int jj = 0; jj < dd.nneigh[i]; jj++)
      snap_pair_dedr(&dd, i, jj, yr + i * nu, yi + i * nu, 1, u, u + nu, dedr + ((long)i * dd.nmax + jj) * 3);
  }
}

static void compute_forces(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *dedr = w->dedr;
#pragma omp target teams distribute parallel for thread_limit(TPB) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(dedr)
  for (int a = 0; a < dd.nall; a++) snap_force_gather(&dd, dedr, a, dd.force + 3 * (long)a);
}

static void compute_energies(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *ur = w->ur, *ui = w->ui, *yr = w->yr, *yi = w->yi;
  const long nu = d->t.idxu_max;
#pragma omp target teams distribute parallel for thread_limit(TPB) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(ur, ui, yr, yi)
  for (int i = 0; i < dd.natoms; i++)
    dd.energy[i] = snap_atom_energy_y(&dd, ur + i * nu, ui + i * nu, yr + i * nu, yi + i * nu, 1);
}

static const snap_kernels kernels = {
    prepare, release, compute_ui, compute_yi, compute_deidrj, compute_forces, compute_energies,
    "standard OpenMP, first form: atoms in parallel, U/dU scratch in global memory, compute_yi "
    "collapse(2) over (atom, Z element) with atomic adds (or nested), energies through Y"};

const snap_kernels *snap_kernels_omp(void) { return &kernels; }
