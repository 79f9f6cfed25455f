/* testsnap's kernel interface: the data every model reads and writes, and
 * the table of kernels a model provides. SNAP energies and forces (Thompson
 * et al. 2015; the algorithm of LAMMPS's ML-SNAP and FitSNAP's TestSNAP),
 * one element, linear SNAP, on every model.
 *
 * Per atom i with neighbours j (r_ij = x_j - x_i, |r_ij| < rcut):
 *   U_i   = wself * I + sum_j sfac(r_ij) w_j U(r_ij)       compute_ui
 *   Z_i   = Clebsch-Gordan products of two U_i blocks       (inside yi)
 *   Y_i   = sum over Z elements of zbeta * Z_i              compute_yi
 *   dE_i/dr_j = 2 Re sum_half dU(r_ij) : conj(Y_i)          compute_deidrj
 *   F_i += dE_i/dr_j, F_j -= dE_i/dr_j  (LAMMPS's sign)     compute_forces
 *   E_i = e0 + sum_k beta_k B_k,i = e0 + (2/3) sum_half U_i : conj(Y_i)
 *                                                         compute_energies
 * (B is cubic in U, so U : dE/dU = 3 E_B; e0 = beta0 - bzero terms.)
 * "sum_half" runs over the U elements (j, ma, mb) with 2 mb <= j, weighted
 * by snap_half_weight(); the other half follows by U's inversion symmetry.
 *
 * ---- For the authors of kernels/{omp,ompx}.c, cuda.cu, hip.hip ------------
 * A model file defines   const snap_kernels *snap_kernels_<model>(void);
 * (PP_MODEL_DISPATCH(m, snap_kernels_) finds it). The driver uploads one
 * snap_data (tables, neighbour lists, outputs; pointers in the model's
 * memory) and calls, every step, compute_ui, compute_yi, compute_deidrj,
 * compute_forces, compute_energies, each timed alone (device-synchronized).
 * A model owns only its scratch (U_i, Y_i and the pair derivatives dE_i/dr_j,
 * in whatever layout it likes: `prepare` allocates it, at most the driver's
 * estimate of those arrays + SNAP_WORK_BYTES_EXTRA) and the mapping. Every
 * kernel recomputes its outputs from scratch (no accumulation across steps).
 * Variants (snap_variant) are runtime choices: scratch of the U recursion
 * and the dU kernel in team-shared or global memory, 2 or 3 levels of
 * hierarchy, compute_yi collapsed to a 1-D launch or nested, compute_deidrj
 * level by level or split over directions and diagonals. `check` says,
 * without allocating, whether the model can run a variant (the driver asks
 * before anything is computed), and `prepare` refuses the same ones. The
 * math of one item is in snap_math.h (PP_HD, once); the device models'
 * layout in snap_tiled.h, the GPU models' launch shapes in snap_gpu.h. The
 * models do not re-derive any of it.
 * ---------------------------------------------------------------------------*/
#ifndef SNAP_KERNELS_H
#define SNAP_KERNELS_H
#include <stddef.h>
#include "pp/model.h"
#include "pp/portable.h"
PP_EXTERN_C_BEGIN

#define SNAP_TWOJMAX_MAX 24   /* largest 2J accepted (idxz grows as 2J^5) */

/* ---- tables, built once on the host (tables.c) ------------------------------ */
/* One element of Z (j1, j2, j; ma, mb with 2 mb <= j), LAMMPS's layout. */
typedef struct snap_zidx {
  int j1, j2, j;           /* coupled triple, j2 <= j1, |j1-j2| <= j <= j1+j2 */
  int ma1min, ma2max, na;  /* inner (ma) sum: ma1 rises from ma1min, ma2 falls from ma2max */
  int mb1min, mb2max, nb;  /* outer (mb) sum, the same way */
  int jju;                 /* the U/Y element (j, ma, mb) this Z element pairs with */
  int cg;                  /* offset of the (j1, j2, j) Clebsch-Gordan block in cg[] */
} snap_zidx;

/* One bispectrum component B(j1, j2, j), j >= j1 >= j2 (LAMMPS's order). */
typedef struct snap_bidx {
  int j1, j2, j;
  int jjz;                 /* first Z element of (j1, j2, j) */
} snap_bidx;

typedef struct snap_tables {
  int twojmax;
  int idxu_max;            /* U elements: sum over j of (j+1)^2 */
  int idxu_half;           /* U elements with 2 mb <= j (the ones computed) */
  int idxy_items;          /* Y elements ever read, in pairs along ma (snap_yitem_split) */
  int idxz_max;            /* Z elements */
  int idxb_max;            /* bispectrum components (= ncoeff) */
  int idxcg_max;           /* Clebsch-Gordan coefficients */
  const snap_zidx *idxz;   /* [idxz_max] */
  const snap_bidx *idxb;   /* [idxb_max] */
  const double *cg;        /* [idxcg_max] */
  const double *rootpq;    /* [(twojmax+2)^2]: sqrt(p/q) at p*(twojmax+2)+q */
  const double *zbeta;     /* [idxz_max]: factor of Z element jjz in Y (beta, multiplicity) */
  const double *beta;      /* [idxb_max]: beta_k (energies through B, the host model) */
  /* Y by element: the Z blocks (j1, j2, j) that couple into level j are
   * yblk[yblk_start[j] .. yblk_start[j+1]), each the index of the block's
   * first Z element (its element (ma, mb) is that + mb*(j+1) + ma). */
  const int *yblk_start;   /* [twojmax+2] */
  const int *yblk;         /* [idxcg blocks] */
} snap_tables;

