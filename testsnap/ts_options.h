/* testsnap's own options (options.c). */
#ifndef TS_OPTIONS_H
#define TS_OPTIONS_H
#include "pp/cli.h"
#include "snap_kernels.h"

typedef struct ts_config {
  const char *case_name;                  /* --case: a folder of inputs/testsnap */
  const char *inputs;                     /* --inputs: the suite's inputs folder, NULL: found */
  const char *data, *coeff, *param;       /* LAMMPS inputs */
  const char *reference;                  /* per-atom dump to validate against */
  const char *testsnap_ref;               /* TestSNAP's reference folder (W_2) */
  const char *dump;                       /* results written here */
  long long cells[3];                     /* --lattice (0: not asked) */
  double lattice_a, displace;
  long long steps;
  long long fd_checks;                    /* finite-difference samples (0: none) */
  double fd_step;
  snap_variant variant;
  int variant_set;                        /* a variant option was given */
} ts_config;

const pp_app_option *ts_options(void);
void ts_config_default(ts_config *c);
/* Options of the suite that testsnap does not use: a message, or NULL. */
const char *ts_unused_option(int argc, char **argv);
#endif
