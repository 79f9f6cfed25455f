/* xsbench_like, omp and ompx: the simulation data handed to a target region
 * as scalar kernel arguments instead of a firstprivate struct. LLVM passes a
 * firstprivate struct through a pointer and loads all its fields into
 * registers at the kernel's start (cuda's by-value struct argument stays in
 * the constant bank); scalar arguments stay kernel parameters, read in place
 * like cuda's, so the kernels do not spend registers on them.
 * Use: XS_ARGS_UNPACK(d); before the region, is_device_ptr(XS_ARGS_PTRS) on
 * it, and XS_ARGS_REPACK(dd); inside it, then pass &dd as usual. */
#ifndef XS_OMP_ARGS_H
#define XS_OMP_ARGS_H
#include "xsbench_like.h"

#define XS_ARGS_UNPACK(d)                                                                  \
  const long xa_niso = (d)->n_isotopes, xa_ngp = (d)->n_gridpoints;                        \
  const int xa_grid = (d)->grid, xa_bins = (d)->hash_bins, xa_mnn = (d)->max_num_nucs;     \
  const int *xa_num = (d)->num_nucs, *xa_mats = (d)->mats, *xa_index = (d)->index_grid;     \
  const double *xa_concs = (d)->concs, *xa_egrid = (d)->egrid;                             \
  const xs_point *xa_pts = (d)->nuclide_grid
#define XS_ARGS_PTRS xa_num, xa_mats, xa_index, xa_concs, xa_egrid, xa_pts
#define XS_ARGS_REPACK(dd)                                                                 \
  const xs_data dd = {xa_niso, xa_ngp,   xa_grid,  xa_bins, xa_mnn, xa_num, xa_mats,        \
                      xa_concs, xa_egrid, xa_index, xa_pts, 0,      0}
#endif