/* ---- what the kernels read and write (one memory space) --------------------- */
typedef struct snap_data {
  snap_tables t;
  double rcut, rfac0, rmin0;
  int switchflag;
  double wj;               /* weight of every neighbour (one element) */
  double wself;            /* self term on U's diagonal (1) */
  double e0;               /* beta0 - sum_k beta_k bzero_k */
  int natoms;              /* atoms whose energy is computed */
  int nall;                /* atoms that receive forces (natoms, or + ghosts) */
  int nmax;                /* neighbour slots per atom (longest list) */
  const int *nneigh;       /* [natoms] */
  const int *jatom;        /* [natoms*nmax] neighbour in [0, nall); pair p = i*nmax + jj */
  const double *rij;       /* [natoms*nmax*3] x_j - x_i */
  const int *rev_start;    /* [nall+1] pairs whose neighbour is atom a: */
  const int *rev_pair;     /*   rev_pair[rev_start[a] .. rev_start[a+1]) (ascending) */
  double *energy;          /* [natoms] E_i (eV) */
  double *force;           /* [nall*3] F (eV/A) */
} snap_data;

/* Scratch a model may take beyond U_i, Y_i (all elements, complex, per
 * atom) and dE_i/dr_j (per pair slot), which the driver's memory check
 * counts (main.c). */
#define SNAP_WORK_BYTES_EXTRA (64.0 * 1048576.0)

/* ---- kernel interface ----------------------------------------------------------- */
/* Every field's "default" value means: the model's own best choice. */
enum { SNAP_SCRATCH_DEFAULT = -1, SNAP_SCRATCH_TEAM = 0, SNAP_SCRATCH_GLOBAL = 1 };
/* compute_deidrj's form: the dU recursion level by level (U and the three dU
 * components of a neighbour's whole level shared by its lanes), or split
 * (TestSNAP Kokkos_V2's mapping: one thread per pair, gradient component and
 * diagonal of the half rows, one row of U and dU each; snap_dedr_path). */
enum { SNAP_DEIDRJ_DEFAULT = -1, SNAP_DEIDRJ_LEVELS = 0, SNAP_DEIDRJ_SPLIT = 1 };
typedef struct snap_variant {
  int scratch;       /* U recursion and dU scratch: SNAP_SCRATCH_TEAM (level 0) or _GLOBAL (level 1) */
  int levels;        /* 2: atoms x neighbours; 3: atoms x neighbours x vector lanes; 0: default */
  int yi_collapsed;  /* 1: compute_yi as one flattened (atom, jjz) launch; 0: nested; -1: default */
  int team_size;     /* threads per team, 0: the model's default */
  int deidrj;        /* SNAP_DEIDRJ_LEVELS or _SPLIT; SNAP_DEIDRJ_DEFAULT: split, faster on
                        every GPU model (testsnap/DEIDRJ.md, docs/performance.md); omp under
                        GCC: levels (kernels/omp.c) */
} snap_variant;

/* Whether compute_deidrj runs split: the form asked, else the model's default. */
static inline int snap_deidrj_split(const snap_variant *v, int split_by_default) {
  return v->deidrj == SNAP_DEIDRJ_SPLIT || (v->deidrj == SNAP_DEIDRJ_DEFAULT && split_by_default);
}

/* The kernels of one step, in the order the driver runs them: compute_ui,
 * compute_yi, compute_deidrj, compute_forces, compute_energies. */
#define SNAP_NKERNELS 5

typedef struct snap_kernels {
  /* 0 if the model can run variant v on d, else -1 and why[] says why;
   * allocates nothing, reads only d's sizes (host or device pointers alike). */
  int (*check)(const snap_data *d, const snap_variant *v, char *why, size_t len);
  /* Model scratch for d; NULL with a reason in why[] if the variant is not
   * supported (the driver reports it as not run), NULL alone out of memory. */
  void *(*prepare)(const snap_data *d, const snap_variant *v, char *why, size_t len);
  void (*release)(void *work);
  void (*compute_ui)(const snap_data *d, void *work);
  void (*compute_yi)(const snap_data *d, void *work);
  void (*compute_deidrj)(const snap_data *d, void *work);  /* dU fused with Y: dE_i/dr_j */
  void (*compute_forces)(const snap_data *d, void *work);  /* d->force */
  void (*compute_energies)(const snap_data *d, void *work); /* d->energy */
  const char *notes;       /* how the model maps the kernels (report) */
} snap_kernels;

PP_DECLARE_MODEL_GETTERS(snap_kernels, snap_kernels_)

PP_EXTERN_C_END
#endif
