/* Floating-point operations of the SNAP kernels, counted analytically from
 * the index tables and the neighbour counts (the algorithm's count, the same
 * for every model: work a model repeats or spends on the mirrored half earns
 * nothing). Rules: complex multiply 6, complex add 2, real x complex 2, an
 * FMA 2, any other operation 1 (sqrt, division, sin/cos/tan count 1 each);
 * sign flips and conjugates are free. The loops are those of snap_math.h:
 * snap_u_step, snap_du_step, snap_du_scale, snap_dedr_term, snap_z_elem,
 * snap_energy_term. */
#include "problem.h"
#include "snap_math.h"

/* snap_ck_of: |r| (5 + sqrt), theta0 (4), z0 = r / tan (2), 1/|r0| (5),
 * a, b (4), the switching factor sfac w (7): about 28, a rough constant. */
#define FLOPS_CK 28.0
/* snap_dck_of: the above plus z0's and 1/|r0|'s derivatives (about 20),
 * the unit vector (3), 3 x (dar, dai, dbr, dbi: 7) and dsfac (8 + 3): about
 * 80, a rough constant. */
#define FLOPS_DCK 80.0

/* Elements (j, ma, mb) the recursion computes on level j >= 1 (mb <= j/2):
 * per row ma = 0 and ma = j have one term, the j - 1 others two. */
static double rows(int j) { return j / 2 + 1; }

/* Elements with a non-zero weight in the half sums (snap_half_weight). */
static double half_weighted(const snap_tables *t) {
  double n = 0.0;
  for (int j = 0; j <= t->twojmax; j++) n += (double)((j + 1) / 2) * (j + 1) + (j % 2 ? 0 : j / 2 + 1);
  return n;
}

/* compute_ui per pair: snap_u_step per computed element: one term
 * rp * (conj(b) ub) = complex multiply 6 + scaling 2 = 8; two terms 8 + 8 +
 * their sum 2 = 18. The accumulate U_i += sfac U of the computed half: a real
 * x complex FMA, 4 (the mirrored half is a copy). Plus FLOPS_CK. */
double ts_flops_ui_pair(const snap_tables *t) {
  double f = FLOPS_CK + 4.0 * t->idxu_half;
  for (int j = 1; j <= t->twojmax; j++) f += rows(j) * (2 * 8.0 + (j - 1) * 18.0);
  return f;
}

/* compute_yi per atom, per Z element of a Y element that is ever read (non-
 * zero half weight; LAMMPS also computes the rest of the middle row):
 * na x nb products cg * (u1 u2) summed: complex multiply 6, cg scaling 2,
 * accumulate 2 = 10 each; per ib the outer cg FMA into Z, 4; then
 * Y += zbeta Z, 4. */
double ts_flops_yi_atom(const snap_tables *t) {
  double f = 0.0;
  for (int z = 0; z < t->idxz_max; z++) {
    const snap_jm m = snap_uidx_split(t->idxz[z].jju);
    if (snap_half_weight(m.j, m.ma, m.mb) == 0.0) continue;
    f += 10.0 * t->idxz[z].na * t->idxz[z].nb + 4.0 * t->idxz[z].nb + 4.0;
  }
  return f;
}

/* compute_deidrj per pair: snap_du_step per computed element: the value as
 * in compute_ui (8 or 18) and per component k of the gradient per term
 * rp * (conj(db) ub + conj(b) dub): 2 complex multiplies 12, add 2, scale 2
 * = 16; two terms 16 + 16 + 2 = 34; times 3 components. Per element of
 * non-zero half weight: snap_du_scale 3 x (2 + 2 + 2) = 18, the weight 1,
 * snap_dedr_term 3 x (Re(du conj y) 3 + weight 1 + accumulate 1) = 15. Plus
 * FLOPS_DCK. */
double ts_flops_de_pair(const snap_tables *t) {
  double f = FLOPS_DCK + 34.0 * half_weighted(t);
  for (int j = 1; j <= t->twojmax; j++) f += rows(j) * (2 * (8.0 + 3 * 16.0) + (j - 1) * (18.0 + 3 * 34.0));
  return f;
}

/* compute_energies per atom, through Y: per element of non-zero half weight
 * Re(u conj y) 3, the factors (2/3) w 2, accumulate 1 = 6; plus e0, 1. */
double ts_flops_energy_atom(const snap_tables *t) { return 6.0 * half_weighted(t) + 1.0; }

void ts_flops(const snap_tables *t, const snap_neigh *nl, double out[SNAP_NKERNELS]) {
  double pairs = 0.0;
  for (int i = 0; i < nl->natoms; i++) pairs += nl->nneigh[i];
  out[0] = pairs * ts_flops_ui_pair(t);
  out[1] = nl->natoms * ts_flops_yi_atom(t);
  out[2] = pairs * ts_flops_de_pair(t);
  out[3] = pairs * TS_FLOPS_FORCE_PAIR;
  out[4] = nl->natoms * ts_flops_energy_atom(t);
}
