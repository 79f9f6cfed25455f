/* testsnap, ompx model: LLVM OpenMP kernel mode, the kernels of
 * kernels/cuda.cu in OpenMP spelling (bare launches of the same shapes,
 * snap_gpu_shape_of in snap_gpu.h; team memory through ompx_dyn_cgroup_mem;
 * shuffles ompx_shfl_down_sync_d; atomic adds `omp atomic update`).
 * Layout: U_i and Y_i in tiles of 32 atoms, element-major in a tile (cuda's).
 * - compute_ui: `groups` (atom, neighbour) pairs per team, `lanes` threads
 *   each (3 levels: 32 lanes over the elements of one level; 2 levels: one
 *   thread per pair), level by level through two level buffers in team
 *   memory (--scratch team) or global memory (--scratch global); sfac * U
 *   added atomically to an atom-major sum of the computed half, spread into
 *   the tiled U_i with the mirrored half afterwards.
 * - compute_yi: one thread per (atom, pair of Y elements) over their Z elements, in
 *   tiles of 32 atoms x 4 elements per team (collapsed), or a team per atom
 *   (nested); no atomics.
 * - compute_deidrj: the dU recursion the same way, lanes' terms summed by
 *   shuffles. --deidrj split: cuda's k_split_dck and k_deidrj_split (a
 *   thread per (pair, component, diagonal), one row of U and dU each in
 *   team memory, lanes interleaved; atomic adds).
 * - forces gathered through the reverse index, SNAP_GPU_F_LANES threads per
 *   atom and shuffles; energies through Y, a team per 16 atoms of a tile,
 *   its threads over the rows.
 * Built with -fopenmp-cuda-mode (CMakeLists.txt): the level buffers and the
 * helpers' address-taken locals must stay the thread's own.
 * Blocks of lanes x groups (compute_ui, compute_deidrj: lanes x (atom,
 * neighbour) pairs; --deidrj split and collapsed compute_yi: 32 lanes x warps)
 * are two-dimensional with clang >= 20, thread_limit(lanes, groups, 1)
 * (pp/ompx_util.h, PP_OMPX_MULTIDIM; PP_OMPX_GRID=flat keeps one dimension),
 * one dimension of lanes * groups threads with clang 19, as in cuda.cu. */
#include <omp.h>
#include <ompx.h>
#include <stdlib.h>
#include "pp/device.h"
#include "pp/ompx_util.h"
#include "snap_gpu.h"

typedef snap_gpu_work work;

#define LAUNCH(nb, tpb, ...)                                                             \
  PP_PRAGMA(omp target teams ompx_bare num_teams(nb) thread_limit(tpb)                  \
            device(pp_omp_device) __VA_ARGS__)
/* This thread's lane and row (group, warp) in a block of nx lanes per row. */
#if PP_OMPX_MULTIDIM
#define LANE_OF(nx) ompx_thread_id_x()
#define ROW_OF(nx) ompx_thread_id_y()
#define ROWS_OF(nx) ompx_block_dim_y()
#else
#define LANE_OF(nx) (ompx_thread_id_x() % (nx))
#define ROW_OF(nx) (ompx_thread_id_x() / (nx))
#define ROWS_OF(nx) (ompx_block_dim_x() / (nx))
#endif
#define GRID_LOOP(q, n)                                                                  \
  for (long q = (long)ompx_block_id_x() * ompx_block_dim_x() + ompx_thread_id_x(); q < (n); \
       q += (long)ompx_grid_dim_x() * ompx_block_dim_x())

#pragma omp begin declare target
static inline void atomic_add(double *a, double v) {
#pragma omp atomic update
  *a += v;
}

/* The level buffers of this team's group g (team: the team's memory). */
static inline snap_c *group_buf(snap_c *global, int g, int groups, long elems) {
  if (global) return global + ((long)ompx_block_id_x() * groups + g) * elems;
  return (snap_c *)llvm_omp_target_dynamic_shared_alloc() + g * elems;
}

