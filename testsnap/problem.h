/* testsnap, host side: tables, input files, lattice generator, neighbour
 * lists. Bad input prints "testsnap: FILE:LINE: problem" and exits 2. */
#ifndef TESTSNAP_PROBLEM_H
#define TESTSNAP_PROBLEM_H
#include <stdint.h>
#include "snap_kernels.h"

/* ---- the SNAP potential (input.c) ------------------------------------------- */
typedef struct snap_potential {
  double rcutfac, rfac0, rmin0;
  int twojmax, switchflag, bzeroflag;
  double radius, weight;   /* of the one element (.snapcoeff) */
  double rcut;             /* pair cutoff rcutfac * (radius + radius) */
  int ncoeff;              /* bispectrum coefficients, beta0 not counted */
  double beta0;
  double beta[1];          /* [ncoeff], allocated with the struct */
} snap_potential;

/* ---- tables.c ------------------------------------------------------------------ */
typedef struct snap_host_tables {
  snap_tables t; /* points into the arrays below */
  snap_zidx *idxz;
  snap_bidx *idxb;
  double *cg, *rootpq, *zbeta, *beta;
  int *yblk_start, *yblk;
} snap_host_tables;

/* Bispectrum components of 2J = twojmax (LAMMPS's ncoeff, beta0 not counted). */
int snap_ncoeff(int twojmax);
/* Index tables, Clebsch-Gordan coefficients, sqrt(p/q) and the Z->Y factors
 * of beta[ncoeff]. Returns 0, or -1 out of memory. */
int snap_tables_build(int twojmax, const double *beta, snap_host_tables *h);
void snap_tables_free(snap_host_tables *h);
/* beta0 - sum_k beta_k bzero_k (bzero = wself^3 (j+1) when bzeroflag). */
double snap_e0(const snap_potential *p, const snap_tables *t);

/* ---- configurations --------------------------------------------------------------- */
typedef struct snap_atoms {
  int n;
  double box[3];   /* orthogonal periodic box lengths */
  double *x;       /* [n*3], atom id k+1 at k, relative to the box's low corner */
} snap_atoms;

/* input.c: LAMMPS data file (atom_style atomic, one type, orthogonal box). */
void snap_read_data(const char *path, snap_atoms *a);
/* input.c: LAMMPS .snapparam + .snapcoeff (one element, linear SNAP). */
snap_potential *snap_read_potential(const char *coeff_path, const char *param_path);

/* Per-atom reference results (a LAMMPS dump or this app's --dump). */
typedef struct snap_ref {
  int n;
  int has_energy;
  double *energy;  /* [n] */
  double *force;   /* [n*3] */
} snap_ref;
void snap_read_dump(const char *path, int n_expected, snap_ref *r);
/* Writes "id energy fx fy fz" lines (%.17g, ids 1..n) after a LAMMPS-style
 * dump header; returns 0 or -1 when the file cannot be written. */
int snap_write_dump(const char *path, const snap_atoms *a, int n, int n_energy, const double *energy,
                    const double *force);

/* TestSNAP's own reference (its refdata headers as text; inputs/testsnap/W_2):
 * explicit neighbour vectors and indices, forces on local + ghost atoms. */
typedef struct snap_tsref {
  int nlocal, nghost, ninside, twojmax;
  double rcutfac;
  double *coeff;   /* [ncoeff+1], beta0 first */
  int *jlist;      /* [nlocal*ninside] */
  double *rij;     /* [nlocal*ninside*3] */
  double *fj;      /* [(nlocal+nghost)*3] */
} snap_tsref;
void snap_read_testsnap(const char *dir, snap_tsref *r);
/* The one file of dir matching a glob pattern, else exit 2. */
void snap_find_file(const char *dir, const char *pattern, char *out, size_t len);

/* lattice.c: bcc lattice of nx*ny*nz conventional cells, lattice constant a,
 * every coordinate displaced uniformly in [-disp, disp] (seeded), wrapped.
 * snap_bcc_size sets out's atom count and box only (to check them before
 * the coordinates are made); snap_bcc makes them too: 0, or -1 out of memory. */
void snap_bcc_size(int nx, int ny, int nz, double a, snap_atoms *out);
int snap_bcc(int nx, int ny, int nz, double a, double disp, uint64_t seed, snap_atoms *out);

/* ---- neigh.c ---------------------------------------------------------------------- */
typedef struct snap_neigh {
  int natoms, nall, nmax;
  int *nneigh, *jatom;      /* snap_data's layout */
  double *rij;
  int *rev_start, *rev_pair;
} snap_neigh;

