/* LD_PRELOAD library for the public reference codes: sets the CUDA primary
 * context of device 0 (after CUDA_VISIBLE_DEVICES) to spin-wait and retains it
 * before the program starts, so that a public code waits for the GPU as
 * ProxyPort's default --gpu-wait spin does, without a change to its source.
 * The context is retained here so that it is active before LLVM's libomptarget
 * looks at it: libomptarget keeps the flags of an active primary context and
 * sets blocking sync on an inactive one. The CUDA runtime (static or shared)
 * uses the same primary context. At exit it prints the flags the context then
 * has (one line on stderr), which the peers runner checks.
 * Built by validate/refs/build.sh (gcc -shared -fPIC spin.c -ldl). */
#include <dlfcn.h>
#include <stdio.h>

#define SCHED_SPIN 0x01u /* CU_CTX_SCHED_SPIN */
#define SCHED_MASK 0x07u /* CU_CTX_SCHED_MASK */

typedef int (*fn_init)(unsigned);
typedef int (*fn_get)(int *, int);
typedef int (*fn_setflags)(int, unsigned);
typedef int (*fn_retain)(void **, int);
typedef int (*fn_state)(int, unsigned *, int *);

static fn_state state;
static int device = -1;

__attribute__((constructor)) static void spin_init(void) {
  void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!h) {
    fprintf(stderr, "peers-spin: no libcuda.so.1: %s\n", dlerror());
    return;
  }
  fn_init init = (fn_init)dlsym(h, "cuInit");
  fn_get get = (fn_get)dlsym(h, "cuDeviceGet");
  fn_setflags setflags = (fn_setflags)dlsym(h, "cuDevicePrimaryCtxSetFlags_v2");
  if (!setflags) setflags = (fn_setflags)dlsym(h, "cuDevicePrimaryCtxSetFlags");
  fn_retain retain = (fn_retain)dlsym(h, "cuDevicePrimaryCtxRetain");
  state = (fn_state)dlsym(h, "cuDevicePrimaryCtxGetState");
  void *ctx = NULL;
  int rc = !init || !get || !setflags || !retain || !state ? -1 : init(0);
  if (rc == 0) rc = get(&device, 0);
  if (rc == 0) rc = setflags(device, SCHED_SPIN);
  if (rc == 0) rc = retain(&ctx, device);
  if (rc != 0) {
    fprintf(stderr, "peers-spin: could not set spin on device 0 (CUDA error %d)\n", rc);
    device = -1;
  }
}

__attribute__((destructor)) static void spin_report(void) {
  unsigned flags = 0;
  int active = 0;
  if (device < 0 || state(device, &flags, &active) != 0) {
    fprintf(stderr, "peers-spin: flags unknown\n");
    return;
  }
  fprintf(stderr, "peers-spin: primary context sched flags %u (%s), active %d\n",
          flags & SCHED_MASK, (flags & SCHED_MASK) == SCHED_SPIN ? "spin" : "not spin", active);
}
