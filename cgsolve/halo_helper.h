/* --overlap's helper thread: one per solver, started by the first
 * overlapped SpMV and stopped with the solver, so that an exchange costs a
 * hand-off (an atomic store the helper is spinning on) and not a thread
 * start with its first driver calls. The helper runs cg_halo_exchange while
 * the caller computes the interior rows; the caller makes no MPI call until
 * cg_helper_wait returns (MPI_THREAD_SERIALIZED). */
#ifndef CGSOLVE_HALO_HELPER_H
#define CGSOLVE_HALO_HELPER_H
#include "cgsolve.h"
#include "halo_path.h"
#include "pp/pp.h"

typedef struct cg_helper cg_helper;
/* A running helper, or NULL (no threads library, or the thread could not
 * start: the caller exchanges itself). */
cg_helper *cg_helper_start(void);
/* Hands over one exchange of v's halo by path p (cg_halo_exchange); returns at once. */
void cg_helper_post(cg_helper *g, const cg_halo *h, const cg_halo_path *p, const pp_device_ops *ops, double *v);
/* Returns when the posted exchange is done. */
void cg_helper_wait(cg_helper *g);
/* Ends the thread and frees g (NULL: nothing). */
void cg_helper_stop(cg_helper *g);

#endif
