/* The kernel-time table of kernel_table.h: a list searched by name (a run
 * launches tens of distinct kernels, so a hash table would buy nothing). */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "kernel_table.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  char *name;
  uint64_t count, total, min, max;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *table;
static size_t used, cap;
static uint64_t dropped;
static char error[256];

int kt_add(const char *name, uint64_t ns) {
  if (!name) name = "(unnamed)";
  pthread_mutex_lock(&lock);
  size_t i = 0;
  while (i < used && strcmp(table[i].name, name) != 0) i++;
  if (i == used) {
    char *copy = NULL;
    if (used == cap) {
      size_t n = cap ? 2 * cap : 64;
      entry *t = realloc(table, n * sizeof *t);
      if (t) table = t, cap = n;
    }
    if (used < cap) copy = strdup(name);
    if (!copy) {
      dropped++;
      pthread_mutex_unlock(&lock);
      return -1;
    }
    table[used++] = (entry){copy, 0, 0, ns, ns};
  }
  entry *e = &table[i];
  e->count++;
  e->total += ns;
  if (ns < e->min) e->min = ns;
  if (ns > e->max) e->max = ns;
  pthread_mutex_unlock(&lock);
  return 0;
}

void kt_dropped(uint64_t n) {
  pthread_mutex_lock(&lock);
  dropped += n;
  pthread_mutex_unlock(&lock);
}

void kt_error(const char *what) {
  pthread_mutex_lock(&lock);
  if (!error[0]) snprintf(error, sizeof error, "%s", what);
  pthread_mutex_unlock(&lock);
}

/* one line: a name (its last field) has no blank either, which would split it */
static void put_text(FILE *f, const char *s, int blanks) {
  for (; *s; s++) {
    int c = (unsigned char)*s;
    fputc(!isprint(c) || (!blanks && isspace(c)) ? '_' : c, f);
  }
  fputc('\n', f);
}

int kt_write(const char *path) {
  /* A helper process that also initializes CUDA under the same environment (Open MPI's orted,
   * spawned by a singleton MPI_Init) ends after the program with no kernels of its own: its
   * empty table must not replace the program's file. */
  pthread_mutex_lock(&lock);
  const int nothing = used == 0 && dropped == 0 && !error[0];
  pthread_mutex_unlock(&lock);
  if (nothing && access(path, F_OK) == 0) return 0;
  size_t n = strlen(path) + 5;
  char *tmp = malloc(n);
  if (!tmp) return -1;
  snprintf(tmp, n, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    free(tmp);
    return -1;
  }
  pthread_mutex_lock(&lock);
  fprintf(f, "# pp-kernel-time 1: count total_ns min_ns max_ns name\n");
  for (size_t i = 0; i < used; i++) {
    fprintf(f, "%llu %llu %llu %llu ", (unsigned long long)table[i].count,
            (unsigned long long)table[i].total, (unsigned long long)table[i].min,
            (unsigned long long)table[i].max);
    put_text(f, table[i].name, 0);
  }
  fprintf(f, "# dropped %llu\n", (unsigned long long)dropped);
  if (error[0]) {
    fprintf(f, "# error ");
    put_text(f, error, 1);
  }
  fprintf(f, "# end\n");
  pthread_mutex_unlock(&lock);
  int rc = fclose(f) == 0 ? rename(tmp, path) : -1;
  free(tmp);
  return rc;
}
