/* testsnap_flops_test [--plant]: the analytic FLOP counts of flops.c against
 * (1) numbers derived by hand for twojmax 2 and (2) a brute-force count that
 * walks the loops of the math in snap_math.h element by element, with the Z
 * sums' lengths found by enumerating (ma1, ma2) pairs rather than read from
 * the tables. --plant adds one flop to the brute-force compute_ui count,
 * which must be reported (exit 1). */
#include <stdio.h>
#include <string.h>
#include "problem.h"
#include "snap_math.h"

/* Hand derivation, twojmax 2 (rules in flops.c):
 * compute_ui per pair: level 1 has one row (mb = 0) of 2 one-term elements
 *   (8 each) = 16; level 2 has 2 rows of (8 + 18 + 8) = 68; recursion 84.
 *   Computed half: 1 + 2 + 6 = 9 elements, accumulate 4 each = 36. Cayley-
 *   Klein 28. Total 148.
 * compute_deidrj per pair: values 84 as above; gradients: one-term elements
 *   3 x 16 = 48, two-term 3 x 34 = 102; level 1: 2 x 48 = 96, level 2:
 *   2 x (48 + 102 + 48) = 396; 492. Elements of non-zero half weight:
 *   (0,0,0); level 1 row 0 (2); level 2 row 0 (3) and (0,1), (1,1): 8, each
 *   18 + 1 + 15 = 34: 272. Constant 80. Total 84 + 492 + 272 + 80 = 928.
 * compute_yi per atom, per (j1 j2 j) block, sum over its Z elements of
 *   10 na nb + 4 nb + 4, skipping the Y elements never read (j 2, mb 1,
 *   ma 2: half weight 0):
 *   (0 0 0): na = nb = 1: 18; (1 0 1): 2 elements x 18 = 36;
 *   (1 1 0): na = nb = 2: 40 + 8 + 4 = 52;
 *   (1 1 2): na = 1, 2, 1 for ma = 0, 1, 2; nb = 1 (mb 0), 2 (mb 1):
 *            mb 0: 18 + 28 + 18 = 64; mb 1: 32 + 52 (+ 32 skipped) = 84; 148;
 *   (2 0 2): 5 of 6 elements x 18 = 90;
 *   (2 1 1): na = nb = 2 for both elements: 2 x 52 = 104;
 *   (2 2 0): na = nb = 3: 90 + 12 + 4 = 106;
 *   (2 2 2): na = 2, 3, 2; nb = 2 (mb 0), 3 (mb 1):
 *            mb 0: 52 + 72 + 52 = 176; mb 1: 76 + 106 (+ 76 skipped) = 182; 358.
 *   Total 18 + 36 + 52 + 148 + 90 + 104 + 106 + 358 = 912.
 * compute_energies per atom: 8 weighted elements x 6 + 1 = 49. */
static const double HAND_J2[4] = {148.0, 912.0, 928.0, 49.0};

static double brute_ui(int J) {
  double f = 28.0; /* the Cayley-Klein constant of flops.c */
  for (int j = 0; j <= J; j++)
    for (int mb = 0; 2 * mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) {
        const int terms = (j > 0 && ma > 0) + (j > 0 && ma < j);
        f += 8.0 * terms + (terms == 2 ? 2.0 : 0.0); /* rp (conj(a) ua) etc., their sum */
        f += 4.0;                                      /* U_i += sfac U */
      }
  return f;
}

static double brute_de(int J) {
  double f = 80.0;
  for (int j = 0; j <= J; j++)
    for (int mb = 0; 2 * mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) {
        const int terms = (j > 0 && ma > 0) + (j > 0 && ma < j);
        f += 8.0 * terms + (terms == 2 ? 2.0 : 0.0);           /* the value */
        for (int k = 0; k < 3; k++) f += 16.0 * terms + (terms == 2 ? 2.0 : 0.0); /* its gradient */
        if (snap_half_weight(j, ma, mb) > 0.0) f += 18.0 + 1.0 + 15.0; /* scale, weight, contraction */
      }
  return f;
}

