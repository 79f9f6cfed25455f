/* MPI decomposition of testsnap: every rank holds the whole configuration
 * (cheap) and computes the energies of one contiguous block of atoms and
 * the forces its pairs exert; the partial forces are summed over ranks.
 * A rank's arrays are rotated so that its block comes first (local index a
 * is global atom (lo + a) mod nf): the kernels then see natoms local atoms
 * followed by every other atom, as they expect, and need no change. */
#include <stdlib.h>
#include <string.h>
#include "pp/fault.h"
#include "pp/mpi.h"
#include "problem.h"

void ts_decomp_block(int ne, int nf, ts_decomp *d) {
  d->rank = pp_mpi_rank(), d->size = pp_mpi_size();
  d->ne = ne, d->nf = nf;
  /* balanced by count: the first ne % size ranks get one atom more */
  const int q = ne / d->size, r = ne % d->size;
  d->lo = d->rank * q + (d->rank < r ? d->rank : r);
  d->hi = d->lo + q + (d->rank < r);
}

int ts_decomp_global(const ts_decomp *d, int a) { return (d->lo + a) % d->nf; }

void ts_combine(const ts_decomp *d, int natoms, const double *e, const double *f, double *eg, double *fg,
                int drop_last) {
  memset(eg, 0, sizeof(double) * (size_t)d->ne);
  memset(fg, 0, sizeof(double) * 3 * (size_t)d->nf);
  memcpy(eg + d->lo, e, sizeof(double) * (size_t)natoms);
  /* the planted fault keeps only the forces on the rank's own atoms (the
   * classic bug: other ranks' atoms never get this rank's reactions) */
  const int nsend = drop_last && d->rank == d->size - 1 && natoms < d->nf && pp_fault_fire("snap-mpi-combine")
                        ? natoms : d->nf;
  for (int a = 0; a < nsend; a++)
    for (int k = 0; k < 3; k++) fg[3 * ts_decomp_global(d, a) + k] = f[3 * a + k];
  /* energies: one rank's value plus zeros, exact; forces: partial sums */
  pp_mpi_sum(eg, d->ne);
  pp_mpi_sum(fg, 3 * d->nf);
}
