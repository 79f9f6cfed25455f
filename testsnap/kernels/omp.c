/* testsnap, omp model: standard OpenMP 5 target offload only (no kernel
 * mode, no team memory API), each kernel one combined
 * `target teams distribute parallel for` (nested yi: teams over atoms,
 * parallel for over elements). The loops without private arrays carry `simd`
 * (PP_OMP_SIMD, pp/omp_loop.h: GCC runs a warp's lanes only in simd loops;
 * clang ignores it on GPUs); the pair loops of compute_ui and compute_deidrj
 * do not: GCC would keep their level buffers once per lane.
 * Layout: U_i and Y_i in tiles of 32 atoms, element-major in a tile, as cuda.
 * - compute_ui: one thread per (atom, neighbour) pair, pairs neighbour-major
 *   (p = jj * natoms + i), so that a warp's threads are neighbouring atoms:
 *   their U_i adds go to neighbouring words; the recursion level by level
 *   through two level buffers in the thread's own (local, per-thread
 *   interleaved) memory; sfac * U added to U_i atomically.
 * - compute_yi: one thread per (atom, pair of Y elements) over their Z elements; the flat
 *   loop in the tiles of cuda (32 atoms x 4 elements per 128 iterations,
 *   which LLVM gives one team: dist_schedule(static, 128)), or nested.
 * - compute_deidrj: one thread per pair, the dU recursion in its own memory.
 *   --deidrj split (TestSNAP Kokkos_V2's mapping in standard OpenMP): per
 *   chunk of atom tiles, a loop over the pairs computing their snap_dck (and
 *   zeroing dE_i/dr_j), then a loop over (pair, component, diagonal) items,
 *   32 consecutive iterations the 32 atoms of a tile (snap_split_slot), each
 *   walking one row of U and dU in its own memory, its part added with
 *   `atomic update`.
 * - compute_forces and compute_energies: cuda's mappings (snap_gpu.h), the
 *   lanes' or row slots' sums through team memory with `omp barrier` (no
 *   shuffles in standard OpenMP).
 * Variants: the thread-per-pair forms are the 2-level, global-scratch point
 * of the TestSNAP experiments of "Leveraging LLVM OpenMP GPU Offload
 * Optimizations for Kokkos Applications"; team scratch and
 * 3 levels need kernel mode (ompx) and are reported as not run here. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include "pp/omp_device.h"
#include "pp/omp_loop.h"
#include "snap_gpu.h"
#include "snap_tiled.h"

#define TPB 128
/* Threads per team of the collapsed compute_yi: 512 with clang. clang turns a
 * constant thread_limit into the PTX bound .maxntid, for which ptxas sizes the
 * registers; at 512 it must fit the kernel in 128 registers (a few spills),
 * which doubles the resident warps of the 128-thread form (see
 * docs/performance.md, testsnap). GCC keeps TPB (its OpenMP thread is a
 * warp). */
#if PP_OMP_GCC
#define YI_TPB TPB
#else
#define YI_TPB 512
#endif
/* compute_forces' and compute_energies' teams: cuda's (snap_gpu.h). */
#define F_TPB SNAP_GPU_TPB
#define E_TPB SNAP_GPU_E_TPB
/* Level buffer elements for the largest twojmax accepted (private arrays
 * need a size known at compile time). */
#define LVL_MAX ((SNAP_TWOJMAX_MAX / 2 + 1) * (SNAP_TWOJMAX_MAX + 1))

typedef struct work {
  double *ur, *ui, *yr, *yi; /* [snap_tiled_len] */
  double *dedr;              /* [natoms * nmax * 3] */
  snap_dck *dck;             /* --deidrj split: [chunk * SNAP_TILE * nmax] */
  long chunk;                /* its atom tiles per chunk */
  int yi_collapsed, de_split;
} work;

static void release(void *p) {
  work *w = p;
  if (!w) return;
  pp_omp_free(w->ur), pp_omp_free(w->ui), pp_omp_free(w->yr), pp_omp_free(w->yi), pp_omp_free(w->dedr);
  pp_omp_free(w->dck);
  free(w);
}