static inline void ui_pairs(const snap_data *d, snap_pair_shape s, snap_c *scr, double *uar, double *uai) {
  const int g = ROW_OF(s.lanes), lane = LANE_OF(s.lanes);
  const long npairs = (long)d->natoms * d->nmax, lvl = snap_level_elems(d->t.twojmax);
  snap_c *buf = group_buf(scr, g, s.groups, s.elems);
  for (long base = (long)ompx_block_id_x() * s.groups; base < npairs; base += (long)ompx_grid_dim_x() * s.groups) {
    int i;
    const long p = snap_pair_slot(d, base + g, &i);
    const int on = p >= 0;
    snap_ck c = {0.0, 0.0, 0.0, 0.0, 0.0};
    if (on) c = snap_ck_of(d, d->rij + p * 3);
    long h0 = (long)i * d->t.idxu_half; /* this level's first word in the atom-major sums */
    for (int j = 0; j <= d->t.twojmax; h0 += snap_level_half(j), j++) {
      snap_c *cur = buf + (j & 1) * lvl, *prev = buf + ((j & 1) ^ 1) * lvl;
      if (on)
        for (int k = lane; k < snap_level_half(j); k += s.lanes) {
          const snap_c u = snap_u_level_elem(&d->t, &c, j, k, prev, cur);
          atomic_add(uar + h0 + k, c.sfac * u.r);
          atomic_add(uai + h0 + k, c.sfac * u.i);
        }
      ompx_sync_block_acq_rel();
      if (j & 1) {
        if (on)
          for (int ma = lane; ma <= j; ma += s.lanes) snap_level_mirror(j, ma, cur, NULL);
        ompx_sync_block_acq_rel();
      }
    }
  }
}

static inline void deidrj(const snap_data *d, snap_pair_shape s, snap_c *scr, const double *yr, const double *yi,
                          double *dedr) {
  const int g = ROW_OF(s.lanes), lane = LANE_OF(s.lanes);
  const long npairs = (long)d->natoms * d->nmax, lvl = snap_level_elems(d->t.twojmax);
  snap_c *buf = group_buf(scr, g, s.groups, s.elems);
  for (long base = (long)ompx_block_id_x() * s.groups; base < npairs; base += (long)ompx_grid_dim_x() * s.groups) {
    int i;
    const long p = snap_pair_slot(d, base + g, &i);
    const int on = p >= 0;
    snap_dck gr;
    if (on) gr = snap_dck_of(d, d->rij + p * 3);
    double acc[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j <= d->t.twojmax; j++) {
      const int c = j & 1;
      snap_c *cur = buf + c * lvl, *prev = buf + (c ^ 1) * lvl;
      snap_c *dcur = buf + 2 * lvl + 3 * c * lvl, *dprev = buf + 2 * lvl + 3 * (c ^ 1) * lvl;
      if (on)
        for (int k = lane; k < snap_level_half(j); k += s.lanes)
          snap_dedr_level_elem(&d->t, &gr, j, k, prev, dprev, cur, dcur, yr + snap_tiled_base(d, i),
                               yi + snap_tiled_base(d, i), SNAP_TILE, acc);
      ompx_sync_block_acq_rel();
      if (j & 1) {
        if (on)
          for (int ma = lane; ma <= j; ma += s.lanes) snap_level_mirror(j, ma, cur, dcur);
        ompx_sync_block_acq_rel();
      }
    }
    for (int off = s.lanes / 2; off > 0; off /= 2)
      for (int k = 0; k < 3; k++) acc[k] += ompx_shfl_down_sync_d(~0ull, acc[k], off, SNAP_GPU_LANES);
    if (on && lane == 0)
      for (int k = 0; k < 3; k++) dedr[p * 3 + k] = acc[k];
  }
}
/* --deidrj split: warps of the chunk's items (snap_split_slot), one row of U
 * and dU per thread in team memory (element ma of lane l at ma * 32 + l). */
static inline void deidrj_split(const snap_data *d, long t0, long nt, const snap_dck *dck, const double *yr,
                                const double *yi, double *dedr) {
  const int lane = LANE_OF(SNAP_TILE), wb = ROW_OF(SNAP_TILE);
  const int wpb = ROWS_OF(SNAP_TILE), row = d->t.twojmax + 1;
  snap_c *u = (snap_c *)llvm_omp_target_dynamic_shared_alloc() + (long)wb * 2 * row * SNAP_TILE + lane;
  snap_c *du = u + (long)row * SNAP_TILE;
  const long nw = snap_split_warps(d, nt);
  for (long v = (long)ompx_block_id_x() * wpb + wb; v < nw; v += (long)ompx_grid_dim_x() * wpb) {
    int dim, bend;
    long c;
    const long p = snap_split_slot(d, t0, nt, v, lane, &dim, &bend, &c);
    if (p < 0) continue;
    const snap_dck1 g = snap_dck_dim(dck + c, dim);
    const long b = snap_tiled_base(d, (int)(p / d->nmax));
    atomic_add(dedr + 3 * p + dim, snap_dedr_path(&d->t, &g, bend, u, du, SNAP_TILE, yr + b, yi + b, SNAP_TILE));
  }
}
#pragma omp end declare target

