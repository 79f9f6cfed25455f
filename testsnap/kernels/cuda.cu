/* testsnap, native model, written once in CUDA dialect (pp/gpu_native.h):
 * nvcc builds it as cuda, hipcc as hip (kernels/hip.hip). The kernels and
 * launch shapes (snap_gpu_shape_of in snap_gpu.h) are those of kernels/ompx.c.
 * Layout: U_i and Y_i in tiles of 32 atoms, element-major inside a tile
 * (snap_tiled_base in snap_tiled.h): neighbouring threads of compute_yi
 * (neighbouring atoms) read neighbouring words, and the element stride is a
 * compile-time constant.
 * - compute_ui: a team holds `groups` (atom, neighbour) pairs of
 *   `lanes` threads each (3 levels: 32 lanes over the elements of one level
 *   of the recursion; 2 levels: one thread per pair); the recursion goes
 *   level by level through two level buffers in team memory (--scratch team)
 *   or global memory (--scratch global); each element's sfac * U is added
 *   atomically to an atom-major sum of the computed half (the lanes' adds
 *   land on neighbouring words), spread afterwards into the tiled U_i with
 *   the mirrored half.
 * - compute_yi: one thread per (atom, pair of Y elements along ma) summing
 *   every Z element of the two (snap_y_pair: each U element loaded once for
 *   both), no atomics; collapsed: a flat launch of blocks of 4 warps = 32
 *   atoms x 4 items (snap_yi_tile_item); nested: a
 *   block per atom, threads over its elements.
 * - compute_deidrj: as compute_ui, the dU recursion through level buffers,
 *   each lane's terms of dE_i/dr_j summed, then over lanes by shuffles.
 *   --deidrj split (TestSNAP Kokkos_V2's mapping): per chunk of atom tiles,
 *   one thread per pair computes its snap_dck (and zeroes its dE_i/dr_j),
 *   then one thread per (pair, component, diagonal) walks one row of U and
 *   of that component of dU in team memory (lanes = the 32 atoms of a tile,
 *   interleaved: element ma of lane l at ma * 32 + l), SNAP_GPU_SPLIT_WARPS
 *   warps per team, no barriers; its part added atomically.
 * - forces: SNAP_GPU_F_LANES threads per atom gather through the reverse
 *   index, their sums added by shuffles.
 * - energies: through Y, a team per 16 atoms of a tile, its threads over the rows. */
#include <stdlib.h>
#include "pp/gpu_native.h"
#include "snap_gpu.h"

#ifdef PP_NATIVE_HIP
#define TS_TABLE_GETTER snap_kernels_hip
#define SHFL_DOWN_W(v, off, w) __shfl_down((v), (off), (w))
#else
#define TS_TABLE_GETTER snap_kernels_cuda
#define SHFL_DOWN_W(v, off, w) __shfl_down_sync(0xffffffffu, (v), (off), (w))
#endif

typedef snap_gpu_work work;

#define GRID_LOOP(q, n) \
  for (long q = (long)blockIdx.x * blockDim.x + threadIdx.x; q < (n); q += (long)gridDim.x * blockDim.x)

/* ---- compute_ui ----------------------------------------------------------------- */
__global__ void k_ui_init(const snap_data d, double *__restrict__ uar, double *__restrict__ uai) {
  GRID_LOOP(q, (long)d.natoms * d.t.idxu_half) snap_uacc_init_item(&d, q, uar, uai);
}

/* The level buffers of this team's group g. */
__device__ __forceinline__ snap_c *group_buf(snap_c *global, int g, int groups, long elems) {
  extern __shared__ snap_c team_mem[];
  return global ? global + ((long)blockIdx.x * groups + g) * elems : team_mem + g * elems;
}

__global__ void k_ui_pairs(const snap_data d, snap_pair_shape s, snap_c *scr, double *uar, double *uai) {
  const int g = threadIdx.x / s.lanes, lane = threadIdx.x % s.lanes;
  const long npairs = (long)d.natoms * d.nmax, lvl = snap_level_elems(d.t.twojmax);
  snap_c *buf = group_buf(scr, g, s.groups, s.elems);
  for (long base = (long)blockIdx.x * s.groups; base < npairs; base += (long)gridDim.x * s.groups) {
    int i;
    const long p = snap_pair_slot(&d, base + g, &i);
    const bool on = p >= 0;
    snap_ck c = {0.0, 0.0, 0.0, 0.0, 0.0};
    if (on) c = snap_ck_of(&d, d.rij + p * 3);
    long h0 = (long)i * d.t.idxu_half; /* this level's first word in the atom-major sums */
    for (int j = 0; j <= d.t.twojmax; h0 += snap_level_half(j), j++) {
      snap_c *cur = buf + (j & 1) * lvl, *prev = buf + ((j & 1) ^ 1) * lvl;
      if (on)
        for (int k = lane; k < snap_level_half(j); k += s.lanes) {
          const snap_c u = snap_u_level_elem(&d.t, &c, j, k, prev, cur);
          atomicAdd(uar + h0 + k, c.sfac * u.r);
          atomicAdd(uai + h0 + k, c.sfac * u.i);
        }
      __syncthreads();
      if (j & 1) {
        if (on)
          for (int ma = lane; ma <= j; ma += s.lanes) snap_level_mirror(j, ma, cur, NULL);
        __syncthreads();
      }
    }
  }
}

