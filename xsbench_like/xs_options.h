/* xsbench_like's own options (options.c). */
#ifndef XS_OPTIONS_H
#define XS_OPTIONS_H
#include "pp/cli.h"
#include "xsbench_like.h"

/* --material-launch's values, in its choices' order (options.c) */
enum { XS_LAUNCH_SERIAL, XS_LAUNCH_CONCURRENT, XS_LAUNCH_SINGLE };

typedef struct xs_config {
  const char *problem;               /* small, large, XL, XXL */
  long long gridpoints;              /* 0: the size's */
  int grid;                          /* xs_grid */
  long long hash_bins;
  int hash_bins_set;
  int history;                       /* 1: history method */
  long long lookups, particles;      /* as given (0: default) */
  int lookups_set, particles_set;
  unsigned variants;                 /* bit v: xs_variant v */
  int variants_set;
  unsigned long long expect;         /* --expect-checksum */
  int expect_set;
  int sort_vendor;                   /* --sort vendor: the model's library sort */
  int sort_check;                    /* --sort-check: check and time the sort on all keys */
  int split_energy;                  /* --split energy: the sorted variants split by energy band */
  int split_set;
  int material_launch;               /* --material-launch: XS_LAUNCH_* */
  int material_set;
  int phases;                        /* --phases: a row per phase of a simulation too */
} xs_config;

const pp_app_option *xs_options(void);
void xs_config_default(xs_config *c);
void xs_rewrite_argv(int argc, char **argv);
#endif