static double brute_yi(int J, int *nz) {
  double f = 0.0;
  *nz = 0;
  for (int j1 = 0; j1 <= J; j1++)
    for (int j2 = 0; j2 <= j1; j2++)
      for (int j = j1 - j2; j <= j1 + j2 && j <= J; j += 2)
        for (int mb = 0; 2 * mb <= j; mb++)
          for (int ma = 0; ma <= j; ma++, (*nz)++) {
            if (snap_half_weight(j, ma, mb) == 0.0) continue; /* Y never read */
            /* CG pairs: m1 + m2 = m + (j1 + j2 - j)/2 in each index */
            int na = 0, nb = 0;
            for (int m1 = 0; m1 <= j1; m1++)
              for (int m2 = 0; m2 <= j2; m2++) {
                na += m1 + m2 == ma + (j1 + j2 - j) / 2;
                nb += m1 + m2 == mb + (j1 + j2 - j) / 2;
              }
            for (int ib = 0; ib < nb; ib++) {
              for (int ia = 0; ia < na; ia++) f += 6.0 + 2.0 + 2.0; /* cg (u1 u2), summed */
              f += 4.0;                                            /* Z += cg s */
            }
            f += 4.0; /* Y += zbeta Z */
          }
  return f;
}

static double brute_energy(int J) {
  double f = 1.0;
  for (int j = 0; j <= J; j++)
    for (int mb = 0; 2 * mb <= j; mb++)
      for (int ma = 0; ma <= j; ma++) f += snap_half_weight(j, ma, mb) > 0.0 ? 6.0 : 0.0;
  return f;
}

static int same(const char *what, int J, double analytic, double want, const char *how) {
  const int ok = analytic == want;
  printf("twojmax %2d %-16s analytic %.0f, %s %.0f: %s\n", J, what, analytic, how, want, ok ? "PASS" : "FAIL");
  return ok;
}

int main(int argc, char **argv) {
  const int plant = argc > 1 && !strcmp(argv[1], "--plant");
  if (argc > 2 || (argc == 2 && !plant)) {
    fprintf(stderr, "usage: testsnap_flops_test [--plant]\n");
    return 2;
  }
  int ok = 1;
  const int js[] = {2, 4, 8, 14};
  for (size_t q = 0; q < sizeof js / sizeof *js; q++) {
    const int J = js[q];
    snap_host_tables h;
    if (snap_tables_build(J, NULL, &h) != 0) return 3;
    const snap_tables *t = &h.t;
    int nz;
    const double a[4] = {ts_flops_ui_pair(t), ts_flops_yi_atom(t), ts_flops_de_pair(t), ts_flops_energy_atom(t)};
    const double b[4] = {brute_ui(J) + plant, brute_yi(J, &nz), brute_de(J), brute_energy(J)};
    const char *name[4] = {"compute_ui/pair", "compute_yi/atom", "deidrj/pair", "energies/atom"};
    ok &= nz == t->idxz_max;
    for (int k = 0; k < 4; k++) {
      ok &= same(name[k], J, a[k], b[k], "brute force");
      if (J == 2) ok &= same(name[k], J, a[k], HAND_J2[k], "by hand");
    }
    /* per-run totals: pairs and atoms of a small uneven list */
    int nneigh[3] = {3, 0, 5};
    snap_neigh nl = {3, 3, 5, nneigh, NULL, NULL, NULL, NULL};
    double out[5];
    ts_flops(t, &nl, out);
    const double want[5] = {8 * a[0], 3 * a[1], 8 * a[2], 8 * TS_FLOPS_FORCE_PAIR, 3 * a[3]};
    for (int k = 0; k < 5; k++) ok &= out[k] == want[k];
    snap_tables_free(&h);
  }
  printf("flop counts: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