__global__ void k_ui_spread(const snap_data d, const double *__restrict__ uar, const double *__restrict__ uai,
                            double *__restrict__ ur, double *__restrict__ ui) {
  GRID_LOOP(q, snap_tiled_len(&d)) snap_ui_spread_item(&d, q, uar, uai, ur, ui);
}

static void compute_ui(const snap_data *d, void *p) {
  work *w = (work *)p;
  const snap_gpu_shape *s = &w->sh;
  const long n = snap_tiled_len(d), nh = (long)d->natoms * d->t.idxu_half;
  k_ui_init<<<snap_gpu_blocks(nh, s->tpb), s->tpb>>>(*d, w->uar, w->uai);
  PP_GPU_CHECK_LAUNCH("k_ui_init");
  const size_t team = s->team_scratch ? s->ui.groups * s->ui.elems * sizeof(snap_c) : 0;
  k_ui_pairs<<<s->ui.teams, s->ui.groups * s->ui.lanes, team>>>(*d, s->ui, s->team_scratch ? NULL : w->scr_ui,
                                                                 w->uar, w->uai);
  PP_GPU_CHECK_LAUNCH("k_ui_pairs");
  k_ui_spread<<<snap_gpu_blocks(n, s->tpb), s->tpb>>>(*d, w->uar, w->uai, w->ur, w->ui);
  PP_GPU_CHECK_LAUNCH("k_ui_spread");
}

/* ---- compute_yi ------------------------------------------------------------------ */
__global__ void k_yi_tiles(const snap_data d, const double *__restrict__ ur, const double *__restrict__ ui,
                           double *__restrict__ yr, double *__restrict__ yi) {
  const int wpb = blockDim.x / SNAP_TILE, w = threadIdx.x / SNAP_TILE, lane = threadIdx.x % SNAP_TILE;
  const long nb = snap_yi_tile_blocks(&d, wpb);
  for (long b = blockIdx.x; b < nb; b += gridDim.x) snap_yi_tile_item(&d, b, w, wpb, lane, ur, ui, yr, yi);
}

__global__ void k_yi_nested(const snap_data d, const double *__restrict__ ur, const double *__restrict__ ui,
                            double *__restrict__ yr, double *__restrict__ yi) {
  for (int i = blockIdx.x; i < d.natoms; i += gridDim.x)
    for (int h = threadIdx.x; h < d.t.idxy_items; h += blockDim.x) snap_yi_atom_item(&d, i, h, ur, ui, yr, yi);
}

static void compute_yi(const snap_data *d, void *p) {
  work *w = (work *)p;
  const int tpb = w->sh.tpb;
  if (w->sh.yi_collapsed) {
    const int ytpb = w->sh.yi_tpb;
    const long nb = snap_yi_tile_blocks(d, ytpb / SNAP_TILE);
    k_yi_tiles<<<snap_gpu_blocks(nb * ytpb, ytpb), ytpb>>>(*d, w->ur, w->ui, w->yr, w->yi);
  } else {
    k_yi_nested<<<snap_gpu_blocks((long)d->natoms * tpb, tpb), tpb>>>(*d, w->ur, w->ui, w->yr, w->yi);
  }
  PP_GPU_CHECK_LAUNCH("k_yi");
}