/* NULL if the box is finite and holds the cutoff sphere (every side >=
 * 2 rcut), else why not. */
const char *snap_box_check(const double box[3], double rcut);
/* Minimum-image neighbours within rcut (strict), cell binning. Returns 0 or
 * -1 out of memory. */
int snap_neigh_build(const snap_atoms *a, double rcut, snap_neigh *nl);
/* The same for the block of atoms [lo, hi) only (one MPI rank's): natoms =
 * hi - lo, nall = a->n, arrays rotated so local index k is atom (lo + k) mod n
 * (decomp.c); the reverse index lists only the block's pairs. */
int snap_neigh_build_block(const snap_atoms *a, double rcut, int lo, int hi, int nmax_limit, snap_neigh *nl,
                           int *over);
/* (With nmax_limit: -2, before any list is allocated, when an atom has more
 * than nmax_limit neighbours; over[0] is that atom, over[1] its count.) */
/* 1 if a pair of the lists nl of block [lo, ...) of a is so close that
 * |r_ij|^2 is not a normal double (coincident atoms: SNAP divides by
 * |r_ij|), with its atoms i, j (0-based) and whether they meet only through
 * periodic images; else 0. */
int snap_neigh_coincident(const snap_atoms *a, const snap_neigh *nl, int lo, int *i, int *j, int *imaged);
/* Neighbour lists given explicitly (TestSNAP's data): natoms lists of
 * ninside each, neighbours in [0, nall). */
int snap_neigh_from_lists(int natoms, int nall, int ninside, const int *jlist, const double *rij,
                          snap_neigh *nl);
void snap_neigh_free(snap_neigh *nl);

/* ---- problem_data.c ------------------------------------------------------------------ */
/* The snap_data of potential p, tables h and lists nl (host pointers). */
void ts_data_fill(snap_data *d, const snap_potential *p, const snap_host_tables *h, const snap_neigh *nl,
                  double *energy, double *force);
/* One host-model evaluation of d: energies, and forces when asked. 0, or -1
 * out of memory. */
int ts_host_eval(const snap_data *d, int want_forces);
/* Central differences of the host model's total energy for `samples`
 * distinct (atom, component) pairs (samples <= 3 a->n) against force[]:
 * max |F + dE/dx| and where (3*atom + component). 0, or -1 out of memory. */
int ts_fd_check(const snap_atoms *a, const snap_potential *p, const snap_host_tables *h, const double *force,
                int samples, double step, double *max_err, int *worst);

/* ---- decomp.c: MPI decomposition ---------------------------------------------------- */
typedef struct ts_decomp {
  int rank, size;
  int ne, nf;   /* atoms with energies, atoms receiving forces (whole problem) */
  int lo, hi;   /* this rank's atoms [lo, hi) (energies), local index k = atom (lo + k) mod nf */
} ts_decomp;
/* Contiguous blocks of the ne atoms, balanced by count. */
void ts_decomp_block(int ne, int nf, ts_decomp *d);
/* Global atom of local index a. */
int ts_decomp_global(const ts_decomp *d, int a);
/* Collective: this rank's energies e[natoms] and partial forces f[nf*3]
 * (local order) into the whole problem's eg[ne], fg[nf*3] on every rank.
 * drop_last (planted fault snap-mpi-combine): the last rank sends only the
 * forces on its own atoms, not its pairs' reactions on the other ranks'. */
void ts_combine(const ts_decomp *d, int natoms, const double *e, const double *f, double *eg, double *fg,
                int drop_last);

/* ---- flops.c: floating-point operations, counted from the tables ------------------ */
/* Per neighbour pair (compute_ui, compute_deidrj), per atom (compute_yi, the
 * energies through Y). The rules are beside the functions. */
double ts_flops_ui_pair(const snap_tables *t);
double ts_flops_yi_atom(const snap_tables *t);
double ts_flops_de_pair(const snap_tables *t);
double ts_flops_energy_atom(const snap_tables *t);
#define TS_FLOPS_FORCE_PAIR 6.0 /* compute_forces: + dE_i/dr_j on i, - on j */
/* Flops of one run of each kernel (compute_ui, _yi, _deidrj, _forces,
 * _energies) on lists nl. */
void ts_flops(const snap_tables *t, const snap_neigh *nl, double out[SNAP_NKERNELS]);

#endif
