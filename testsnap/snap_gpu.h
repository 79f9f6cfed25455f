/* GPU-only helpers of the cuda/hip and ompx models (kernels/cuda.cu,
 * kernels/ompx.c): one algorithm, one set of launch shapes, one scratch, so
 * that the two compare the programming model, not the mapping. The omp model
 * takes compute_forces' and compute_energies' mappings from here too. */
#ifndef SNAP_GPU_H
#define SNAP_GPU_H
#include <stdio.h>
#include "snap_tiled.h"
PP_EXTERN_C_BEGIN

/* ---- launch shapes ------------------------------------------------------------------ */
#define SNAP_GPU_TPB 128            /* threads per team by default */
/* compute_yi's tile kernel: 8 warps per team, one atom tile and 8 of its Y
 * elements, so that a team's warps read the same tile's U through L1 (16
 * warps were slower in cuda and ompx; see docs/performance.md, testsnap). */
#define SNAP_GPU_YI_TPB 256
#define SNAP_GPU_LANES 32           /* lanes sharing one neighbour (3 levels) */
#define SNAP_GPU_TEAM_BYTES 49152   /* team memory a kernel gets without an opt-in */
#define SNAP_GPU_MAX_TEAMS 2048     /* pair kernels: teams launched (grid-stride beyond) */
#define SNAP_GPU_SCRATCH_MAX (512.0 * 1048576.0) /* global level buffers, bytes */
#define SNAP_GPU_SPLIT_WARPS 2      /* --deidrj split: warps per team (Kokkos_V2's team of 2 x 32) */
/* compute_energies: one launch, a team of 1024 per 16 atoms, its 64 row slots
 * over the rows: the largest team was the fastest, and the atoms per team or
 * an unrolled row loop did not matter (see docs/performance.md, testsnap). */
#define SNAP_GPU_E_TPB 1024
#define SNAP_GPU_E_ATOMS 16
#define SNAP_GPU_F_LANES 8          /* compute_forces: threads sharing one atom's terms */

/* One pair kernel (compute_ui or compute_deidrj): `groups` neighbours per
 * team, `lanes` threads each, level buffers of `elems` snap_c per group in
 * team memory or in a global array of teams * groups * elems. */
typedef struct snap_pair_shape {
  int groups, lanes, teams;
  long elems;
} snap_pair_shape;
typedef struct snap_gpu_shape {
  int tpb;                 /* threads per team of the 1-D kernels (init, forces, energies, nested yi) */
  int yi_tpb;              /* threads per team of compute_yi's tile kernel */
  int e_tpb;               /* threads per team of compute_energies (SNAP_GPU_E_ATOMS atoms per team) */
  int team_scratch;        /* 1: level buffers in team memory (level 0), 0: global (level 1) */
  int yi_collapsed;
  snap_pair_shape ui, de;
  int de_split;            /* --deidrj split: a thread per (pair, component, diagonal) */
  int split_warps;         /* its warps per team (a row of U and dU per thread in team memory) */
  long split_chunk;        /* its atom tiles per chunk (snap_split_chunk) */
} snap_gpu_shape;

/* --deidrj split's team memory per warp: rows of U and dU, lanes interleaved. */
static inline long snap_gpu_split_bytes(const snap_data *d) {
  return 2L * (d->t.twojmax + 1) * SNAP_TILE * (long)sizeof(snap_c);
}