static int check(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  (void)d;
  if (v->scratch == SNAP_SCRATCH_TEAM) {
    snprintf(why, len, "omp: team-shared scratch needs kernel mode (ompx); this form: one thread per pair, "
                       "its scratch in the thread's own memory (--scratch global)");
    return -1;
  }
  if (v->levels == 3) {
    snprintf(why, len, "omp: 3 levels (lanes per neighbour) need kernel mode (ompx); this form: --levels 2");
    return -1;
  }
  if (v->team_size) {
    snprintf(why, len, "omp: --team-size is not used by this form (thread_limit %d)", TPB);
    return -1;
  }
  return 0;
}

static void *prepare(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  if (check(d, v, why, len)) return NULL;
  work *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->yi_collapsed = v->yi_collapsed != 0;
  /* split by default with clang (the faster form, testsnap/DEIDRJ.md); GCC
   * keeps the level form: its simd-less pair loops run a lane per warp either
   * way, and split has 3x the threads' U recursions (see
   * docs/performance.md, Compilers) */
  w->de_split = snap_deidrj_split(v, !PP_OMP_GCC);
  w->chunk = snap_split_chunk(d);
  if (w->de_split) w->dck = pp_omp_alloc((size_t)w->chunk * SNAP_TILE * d->nmax * sizeof(snap_dck));
  const size_t nu = (size_t)snap_tiled_len(d);
  w->ur = pp_omp_alloc(nu * sizeof(double)), w->ui = pp_omp_alloc(nu * sizeof(double));
  w->yr = pp_omp_alloc(nu * sizeof(double)), w->yi = pp_omp_alloc(nu * sizeof(double));
  w->dedr = pp_omp_alloc((size_t)d->natoms * d->nmax * 3 * sizeof(double));
  /* Y's mirrored half is never written (nor read): zero it once. */
  double *yr = w->yr, *yi = w->yi;
#pragma omp target teams distribute parallel for PP_OMP_SIMD device(pp_omp_device) is_device_ptr(yr, yi)
  for (size_t q = 0; q < nu; q++) yr[q] = yi[q] = 0.0;
  return w;
}

static void compute_ui(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  double *ur = w->ur, *ui = w->ui;
  const long nu = snap_tiled_len(d), np = (long)d->natoms * d->nmax;
#pragma omp target teams distribute parallel for PP_OMP_SIMD thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(ur, ui)
  for (long q = 0; q < nu; q++) snap_ui_init_item(&dd, q, ur, ui);
#pragma omp target teams distribute parallel for thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(ur, ui)
  for (long q = 0; q < np; q++) {
    int i;
    const long pr = snap_pair_slot(&dd, q, &i);
    if (pr < 0) continue;
    snap_c buf[2 * LVL_MAX];
    const snap_ck c = snap_ck_of(&dd, dd.rij + pr * 3);
    for (int j = 0; j <= dd.t.twojmax; j++) {
      snap_c *cur = buf + (j & 1) * LVL_MAX, *prev = buf + ((j & 1) ^ 1) * LVL_MAX;
      for (int k = 0; k < snap_level_half(j); k++) {
        const snap_c u = snap_u_level_elem(&dd.t, &c, j, k, prev, cur);
        const long e = snap_tiled(&dd, snap_ublock(j) + k, i);
#pragma omp atomic update
        ur[e] += c.sfac * u.r;
#pragma omp atomic update
        ui[e] += c.sfac * u.i;
      }
      if (j & 1)
        for (int ma = 0; ma <= j; ma++) snap_level_mirror(j, ma, cur, NULL);
    }
  }
#pragma omp target teams distribute parallel for PP_OMP_SIMD thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(ur, ui)
  for (long q = 0; q < nu; q++) snap_ui_mirror_item(&dd, q, ur, ui);
}