/* ---- compute_deidrj ----------------------------------------------------------------- */
__global__ void k_deidrj(const snap_data d, snap_pair_shape s, snap_c *scr, const double *__restrict__ yr,
                         const double *__restrict__ yi, double *__restrict__ dedr) {
  const int g = threadIdx.x / s.lanes, lane = threadIdx.x % s.lanes;
  const long npairs = (long)d.natoms * d.nmax, lvl = snap_level_elems(d.t.twojmax);
  snap_c *buf = group_buf(scr, g, s.groups, s.elems);
  for (long base = (long)blockIdx.x * s.groups; base < npairs; base += (long)gridDim.x * s.groups) {
    int i;
    const long p = snap_pair_slot(&d, base + g, &i);
    const bool on = p >= 0;
    snap_dck gr;
    if (on) gr = snap_dck_of(&d, d.rij + p * 3);
    double acc[3] = {0.0, 0.0, 0.0};
    for (int j = 0; j <= d.t.twojmax; j++) {
      const int c = j & 1;
      snap_c *cur = buf + c * lvl, *prev = buf + (c ^ 1) * lvl;
      snap_c *dcur = buf + 2 * lvl + 3 * c * lvl, *dprev = buf + 2 * lvl + 3 * (c ^ 1) * lvl;
      if (on)
        for (int k = lane; k < snap_level_half(j); k += s.lanes)
          snap_dedr_level_elem(&d.t, &gr, j, k, prev, dprev, cur, dcur, yr + snap_tiled_base(&d, i),
                               yi + snap_tiled_base(&d, i), SNAP_TILE, acc);
      __syncthreads();
      if (j & 1) {
        if (on)
          for (int ma = lane; ma <= j; ma += s.lanes) snap_level_mirror(j, ma, cur, dcur);
        __syncthreads();
      }
    }
    for (int off = s.lanes / 2; off > 0; off /= 2)
      for (int k = 0; k < 3; k++) acc[k] += SHFL_DOWN_W(acc[k], off, SNAP_GPU_LANES);
    if (on && lane == 0)
      for (int k = 0; k < 3; k++) dedr[p * 3 + k] = acc[k];
  }
}

__global__ void k_split_dck(const snap_data d, long t0, long n, snap_dck *__restrict__ dck, double *__restrict__ dedr) {
  GRID_LOOP(q, n) snap_split_dck_item(&d, t0, q, dck, dedr);
}

__global__ void k_deidrj_split(const snap_data d, long t0, long nt, const snap_dck *__restrict__ dck,
                               const double *__restrict__ yr, const double *__restrict__ yi, double *dedr) {
  extern __shared__ snap_c team_mem[];
  const int lane = threadIdx.x % SNAP_TILE, wb = threadIdx.x / SNAP_TILE, wpb = blockDim.x / SNAP_TILE;
  const int row = d.t.twojmax + 1;
  snap_c *u = team_mem + (long)wb * 2 * row * SNAP_TILE + lane, *du = u + (long)row * SNAP_TILE;
  const long nw = snap_split_warps(&d, nt);
  for (long v = (long)blockIdx.x * wpb + wb; v < nw; v += (long)gridDim.x * wpb) {
    int dim, bend;
    long c;
    const long p = snap_split_slot(&d, t0, nt, v, lane, &dim, &bend, &c);
    if (p < 0) continue;
    const snap_dck1 g = snap_dck_dim(dck + c, dim);
    const long b = snap_tiled_base(&d, (int)(p / d.nmax));
    atomicAdd(dedr + 3 * p + dim, snap_dedr_path(&d.t, &g, bend, u, du, SNAP_TILE, yr + b, yi + b, SNAP_TILE));
  }
}

static void compute_deidrj(const snap_data *d, void *p) {
  work *w = (work *)p;
  const snap_gpu_shape *s = &w->sh;
  if (s->de_split) {
    const int tpb = s->split_warps * SNAP_TILE;
    const size_t team = (size_t)s->split_warps * snap_gpu_split_bytes(d);
    for (long t0 = 0; t0 < snap_tiles(d); t0 += s->split_chunk) {
      const long nt = snap_tiles(d) - t0 < s->split_chunk ? snap_tiles(d) - t0 : s->split_chunk;
      const long n = nt * SNAP_TILE * d->nmax, nw = snap_split_warps(d, nt);
      k_split_dck<<<snap_gpu_blocks(n, s->tpb), s->tpb>>>(*d, t0, n, w->dck, w->dedr);
      PP_GPU_CHECK_LAUNCH("k_split_dck");
      k_deidrj_split<<<snap_gpu_blocks(nw * SNAP_TILE, tpb), tpb, team>>>(*d, t0, nt, w->dck, w->yr, w->yi, w->dedr);
      PP_GPU_CHECK_LAUNCH("k_deidrj_split");
    }
    return;
  }
  const size_t team = s->team_scratch ? s->de.groups * s->de.elems * sizeof(snap_c) : 0;
  k_deidrj<<<s->de.teams, s->de.groups * s->de.lanes, team>>>(*d, s->de, s->team_scratch ? NULL : w->scr_de,
                                                               w->yr, w->yi, w->dedr);
  PP_GPU_CHECK_LAUNCH("k_deidrj");
}

/* ---- forces, energies --------------------------------------------------------------- */
__global__ void k_forces(const snap_data d, const double *__restrict__ dedr) {
  GRID_LOOP(q, snap_force_items(&d)) {
    double f[3];
    snap_force_lane(&d, dedr, q, f);
    for (int off = SNAP_GPU_F_LANES / 2; off > 0; off /= 2)
      for (int k = 0; k < 3; k++) f[k] += SHFL_DOWN_W(f[k], off, SNAP_GPU_F_LANES);
    snap_force_store(&d, q, f);
  }
}