/* The shape of variant v on d: 0, or -1 with the reason in why. */
static inline int snap_gpu_shape_of(const snap_data *d, const snap_variant *v, snap_gpu_shape *s, char *why,
                                    size_t len) {
  const long npairs = (long)d->natoms * d->nmax, lvl = snap_level_elems(d->t.twojmax);
  const int levels = v->levels ? v->levels : 3;
  s->tpb = v->team_size ? v->team_size : SNAP_GPU_TPB;
  s->yi_tpb = v->team_size ? v->team_size : SNAP_GPU_YI_TPB;
  s->e_tpb = v->team_size ? v->team_size : SNAP_GPU_E_TPB;
  s->team_scratch = v->scratch != SNAP_SCRATCH_GLOBAL;
  s->yi_collapsed = v->yi_collapsed != 0;
  /* split by default (snap_kernels.h), levels where asked or where a level-form
   * option (--scratch global, --levels 2) was asked without --deidrj */
  const int level_form = v->scratch == SNAP_SCRATCH_GLOBAL || v->levels == 2;
  s->de_split = snap_deidrj_split(v, !level_form);
  s->split_warps = SNAP_GPU_SPLIT_WARPS;
  while (s->split_warps > 1 && s->split_warps * snap_gpu_split_bytes(d) > SNAP_GPU_TEAM_BYTES) s->split_warps--;
  s->split_chunk = snap_split_chunk(d);
  if (s->de_split && level_form) {
    snprintf(why, len, "--deidrj split keeps one row of U and dU per thread in team memory, lanes over the atoms "
             "of a tile: no --scratch global or --levels 2 form");
    return -1;
  }
  if (s->tpb % SNAP_GPU_LANES) {
    snprintf(why, len, "--team-size %d: a multiple of %d is needed (lanes of one neighbour)", s->tpb, SNAP_GPU_LANES);
    return -1;
  }
  for (int q = 0; q < 2; q++) {
    snap_pair_shape *p = q ? &s->de : &s->ui;
    p->elems = (q ? 8 : 2) * lvl; /* U (and dU) of levels j-1 and j */
    const double bytes = (double)p->elems * sizeof(snap_c);
    p->lanes = levels == 3 ? SNAP_GPU_LANES : 1;
    p->groups = s->tpb / p->lanes;
    if (levels == 3)
      while (p->groups > 1 && p->groups * bytes > SNAP_GPU_TEAM_BYTES) p->groups--;
    if (s->team_scratch && p->groups * bytes > SNAP_GPU_TEAM_BYTES) {
      snprintf(why, len, "%s with %d level(s) of hierarchy needs %.0f KiB of team memory per team (%d neighbours "
               "of %.1f KiB), over %d KiB: use --scratch global", q ? "compute_deidrj" : "compute_ui", levels,
               p->groups * bytes / 1024.0, p->groups, bytes / 1024.0, SNAP_GPU_TEAM_BYTES / 1024);
      return -1;
    }
    long teams = (npairs + p->groups - 1) / p->groups;
    if (teams > SNAP_GPU_MAX_TEAMS) teams = SNAP_GPU_MAX_TEAMS;
    while (!s->team_scratch && teams > 1 && teams * p->groups * bytes > SNAP_GPU_SCRATCH_MAX) teams /= 2;
    p->teams = teams < 1 ? 1 : (int)teams;
  }
  return 0;
}

/* The model's `check`: can variant v be shaped on d (nothing allocated)? */
static inline int snap_gpu_check(const snap_data *d, const snap_variant *v, char *why, size_t len) {
  snap_gpu_shape s;
  return snap_gpu_shape_of(d, v, &s, why, len);
}

PP_BEGIN_DEVICE
/* 3-level compute_ui (cuda, ompx): U_i summed atom-major over its computed
 * half, (uar, uai)[i * idxu_half + h], h = snap_half_index, so that the 32
 * lanes of one neighbour add into neighbouring words (a few atomic
 * transactions per warp rather than one per lane); then spread into the
 * tiled layout with the mirrored half. */
PP_HD static inline int snap_half_index(int j, int ma, int mb) {
  int h = 0;
  for (int l = 0; l < j; l++) h += snap_level_half(l);
  return h + mb * (j + 1) + ma;
}
/* Word q of the atom-major sum: the self term. */
PP_HD static inline void snap_uacc_init_item(const snap_data *d, long q, double *uar, double *uai) {
  int h = (int)(q % d->t.idxu_half), j = 0;
  while (h >= snap_level_half(j)) h -= snap_level_half(j), j++;
  uar[q] = h / (j + 1) == h % (j + 1) ? d->wself : 0.0;
  uai[q] = 0.0;
}
/* Word q of the tiled U_i from the atom-major sum (padding atoms: zero). */
PP_HD static inline void snap_ui_spread_item(const snap_data *d, long q, const double *uar, const double *uai,
                                             double *ur, double *ui) {
  const int e = (int)((q / SNAP_TILE) % d->t.idxu_max);
  const int i = (int)(q / ((long)SNAP_TILE * d->t.idxu_max)) * SNAP_TILE + (int)(q % SNAP_TILE);
  if (i >= d->natoms) {
    ur[q] = ui[q] = 0.0;
    return;
  }
  const snap_jm m = snap_uidx_split(e);
  const int mirrored = 2 * m.mb > m.j;
  const long src = (long)i * d->t.idxu_half +
                   (mirrored ? snap_half_index(m.j, m.j - m.ma, m.j - m.mb) : snap_half_index(m.j, m.ma, m.mb));
  const snap_c v = {uar[src], uai[src]};
  const snap_c u = mirrored ? snap_u_mirror(m.ma, m.mb, v) : v;
  ur[q] = u.r, ui[q] = u.i;
}

/* compute_energies through Y (snap_tiled_energy) in one launch: a team per
 * SNAP_GPU_E_ATOMS atoms of a tile (lane = atom: a half-warp reads 128
 * neighbouring bytes), its row slots over the rows (j, mb) of the computed
 * half, row r to slot r % slots; the slots' sums meet in team memory
 * (part[slot * SNAP_GPU_E_ATOMS + lane]) and slot 0 adds them in slot order. */