static void compute_yi(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *ur = w->ur, *ui = w->ui;
  double *yr = w->yr, *yi = w->yi;
  if (!w->yi_collapsed) {
#pragma omp target teams distribute thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(ur, ui, yr, yi)
    for (int i = 0; i < dd.natoms; i++) {
#pragma omp parallel for PP_OMP_SIMD
      for (int h = 0; h < dd.t.idxy_items; h++) snap_yi_atom_item(&dd, i, h, ur, ui, yr, yi);
    }
    return;
  }
  const int wpb = YI_TPB / SNAP_TILE;
  const long n = snap_yi_tile_blocks(d, wpb) * YI_TPB;
#pragma omp target teams distribute parallel for PP_OMP_SIMD thread_limit(PP_OMP_TL(YI_TPB)) dist_schedule(static, YI_TPB) \
    device(pp_omp_device) firstprivate(dd) is_device_ptr(ur, ui, yr, yi)
  for (long q = 0; q < n; q++)
    snap_yi_tile_item(&dd, q / YI_TPB, (int)(q % YI_TPB) / SNAP_TILE, wpb, (int)(q % SNAP_TILE), ur, ui, yr, yi);
}

/* --deidrj split: a thread per (pair, component, diagonal), its row of U
 * and dU in its own memory (element ma at row[ma]: the same offset in every
 * thread, which the device's private memory interleaves across a warp). */
static void deidrj_split(const snap_data *d, work *w) {
  const snap_data dd = *d;
  const double *yr = w->yr, *yi = w->yi;
  double *dedr = w->dedr;
  snap_dck *dck = w->dck;
  for (long t0 = 0; t0 < snap_tiles(d); t0 += w->chunk) {
    const long nt = snap_tiles(d) - t0 < w->chunk ? snap_tiles(d) - t0 : w->chunk;
    const long n = nt * SNAP_TILE * d->nmax, ni = snap_split_warps(d, nt) * SNAP_TILE;
#pragma omp target teams distribute parallel for thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) firstprivate(dd, t0) \
    is_device_ptr(dck, dedr)
    for (long q = 0; q < n; q++) snap_split_dck_item(&dd, t0, q, dck, dedr);
#pragma omp target teams distribute parallel for thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) firstprivate(dd, t0, nt) \
    is_device_ptr(dck, yr, yi, dedr)
    for (long q = 0; q < ni; q++) {
      int dim, bend;
      long c;
      const long pr = snap_split_slot(&dd, t0, nt, q / SNAP_TILE, (int)(q % SNAP_TILE), &dim, &bend, &c);
      if (pr < 0) continue;
      snap_c row[2 * (SNAP_TWOJMAX_MAX + 1)];
      const long b = snap_tiled_base(&dd, (int)(pr / dd.nmax));
      const snap_dck1 g = snap_dck_dim(dck + c, dim);
      const double x = snap_dedr_path(&dd.t, &g, bend, row, row + dd.t.twojmax + 1, 1, yr + b, yi + b, SNAP_TILE);
#pragma omp atomic update
      dedr[3 * pr + dim] += x;
    }
  }
}

static void compute_deidrj(const snap_data *d, void *p) {
  work *w = p;
  if (w->de_split) {
    deidrj_split(d, w);
    return;
  }
  const snap_data dd = *d;
  const double *yr = w->yr, *yi = w->yi;
  double *dedr = w->dedr;
  const long np = (long)d->natoms * d->nmax;
#pragma omp target teams distribute parallel for thread_limit(PP_OMP_TL(TPB)) device(pp_omp_device) firstprivate(dd) \
    is_device_ptr(yr, yi, dedr)
  for (long q = 0; q < np; q++) {
    int i;
    const long pr = snap_pair_slot(&dd, q, &i);
    if (pr < 0) continue;
    snap_c buf[8 * LVL_MAX];
    const snap_dck g = snap_dck_of(&dd, dd.rij + pr * 3);
    double acc[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j <= dd.t.twojmax; j++) {
      const int c = j & 1;
      snap_c *cur = buf + c * LVL_MAX, *prev = buf + (c ^ 1) * LVL_MAX;
      snap_c *dcur = buf + 2 * LVL_MAX + 3 * c * LVL_MAX, *dprev = buf + 2 * LVL_MAX + 3 * (c ^ 1) * LVL_MAX;
      for (int k = 0; k < snap_level_half(j); k++)
        snap_dedr_level_elem(&dd.t, &g, j, k, prev, dprev, cur, dcur, yr + snap_tiled_base(&dd, i),
                             yi + snap_tiled_base(&dd, i), SNAP_TILE, acc);
      if (j & 1)
        for (int ma = 0; ma <= j; ma++) snap_level_mirror(j, ma, cur, dcur);
    }
    for (int k = 0; k < 3; k++) dedr[pr * 3 + k] = acc[k];
  }
}

