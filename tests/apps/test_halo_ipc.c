/* The IPC halo exchange of cgsolve (cgsolve/halo_ipc.c, shared by CUDA and
 * HIP IPC) on the CPU: a driver whose "device memory" is POSIX shared
 * memory, whose IPC handle is the segment's name and whose copy is memcpy,
 * under 2 and 3 ranks. Checks: the ghosts hold the neighbours' planes (at
 * the vector's offset in its allocation), a second exchange reuses the
 * mapping and carries new values, a halo path entry over the driver checks
 * the memory and exchanges alike, cg_ipc_forget closes what was opened, and
 * an open that fails on one rank fails the exchange on every rank (nobody
 * waits for a neighbour that gave up). Exits non-zero on a failure. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "cgsolve.h"
#include "halo_ipc.h"
#include "pp/mpi.h"

#include "check.h"
#include "halo_test_slab.h"

enum { LEAD = 8 /* doubles before the vector in its allocation */ };
static char seg_name[64];
static double *seg;          /* this rank's allocation */
static size_t seg_bytes;
static int opens, closes, fail_open_rank = -1;

static const char *load(void) { return NULL; }
static int in_segment(const void *p) {
  return (const char *)p >= (const char *)seg && (const char *)p < (const char *)seg + seg_bytes;
}
static int is_device(const void *p) { return in_segment(p); }
static int current_for(const void *p) { (void)p; return 0; }
static int base(const void *p, uintptr_t *b) {
  if (!in_segment(p)) return -1;
  *b = (uintptr_t)seg;
  return 0;
}
static int get_handle(cg_ipc_handle *h, uintptr_t b) {
  if (b != (uintptr_t)seg) return -1;
  memset(h, 0, sizeof *h);
  snprintf(h->reserved, sizeof h->reserved, "%s", seg_name);
  return 0;
}
static int open_handle(uintptr_t *mapped, const cg_ipc_handle *h) {
  if (pp_mpi_rank() == fail_open_rank) return -1;
  int fd = shm_open(h->reserved, O_RDWR, 0);
  if (fd < 0) return -1;
  void *p = mmap(NULL, seg_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (p == MAP_FAILED) return -1;
  opens++;
  *mapped = (uintptr_t)p;
  return 0;
}
static int close_handle(uintptr_t mapped) {
  closes++;
  return munmap((void *)mapped, seg_bytes);
}
static int copy(uintptr_t dst, uintptr_t src, size_t bytes) {
  memcpy((void *)dst, (const void *)src, bytes);
  return 0;
}
static int wait_copies(void) { return 0; }
static const cg_ipc_driver shm_driver = {"shared-memory IPC", load, is_device, current_for, base, get_handle,
                                         open_handle, close_handle, copy, wait_copies, "not in the segment"};
/* A halo path entry over it, as a vendor's file makes one (halo_ipc_cuda.c). */
static const cg_halo_path shm_path = {.name = "shared-memory IPC", .check = cg_ipc_check,
                                      .exchange = cg_ipc_exchange, .data = &shm_driver};

int main(int argc, char **argv) {
  halo_test_start(&argc, &argv, "test_halo_ipc");
  snprintf(seg_name, sizeof seg_name, "/pp-halo-ipc-test-%ld", (long)getpid());
  seg_bytes = (LEAD + OWN + 2 * PLANE) * sizeof(double);
  int fd = shm_open(seg_name, O_CREAT | O_EXCL | O_RDWR, 0600);
  CHECK(fd >= 0 && ftruncate(fd, (off_t)seg_bytes) == 0);
  seg = mmap(NULL, seg_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  CHECK(seg != MAP_FAILED);
  double *x = seg + LEAD;
  cg_halo h;
  int32_t lo[PLANE], hi[PLANE];
  make_halo(&h, lo, hi);
  const int nbrs = (h.nbr[0] >= 0) + (h.nbr[1] >= 0);

  /* one rank cannot open its neighbours: every rank fails, nothing stays mapped */
  fill(x, 0);
  fail_open_rank = 1;
  CHECK(cg_ipc_exchange_on(&shm_driver, &h, x) == -1);
  CHECK(closes == opens);
  fail_open_rank = -1;
  opens = closes = 0;

  CHECK(cg_ipc_exchange_on(&shm_driver, &h, x) == 0);
  CHECK(ghosts_right(&h, x, 0));
  CHECK(opens == nbrs);
  pp_mpi_barrier(); /* every neighbour mapped, and read the old values */
  shm_unlink(seg_name); /* the mappings stay: a later hang leaves no segment behind */
  fill(x, 1000);
  pp_mpi_barrier();
  CHECK(cg_ipc_exchange_on(&shm_driver, &h, x) == 0);
  CHECK(ghosts_right(&h, x, 1000));
  CHECK(opens == nbrs); /* mapped once */
  /* the same through a table entry: its driver check, its exchange */
  double not_device = 0;
  CHECK(shm_path.check(&shm_path, x) == NULL);
  CHECK(!strcmp(shm_path.check(&shm_path, &not_device), "not in the segment"));
  fill(x, 2000);
  pp_mpi_barrier();
  CHECK(shm_path.exchange(&shm_path, &h, NULL, x) == 0);
  CHECK(ghosts_right(&h, x, 2000));
  CHECK(opens == nbrs);
  cg_ipc_forget(x);
  CHECK(closes == opens);
  munmap(seg, seg_bytes);
  const int all_ok = pp_mpi_all(failures == 0);
  if (failures) fprintf(stderr, "test_halo_ipc: rank %d: %d checks failed\n", pp_mpi_rank(), failures);
  pp_mpi_finalize();
  return all_ok ? 0 : 1;
}