PP_HD static inline long snap_energy_teams(const snap_data *d) {
  return (snap_tiles(d) * SNAP_TILE + SNAP_GPU_E_ATOMS - 1) / SNAP_GPU_E_ATOMS;
}
PP_HD static inline double snap_energy_rows(const snap_data *d, long team, int thread, int threads,
                                            const double *ur, const double *ui, const double *yr,
                                            const double *yi) {
  const int slot = thread / SNAP_GPU_E_ATOMS, slots = threads / SNAP_GPU_E_ATOMS;
  const long b = snap_tiled_base(d, (int)(team * SNAP_GPU_E_ATOMS + thread % SNAP_GPU_E_ATOMS));
  double e = 0.0;
  int row = 0;
  for (int j = 0; j <= d->t.twojmax; j++)
    for (int mb = 0; 2 * mb <= j; mb++, row++) {
      if (row % slots != slot) continue;
      for (int ma = 0; ma <= j; ma++) {
        const long w = b + (long)snap_uidx(j, ma, mb) * SNAP_TILE;
        const snap_c u = {ur[w], ui[w]}, y = {yr[w], yi[w]};
        e += snap_energy_term(j, ma, mb, u, y);
      }
    }
  return e;
}
/* Thread `thread` < SNAP_GPU_E_ATOMS of the team: its atom's energy. */
PP_HD static inline void snap_energy_store(const snap_data *d, long team, int thread, int threads,
                                           const double *part) {
  const long i = team * SNAP_GPU_E_ATOMS + thread;
  if (thread >= SNAP_GPU_E_ATOMS || i >= d->natoms) return;
  double e = d->e0;
  for (int s = 0; s < threads / SNAP_GPU_E_ATOMS; s++) e += part[s * SNAP_GPU_E_ATOMS + thread];
  d->energy[i] = e;
}

/* compute_forces with SNAP_GPU_F_LANES threads per atom (the gather of
 * snap_force_gather, 16 teams of 128 for 2000 atoms, left most of the GPU
 * idle): lane l takes every lanes-th term; the lanes' sums are added by
 * shuffles, a fixed order. Items run over whole warps (snap_force_items) so
 * that every lane of a warp reaches the shuffles. */
PP_HD static inline long snap_force_items(const snap_data *d) {
  return ((long)d->nall * SNAP_GPU_F_LANES + 31) / 32 * 32;
}
PP_HD static inline void snap_force_lane(const snap_data *d, const double *dedr, long q, double f[3]) {
  const int a = (int)(q / SNAP_GPU_F_LANES), l = (int)(q % SNAP_GPU_F_LANES);
  f[0] = f[1] = f[2] = 0.0;
  if (a >= d->nall) return;
  if (a < d->natoms)
    for (int jj = l; jj < d->nneigh[a]; jj += SNAP_GPU_F_LANES)
      for (int k = 0; k < 3; k++) f[k] += dedr[((long)a * d->nmax + jj) * 3 + k];
  for (int q2 = d->rev_start[a] + l; q2 < d->rev_start[a + 1]; q2 += SNAP_GPU_F_LANES)
    for (int k = 0; k < 3; k++) f[k] -= dedr[(long)d->rev_pair[q2] * 3 + k];
}
/* After the shuffles: lane 0 of the atom stores its force. */
PP_HD static inline void snap_force_store(const snap_data *d, long q, const double f[3]) {
  const long a = q / SNAP_GPU_F_LANES;
  if (q % SNAP_GPU_F_LANES || a >= d->nall) return;
  for (int k = 0; k < 3; k++) d->force[3 * a + k] = f[k];
}
PP_END_DEVICE

/* The GPU models' scratch: cuda/hip and ompx run one algorithm in one layout. */
typedef struct snap_gpu_work {
  snap_gpu_shape sh;
  double *ur, *ui, *yr, *yi; /* [snap_tiled_len] */
  double *uar, *uai;         /* [natoms * idxu_half]: compute_ui's atom-major sums */
  double *dedr;              /* [natoms * nmax * 3] */
  snap_c *scr_ui, *scr_de;   /* global level buffers (--scratch global) */
  snap_dck *dck;             /* --deidrj split: [split_chunk * SNAP_TILE * nmax] */
} snap_gpu_work;

/* Blocks/teams of a flat launch over n items, tpb per block (capped; the
 * kernels stride over what the grid does not cover). */
static inline int snap_gpu_blocks(long n, int tpb) {
  const long b = (n + tpb - 1) / tpb;
  return b < 1 ? 1 : b > 65535L * 32 ? 65535 * 32 : (int)b;
}

PP_EXTERN_C_END
#endif