/* compute_forces: SNAP_GPU_F_LANES threads per atom (snap_force_lane, as
 * cuda), F_TPB items per team and block; the lanes' sums meet in team memory
 * and the atom's first lane adds them in lane order. Slots s of a block are
 * the logical threads: a team of fewer threads takes several, so the result
 * does not depend on the threads granted. */
static void compute_forces(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *dedr = w->dedr;
  const long nb = (snap_force_items(d) + F_TPB - 1) / F_TPB;
#pragma omp target teams num_teams(pp_omp_teams(nb, F_TPB)) thread_limit(PP_OMP_TL(F_TPB)) device(pp_omp_device) \
    firstprivate(dd) is_device_ptr(dedr)
  {
    double part[3 * F_TPB];
#pragma omp parallel
    {
      const int th = omp_get_thread_num(), nth = omp_get_num_threads();
      for (long blk = omp_get_team_num(); blk < nb; blk += omp_get_num_teams()) {
        for (int s = th; s < F_TPB; s += nth) snap_force_lane(&dd, dedr, blk * F_TPB + s, part + 3 * s);
#pragma omp barrier
        for (int s = th; s < F_TPB; s += nth)
          if (s % SNAP_GPU_F_LANES == 0) {
            double f[3] = {0.0, 0.0, 0.0};
            for (int l = 0; l < SNAP_GPU_F_LANES; l++)
              for (int k = 0; k < 3; k++) f[k] += part[3 * (s + l) + k];
            snap_force_store(&dd, blk * F_TPB + s, f);
          }
#pragma omp barrier
      }
    }
  }
}

/* compute_energies: a team per SNAP_GPU_E_ATOMS atoms, its E_TPB row slots
 * (snap_energy_rows, as cuda) summed in team memory; slots are logical
 * threads, as in compute_forces. */
static void compute_energies(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *ur = w->ur, *ui = w->ui, *yr = w->yr, *yi = w->yi;
  const long nt = snap_energy_teams(d);
#pragma omp target teams num_teams(pp_omp_teams(nt, E_TPB)) thread_limit(PP_OMP_TL(E_TPB)) device(pp_omp_device) \
    firstprivate(dd) is_device_ptr(ur, ui, yr, yi)
  {
    double part[E_TPB];
#pragma omp parallel
    {
      const int th = omp_get_thread_num(), nth = omp_get_num_threads();
      for (long t = omp_get_team_num(); t < nt; t += omp_get_num_teams()) {
        for (int s = th; s < E_TPB; s += nth) part[s] = snap_energy_rows(&dd, t, s, E_TPB, ur, ui, yr, yi);
#pragma omp barrier
        for (int s = th; s < SNAP_GPU_E_ATOMS; s += nth) snap_energy_store(&dd, t, s, E_TPB, part);
#pragma omp barrier
      }
    }
  }
}

static const snap_kernels kernels = {
    .check = check,
    .prepare = prepare,
    .release = release,
    .compute_ui = compute_ui,
    .compute_yi = compute_yi,
    .compute_deidrj = compute_deidrj,
    .compute_forces = compute_forces,
    .compute_energies = compute_energies,
    .notes = "standard OpenMP: U/Y element-major; compute_ui and compute_deidrj one thread per (atom, neighbour), "
        "neighbour-major, the (d)U recursion through level buffers in the thread's own memory, U_i by atomic "
        "adds; compute_yi one thread per (atom, pair of Y elements), flat loop in tiles of 32 atoms x 4 elements per "
        "128-thread team (collapsed) or teams over atoms (nested); forces 8 threads per atom, energies a team per 16 atoms (cuda's mappings, "
        "sums through team memory); --deidrj split: "
        "a thread per (pair, component, diagonal of rows), one row of U and dU each in its own memory, atomic adds",
};

const snap_kernels *snap_kernels_omp(void) { return &kernels; }
