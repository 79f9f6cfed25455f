/* --overlap's helper thread (halo_helper.h). Between two exchanges it spins
 * on the job word, yielding the core, for up to SPIN_S, then sleeps on a
 * condition variable: a CG iteration is far shorter than SPIN_S, so during a
 * solve the hand-off never waits for a wake-up, and an idle helper (between
 * the suite's runs) costs no core. */
#define _POSIX_C_SOURCE 200809L
#include "halo_helper.h"
#include <stdlib.h>
#ifdef CG_HAVE_THREADS
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>

enum { IDLE, POSTED, DONE, QUIT };
static const double SPIN_S = 0.005;

struct cg_helper {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t wake;
  atomic_int state;
  /* the job, written before state becomes POSTED */
  const cg_halo *h;
  const cg_halo_path *path;
  const pp_device_ops *ops;
  double *v;
};

/* POSTED or QUIT: spins, then sleeps. */
static int next_job(cg_helper *g) {
  const double t0 = pp_wtime();
  for (unsigned i = 1;; i++) {
    const int s = atomic_load_explicit(&g->state, memory_order_acquire);
    if (s == POSTED || s == QUIT) return s;
    if (i % 64 == 0) {
      sched_yield();
      if (pp_wtime() - t0 > SPIN_S) break;
    }
  }
  pthread_mutex_lock(&g->lock);
  int s;
  while ((s = atomic_load_explicit(&g->state, memory_order_acquire)) != POSTED && s != QUIT)
    pthread_cond_wait(&g->wake, &g->lock);
  pthread_mutex_unlock(&g->lock);
  return s;
}

static void *helper_main(void *arg) {
  cg_helper *g = arg;
  while (next_job(g) == POSTED) {
    cg_halo_exchange(g->h, g->path, g->ops, g->v);
    atomic_store_explicit(&g->state, DONE, memory_order_release);
  }
  return NULL;
}

cg_helper *cg_helper_start(void) {
  cg_helper *g = calloc(1, sizeof *g);
  if (!g) return NULL;
  atomic_init(&g->state, IDLE);
  pthread_mutex_init(&g->lock, NULL);
  pthread_cond_init(&g->wake, NULL);
  if (pthread_create(&g->thread, NULL, helper_main, g) != 0) {
    pthread_cond_destroy(&g->wake);
    pthread_mutex_destroy(&g->lock);
    free(g);
    return NULL;
  }
  return g;
}

/* The state changes under the lock, so a helper about to sleep sees it or
 * gets the signal. */
static void set_state(cg_helper *g, int s) {
  pthread_mutex_lock(&g->lock);
  atomic_store_explicit(&g->state, s, memory_order_release);
  pthread_cond_signal(&g->wake);
  pthread_mutex_unlock(&g->lock);
}

void cg_helper_post(cg_helper *g, const cg_halo *h, const cg_halo_path *p, const pp_device_ops *ops, double *v) {
  g->h = h, g->path = p, g->ops = ops, g->v = v;
  set_state(g, POSTED);
}

void cg_helper_wait(cg_helper *g) {
  for (unsigned i = 1; atomic_load_explicit(&g->state, memory_order_acquire) != DONE; i++)
    if (i % 64 == 0) sched_yield();
}

void cg_helper_stop(cg_helper *g) {
  if (!g) return;
  set_state(g, QUIT);
  pthread_join(g->thread, NULL);
  pthread_cond_destroy(&g->wake);
  pthread_mutex_destroy(&g->lock);
  free(g);
}
#else
cg_helper *cg_helper_start(void) { return NULL; }
void cg_helper_post(cg_helper *g, const cg_halo *h, const cg_halo_path *p, const pp_device_ops *ops, double *v) {
  (void)g, (void)h, (void)p, (void)ops, (void)v;
}
void cg_helper_wait(cg_helper *g) { (void)g; }
void cg_helper_stop(cg_helper *g) { (void)g; }
#endif