/* ---- the five kernels ------------------------------------------------------------ */
static void compute_ui(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const snap_gpu_shape *s = &w->sh;
  const snap_pair_shape ps = s->ui;
  double *ur = w->ur, *ui = w->ui, *uar = w->uar, *uai = w->uai;
  snap_c *scr = s->team_scratch ? NULL : w->scr_ui;
  const long n = snap_tiled_len(d), nh = (long)d->natoms * d->t.idxu_half;
  const int tpb = s->tpb;
  const int team = s->team_scratch ? (int)(ps.groups * ps.elems * sizeof(snap_c)) : 0;
  LAUNCH(snap_gpu_blocks(nh, tpb), tpb, firstprivate(dd) is_device_ptr(uar, uai))
  GRID_LOOP(q, nh) snap_uacc_init_item(&dd, q, uar, uai);
  PP_OMPX_LAUNCH_XY(ps.teams, ps.lanes, ps.groups, firstprivate(dd, ps) is_device_ptr(uar, uai, scr) ompx_dyn_cgroup_mem(team))
  ui_pairs(&dd, ps, scr, uar, uai);
  LAUNCH(snap_gpu_blocks(n, tpb), tpb, firstprivate(dd) is_device_ptr(uar, uai, ur, ui))
  GRID_LOOP(q, n) snap_ui_spread_item(&dd, q, uar, uai, ur, ui);
}

static void compute_yi(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *ur = w->ur, *ui = w->ui;
  double *yr = w->yr, *yi = w->yi;
  const int tpb = w->sh.tpb;
  if (w->sh.yi_collapsed) {
    const int ytpb = w->sh.yi_tpb, wpb = ytpb / SNAP_TILE;
    const long nb = snap_yi_tile_blocks(d, wpb);
    PP_OMPX_LAUNCH_XY(snap_gpu_blocks(nb * ytpb, ytpb), SNAP_TILE, wpb, firstprivate(dd) is_device_ptr(ur, ui, yr, yi))
    for (long b = ompx_block_id_x(); b < nb; b += ompx_grid_dim_x())
      snap_yi_tile_item(&dd, b, ROW_OF(SNAP_TILE), wpb, LANE_OF(SNAP_TILE), ur, ui, yr, yi);
  } else {
    LAUNCH(snap_gpu_blocks((long)d->natoms * tpb, tpb), tpb, firstprivate(dd) is_device_ptr(ur, ui, yr, yi))
    for (int i = ompx_block_id_x(); i < dd.natoms; i += ompx_grid_dim_x())
      for (int h = ompx_thread_id_x(); h < dd.t.idxy_items; h += ompx_block_dim_x())
        snap_yi_atom_item(&dd, i, h, ur, ui, yr, yi);
  }
}

static void compute_deidrj(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const snap_gpu_shape *s = &w->sh;
  const snap_pair_shape ps = s->de;
  const double *yr = w->yr, *yi = w->yi;
  double *dedr = w->dedr;
  if (s->de_split) {
    snap_dck *dck = w->dck;
    const int tpb = s->split_warps * SNAP_TILE, team = (int)(s->split_warps * snap_gpu_split_bytes(d));
    for (long t0 = 0; t0 < snap_tiles(d); t0 += s->split_chunk) {
      const long nt = snap_tiles(d) - t0 < s->split_chunk ? snap_tiles(d) - t0 : s->split_chunk;
      const long n = nt * SNAP_TILE * d->nmax, nw = snap_split_warps(d, nt);
      LAUNCH(snap_gpu_blocks(n, s->tpb), s->tpb, firstprivate(dd, t0, n) is_device_ptr(dck, dedr))
      GRID_LOOP(q, n) snap_split_dck_item(&dd, t0, q, dck, dedr);
      PP_OMPX_LAUNCH_XY(snap_gpu_blocks(nw * SNAP_TILE, tpb), SNAP_TILE, s->split_warps,
                        firstprivate(dd, t0, nt) is_device_ptr(dck, yr, yi, dedr) ompx_dyn_cgroup_mem(team))
      deidrj_split(&dd, t0, nt, dck, yr, yi, dedr);
    }
    return;
  }
  snap_c *scr = s->team_scratch ? NULL : w->scr_de;
  const int team = s->team_scratch ? (int)(ps.groups * ps.elems * sizeof(snap_c)) : 0;
  PP_OMPX_LAUNCH_XY(ps.teams, ps.lanes, ps.groups, firstprivate(dd, ps) is_device_ptr(yr, yi, dedr, scr) ompx_dyn_cgroup_mem(team))
  deidrj(&dd, ps, scr, yr, yi, dedr);
}

