/* testsnap's command line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ts_options.h"

static const char *p_case(const char *v, void *c) { return ((ts_config *)c)->case_name = v, NULL; }
static const char *p_inputs(const char *v, void *c) { return ((ts_config *)c)->inputs = v, NULL; }
static const char *p_data(const char *v, void *c) { return ((ts_config *)c)->data = v, NULL; }
static const char *p_coeff(const char *v, void *c) { return ((ts_config *)c)->coeff = v, NULL; }
static const char *p_param(const char *v, void *c) { return ((ts_config *)c)->param = v, NULL; }
static const char *p_reference(const char *v, void *c) { return ((ts_config *)c)->reference = v, NULL; }
static const char *p_tsref(const char *v, void *c) { return ((ts_config *)c)->testsnap_ref = v, NULL; }
static const char *p_dump(const char *v, void *c) { return ((ts_config *)c)->dump = v, NULL; }

static const char *p_lattice(const char *v, void *ctx) {
  ts_config *c = ctx;
  pp_list l;
  const char *err = pp_parse_list(v, 1, 1000, &l);
  if (err) return err;
  if (l.n != 1 && l.n != 3) return "give N or NX,NY,NZ conventional cells";
  for (int d = 0; d < 3; d++) c->cells[d] = l.v[l.n == 1 ? 0 : d];
  if (2.0 * c->cells[0] * c->cells[1] * c->cells[2] > 1e8) return "more than 10^8 atoms";
  return NULL;
}
static const char *p_lattice_a(const char *v, void *c) {
  return pp_parse_double(v, 0.5, 100.0, &((ts_config *)c)->lattice_a);
}
static const char *p_displace(const char *v, void *c) {
  return pp_parse_double(v, 0.0, 1.0, &((ts_config *)c)->displace);
}
static const char *p_steps(const char *v, void *c) { return pp_parse_int(v, 1, 1000000, &((ts_config *)c)->steps); }
static const char *p_fd(const char *v, void *c) { return pp_parse_int(v, 1, 10000, &((ts_config *)c)->fd_checks); }
static const char *p_fd_step(const char *v, void *c) {
  return pp_parse_double(v, 1e-8, 1e-2, &((ts_config *)c)->fd_step);
}
/* A variant's named forms: *field = the index of v in names (their enum order). */
static const char *p_form(const char *v, ts_config *c, const char *const *names, int *field) {
  c->variant_set = 1;
  return pp_parse_choice(v, names, field);
}
static const char *p_scratch(const char *v, void *ctx) {
  static const char *const names[] = {"team", "global", NULL}; /* SNAP_SCRATCH_TEAM, _GLOBAL */
  return p_form(v, ctx, names, &((ts_config *)ctx)->variant.scratch);
}
static const char *p_levels(const char *v, void *ctx) {
  ts_config *c = ctx;
  long long l;
  if (pp_parse_int(v, 2, 3, &l)) return "2 or 3";
  c->variant.levels = (int)l, c->variant_set = 1;
  return NULL;
}
static const char *p_yi(const char *v, void *ctx) {
  static const char *const names[] = {"nested", "collapsed", NULL}; /* yi_collapsed 0, 1 */
  return p_form(v, ctx, names, &((ts_config *)ctx)->variant.yi_collapsed);
}
static const char *p_deidrj(const char *v, void *ctx) {
  static const char *const names[] = {"levels", "split", NULL}; /* SNAP_DEIDRJ_LEVELS, _SPLIT */
  return p_form(v, ctx, names, &((ts_config *)ctx)->variant.deidrj);
}
static const char *p_team(const char *v, void *ctx) {
  ts_config *c = ctx;
  long long n;
  const char *err = pp_parse_int(v, 1, 1024, &n);
  if (err) return err;
  c->variant.team_size = (int)n, c->variant_set = 1;
  return NULL;
}

static const pp_app_option options[] = {
    {"--case", "NAME", "a reference case of inputs/testsnap: W_2J8_2000, W_2J8_2000_disp,\n"
                       "                     W_2J14_2000_disp (default), or W_2 (TestSNAP's own)", p_case},
    {"--inputs", "DIR", "the suite's inputs folder holding testsnap/<case> (default: $PP_INPUTS, else\n"
                        "                     the executable's ../share/proxyport/inputs)", p_inputs},
    {"--data", "FILE", "LAMMPS data file (atom_style atomic, one type, orthogonal box,\n"
                       "                     periodic in x, y, z)", p_data},
    {"--coeff", "FILE", "LAMMPS .snapcoeff (one element)", p_coeff},
    {"--param", "FILE", "LAMMPS .snapparam (linear SNAP: quadraticflag 0)", p_param},
    {"--lattice", "N|NX,NY,NZ", "generate a bcc lattice of conventional cells instead of --data", p_lattice},
    {"--lattice-constant", "A", "bcc lattice constant in A (default 3.1803, W)", p_lattice_a},
    {"--displace", "D", "uniform random displacement of every coordinate in [-D, D] A\n"
                        "                     (default 0.05; stream seeded by --seed)", p_displace},
    {"--reference", "FILE", "per-atom dump (LAMMPS: id ... c_peatom fx fy fz, or --dump's output)\n"
                            "                     to validate against; default: the host model", p_reference},
    {"--testsnap-ref", "DIR", "TestSNAP's reference folder (inputs/testsnap/W_2): its neighbours,\n"
                              "                     coefficients and unfolded forces", p_tsref},
    {"--steps", "N", "timed steps (default 100); --warmup steps run first, untimed", p_steps},
    {"--dump", "FILE", "write 'id energy fx fy fz' per atom (%.17g, sorted by id); with\n"
                       "                     several models, FILE.<model>", p_dump},
    {"--fd-check", "N", "also check N force components against central differences of\n"
                        "                     the host model's energies (each component once: N is at\n"
                        "                     most 3 x atoms, larger N is refused)", p_fd},
    {"--fd-step", "H", "displacement of the finite differences (default 1e-5 A)", p_fd_step},
    {"--scratch", "team|global", "scratch of compute_ui and the dU kernel (default: the model's)", p_scratch},
    {"--levels", "2|3", "atoms x neighbours (2) or x vector lanes too (3) (default: the model's)", p_levels},
    {"--yi", "collapsed|nested", "compute_yi as one flattened launch or nested (default: the model's)", p_yi},
    {"--deidrj", "levels|split", "compute_deidrj split as TestSNAP Kokkos_V2 (default): a thread per\n"
                                 "                     (pair, direction, diagonal of rows), one row of U and dU each;\n"
                                 "                     or level by level, a neighbour's lanes sharing its levels", p_deidrj},
    {"--team-size", "N", "threads per team (default: the model's; cuda/ompx 128, compute_yi's tile kernel 256, compute_energies 1024)", p_team},
    {NULL, NULL, NULL, NULL}};

const pp_app_option *ts_options(void) { return options; }

void ts_config_default(ts_config *c) {
  memset(c, 0, sizeof *c);
  c->lattice_a = 3.1803;
  c->displace = 0.05;
  c->steps = 100;
  c->fd_step = 1e-5;
  c->variant.scratch = SNAP_SCRATCH_DEFAULT;
  c->variant.levels = 0;
  c->variant.yi_collapsed = -1;
  c->variant.deidrj = SNAP_DEIDRJ_DEFAULT;
}

const char *ts_unused_option(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--samples")) return "--samples is not used: every step is a sample (--steps N)";
    if (!strcmp(argv[i], "--size")) return "--size is not used: give --case, --data or --lattice";
  }
  return NULL;
}
