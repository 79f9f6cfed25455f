/* testsnap_selftest COEFF PARAM [--plant]: checks the identity the GPU
 * models' energies rest on. B is cubic in U, so U : dE/dU = 3 E_B and
 *   E_i = e0 + (2/3) sum_half w U_i : conj(Y_i)      (snap_energy_term)
 * must equal the host model's E_i = e0 + sum_k beta_k B_k,i (through Z and
 * B, LAMMPS's way) on a disordered bcc lattice. --plant perturbs one Y
 * energy by 1e-6 eV, which must be reported (exit 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "problem.h"

#define TOL 1e-10 /* eV */

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: testsnap_selftest COEFF PARAM [--plant]\n");
    return 2;
  }
  const int plant = argc > 3 && !strcmp(argv[3], "--plant");
  snap_potential *p = snap_read_potential(argv[1], argv[2]);
  snap_host_tables h;
  snap_atoms a;
  snap_neigh nl;
  snap_bcc(3, 3, 3, 3.1803, 0.2, 7, &a); /* 54 atoms, neighbour counts vary */
  if (snap_tables_build(p->twojmax, p->beta, &h) || snap_neigh_build(&a, p->rcut, &nl)) return 3;
  double *eb = malloc(sizeof(double) * (size_t)a.n), *f = malloc(sizeof(double) * 3 * (size_t)a.n);
  snap_data d;
  ts_data_fill(&d, p, &h, &nl, eb, f);
  if (ts_host_eval(&d, 0)) return 3;
  const int nu = h.t.idxu_max;
  snap_c *u = malloc(sizeof(snap_c) * (size_t)nu);
  double *ur = malloc(sizeof(double) * (size_t)nu), *ui = malloc(sizeof(double) * (size_t)nu);
  double *yr = malloc(sizeof(double) * (size_t)nu), *yi = malloc(sizeof(double) * (size_t)nu);
  double worst = 0.0;
  int nmin = nl.nmax;
  for (int i = 0; i < a.n; i++) {
    snap_atom_ui(&d, i, ur, ui, 1, u);
    snap_atom_yi(&d, ur, ui, yr, yi, 1);
    double ey = snap_atom_energy_y(&d, ur, ui, yr, yi, 1);
    if (plant && i == 0) ey += 1e-6;
    const double err = fabs(ey - eb[i]);
    if (!(err <= worst)) worst = err;
    if (nl.nneigh[i] < nmin) nmin = nl.nneigh[i];
  }
  const int ok = worst <= TOL;
  printf("energy through Y vs through B: %d atoms (%d to %d neighbours), twojmax %d: max |dE_i| = %.3g eV "
         "(tolerance %.0e): %s\n", a.n, nmin, nl.nmax, p->twojmax, worst, TOL, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