static void compute_forces(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *dedr = w->dedr;
  LAUNCH(snap_gpu_blocks(snap_force_items(d), w->sh.tpb), w->sh.tpb, firstprivate(dd) is_device_ptr(dedr))
  GRID_LOOP(q, snap_force_items(&dd)) {
    double f[3];
    snap_force_lane(&dd, dedr, q, f);
    for (int off = SNAP_GPU_F_LANES / 2; off > 0; off /= 2)
      for (int k = 0; k < 3; k++) f[k] += ompx_shfl_down_sync_d(~0ull, f[k], off, SNAP_GPU_F_LANES);
    snap_force_store(&dd, q, f);
  }
}

static void compute_energies(const snap_data *d, void *p) {
  work *w = p;
  const snap_data dd = *d;
  const double *ur = w->ur, *ui = w->ui, *yr = w->yr, *yi = w->yi;
  const int tpb = w->sh.e_tpb;
  LAUNCH(snap_gpu_blocks(snap_energy_teams(d) * tpb, tpb), tpb, firstprivate(dd) is_device_ptr(ur, ui, yr, yi)
         ompx_dyn_cgroup_mem(tpb * (int)sizeof(double))) {
    double *part = (double *)llvm_omp_target_dynamic_shared_alloc();
    const int th = ompx_thread_id_x(), nth = ompx_block_dim_x();
    for (long t = ompx_block_id_x(); t < snap_energy_teams(&dd); t += ompx_grid_dim_x()) {
      part[th] = snap_energy_rows(&dd, t, th, nth, ur, ui, yr, yi);
      ompx_sync_block_acq_rel();
      snap_energy_store(&dd, t, th, nth, part);
      ompx_sync_block_acq_rel();
    }
  }
}

/* ---- scratch -------------------------------------------------------------------------- */

static void release(void *p) {
  work *w = p;
  if (!w) return;
  void *a[] = {w->ur, w->ui, w->yr, w->yi, w->uar, w->uai, w->dedr, w->scr_ui, w->scr_de, w->dck};
  for (size_t k = 0; k < sizeof a / sizeof *a; k++) pp_omp_free(a[k]);
  free(w);
}

static void *prepare(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  snap_gpu_shape sh;
  if (snap_gpu_shape_of(d, v, &sh, why, len)) return NULL;
  work *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->sh = sh;
  const size_t nu = (size_t)snap_tiled_len(d) * sizeof(double);
  w->ur = pp_omp_alloc(nu), w->ui = pp_omp_alloc(nu), w->yr = pp_omp_alloc(nu), w->yi = pp_omp_alloc(nu);
  w->uar = pp_omp_alloc((size_t)d->natoms * d->t.idxu_half * sizeof(double));
  w->uai = pp_omp_alloc((size_t)d->natoms * d->t.idxu_half * sizeof(double));
  w->dedr = pp_omp_alloc((size_t)d->natoms * d->nmax * 3 * sizeof(double));
  /* Y's mirrored half is never written (nor read): zero it once. */
  double *yr = w->yr, *yi = w->yi;
  const long ny = snap_tiled_len(d);
#pragma omp target teams distribute parallel for device(pp_omp_device) is_device_ptr(yr, yi)
  for (long q = 0; q < ny; q++) yr[q] = yi[q] = 0.0;
  if (sh.de_split) w->dck = pp_omp_alloc((size_t)sh.split_chunk * SNAP_TILE * d->nmax * sizeof(snap_dck));
  if (!sh.team_scratch) {
    w->scr_ui = pp_omp_alloc((size_t)sh.ui.teams * sh.ui.groups * sh.ui.elems * sizeof(snap_c));
    w->scr_de = pp_omp_alloc((size_t)sh.de.teams * sh.de.groups * sh.de.elems * sizeof(snap_c));
  }
  return w;
}

static const snap_kernels kernels = {
    .check = snap_gpu_check,
    .prepare = prepare,
    .release = release,
    .compute_ui = compute_ui,
    .compute_yi = compute_yi,
    .compute_deidrj = compute_deidrj,
    .compute_forces = compute_forces,
    .compute_energies = compute_energies,
    .notes = "kernel mode (ompx_bare), the kernels and shapes of cuda: U/Y element-major; compute_ui and compute_deidrj "
        "level by level through two level buffers per (atom, neighbour), 32 lanes per neighbour (3 levels) or one "
        "thread (2 levels), buffers in ompx_dyn_cgroup_mem (team) or global; U_i by atomic adds; "
        "compute_yi one thread per (atom, pair of Y elements) over their Z elements, tiles of 32 atoms x 4 elements per "
        "128-thread team (collapsed) or a team per atom (nested); "
        "forces gathered (8 threads per atom), energies through Y (a team per 16 atoms); --deidrj split: a thread per (pair, component, diagonal of rows), one "
        "row of U and dU each in ompx_dyn_cgroup_mem, atomic adds",
};

const snap_kernels *snap_kernels_ompx(void) { return &kernels; }