__global__ void __launch_bounds__(SNAP_GPU_E_TPB) k_energies(const snap_data d, const double *__restrict__ ur,
                                                             const double *__restrict__ ui,
                                                             const double *__restrict__ yr,
                                                             const double *__restrict__ yi) {
  extern __shared__ double part[];
  for (long t = blockIdx.x; t < snap_energy_teams(&d); t += gridDim.x) {
    part[threadIdx.x] = snap_energy_rows(&d, t, threadIdx.x, blockDim.x, ur, ui, yr, yi);
    __syncthreads();
    snap_energy_store(&d, t, threadIdx.x, blockDim.x, part);
    __syncthreads();
  }
}

static void compute_forces(const snap_data *d, void *p) {
  work *w = (work *)p;
  k_forces<<<snap_gpu_blocks(snap_force_items(d), w->sh.tpb), w->sh.tpb>>>(*d, w->dedr);
  PP_GPU_CHECK_LAUNCH("k_forces");
}

static void compute_energies(const snap_data *d, void *p) {
  work *w = (work *)p;
  const int tpb = w->sh.e_tpb;
  k_energies<<<snap_gpu_blocks(snap_energy_teams(d) * tpb, tpb), tpb, tpb * sizeof(double)>>>(*d, w->ur, w->ui, w->yr,
                                                                                      w->yi);
  PP_GPU_CHECK_LAUNCH("k_energies");
}

/* ---- scratch -------------------------------------------------------------------------- */
template <typename T>
static bool dalloc(T **p, size_t n) {
  *p = NULL;
  return gpuMalloc((void **)p, (n ? n : 1) * sizeof(T)) == gpuSuccess;
}

static void release(void *p) {
  work *w = (work *)p;
  if (!w) return;
  void *a[] = {w->ur, w->ui, w->yr, w->yi, w->uar, w->uai, w->dedr, w->scr_ui, w->scr_de, w->dck};
  for (size_t k = 0; k < sizeof a / sizeof *a; k++)
    if (a[k]) gpuFree(a[k]);
  free(w);
}

static void *prepare(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  snap_gpu_shape sh;
  if (snap_gpu_shape_of(d, v, &sh, why, len)) return NULL;
  work *w = (work *)calloc(1, sizeof *w);
  if (!w) return NULL;
  w->sh = sh;
  const size_t nu = (size_t)snap_tiled_len(d);
  const size_t nh = (size_t)d->natoms * d->t.idxu_half;
  bool ok = dalloc(&w->ur, nu) && dalloc(&w->ui, nu) && dalloc(&w->yr, nu) && dalloc(&w->yi, nu) &&
            dalloc(&w->uar, nh) && dalloc(&w->uai, nh) &&
            dalloc(&w->dedr, (size_t)d->natoms * d->nmax * 3);
  /* Y's mirrored half is never written (nor read): zero it once. */
  if (ok) ok = gpuMemset(w->yr, 0, nu * sizeof(double)) == gpuSuccess && gpuMemset(w->yi, 0, nu * 8) == gpuSuccess;
  if (ok && !sh.team_scratch)
    ok = dalloc(&w->scr_ui, (size_t)sh.ui.teams * sh.ui.groups * sh.ui.elems) &&
         dalloc(&w->scr_de, (size_t)sh.de.teams * sh.de.groups * sh.de.elems);
  if (ok && sh.de_split) ok = dalloc(&w->dck, (size_t)sh.split_chunk * SNAP_TILE * d->nmax);
  if (!ok) {
    (void)gpuGetLastError(); /* clear the failed allocation */
    release(w);
    return NULL;
  }
  return w;
}

static const snap_kernels table = {
    .check = snap_gpu_check,
    .prepare = prepare,
    .release = release,
    .compute_ui = compute_ui,
    .compute_yi = compute_yi,
    .compute_deidrj = compute_deidrj,
    .compute_forces = compute_forces,
    .compute_energies = compute_energies,
    .notes = "native: U/Y element-major; compute_ui and compute_deidrj level by level through two level buffers per "
        "(atom, neighbour), 32 lanes per neighbour (3 levels) or one thread (2 levels), buffers in shared "
        "memory (team) or global; U_i by atomic adds; compute_yi one thread per (atom, pair of Y elements) "
        "over its Z elements, flattened in tiles of 32 atoms x 4 elements per 128-thread block (collapsed) or a block "
        "per atom (nested); forces gathered (8 threads per atom), energies through Y (a team per 16 atoms); --deidrj split: a thread per (pair, component, "
        "diagonal of rows), one row of U and dU each in shared memory, atomic adds",
};

extern "C" const snap_kernels *TS_TABLE_GETTER(void) { return &table; }
