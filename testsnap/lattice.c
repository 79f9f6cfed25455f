/* bcc lattice generator: nx*ny*nz conventional cells of two atoms, each
 * coordinate displaced uniformly in [-disp, disp] from one seeded stream,
 * then wrapped into the periodic box. */
#include <math.h>
#include <stdlib.h>
#include "pp/rng.h"
#include "problem.h"

void snap_bcc_size(int nx, int ny, int nz, double a, snap_atoms *out) {
  const int n[3] = {nx, ny, nz};
  out->n = 2 * nx * ny * nz;
  for (int d = 0; d < 3; d++) out->box[d] = n[d] * a;
  out->x = NULL;
}

int snap_bcc(int nx, int ny, int nz, double a, double disp, uint64_t seed, snap_atoms *out) {
  snap_bcc_size(nx, ny, nz, a, out);
  out->x = malloc(sizeof(double) * 3 * (size_t)out->n);
  if (!out->x) return -1;
  uint64_t state = seed;
  int k = 0;
  for (int iz = 0; iz < nz; iz++)
    for (int iy = 0; iy < ny; iy++)
      for (int ix = 0; ix < nx; ix++)
        for (int basis = 0; basis < 2; basis++, k++) {
          const int c[3] = {ix, iy, iz};
          for (int d = 0; d < 3; d++) {
            double x = (c[d] + 0.5 * basis) * a + disp * (2.0 * pp_uniform(&state) - 1.0);
            x -= out->box[d] * floor(x / out->box[d]);
            if (x >= out->box[d]) x = 0.0;
            out->x[3 * k + d] = x;
          }
        }
  return 0;
}
