/* xsbench_like's command line: the suite's option names and XSBench's own
 * spellings as aliases, so an XSBench command line runs unchanged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/cli.h"
#include "pp/omp_env.h"
#include "xs_options.h"
#ifdef _OPENMP
#include <omp.h>
#endif

#define XS_MAX_LOOKUPS (1ll << 40)

static const char *p_problem(const char *v, void *ctx) {
  xs_config *c = ctx;
  xs_sizes z;
  if (xs_sizes_for(v, 0, &z) != 0) return "unknown problem size (small, large, XL, XXL)";
  c->problem = z.name;
  return NULL;
}
static const char *p_lookups(const char *v, void *ctx) {
  xs_config *c = ctx;
  c->lookups_set = 1;
  return pp_parse_int(v, 1, XS_MAX_LOOKUPS, &c->lookups);
}
static const char *p_particles(const char *v, void *ctx) {
  xs_config *c = ctx;
  c->particles_set = 1;
  return pp_parse_int(v, 1, XS_MAX_LOOKUPS, &c->particles);
}
static const char *p_gridpoints(const char *v, void *ctx) {
  return pp_parse_int(v, 2, 1ll << 30, &((xs_config *)ctx)->gridpoints);
}
static const char *p_grid(const char *v, void *ctx) {
  const char *const grids[] = {xs_grid_name(XS_UNIONIZED), xs_grid_name(XS_NUCLIDE), xs_grid_name(XS_HASH), NULL};
  return pp_parse_choice(v, grids, &((xs_config *)ctx)->grid); /* xs_grid: 0, 1, 2 */
}
static const char *p_hash_bins(const char *v, void *ctx) {
  xs_config *c = ctx;
  c->hash_bins_set = 1;
  return pp_parse_int(v, 1, 1ll << 30, &c->hash_bins);
}
static const char *p_method(const char *v, void *ctx) {
  static const char *const methods[] = {"event", "history", NULL};
  return pp_parse_choice(v, methods, &((xs_config *)ctx)->history);
}
static const char *p_variant(const char *v, void *ctx) {
  xs_config *c = ctx;
  c->variants = 0;
  for (const char *t = v;; t++) { /* one variant per comma-separated field */
    const size_t len = strcspn(t, ",");
    if (!len) return "empty element in the list (two commas, or a comma at either end)";
    int k = 0;
    while (k < XS_VARIANT_COUNT &&
           (strlen(xs_variant_name(k)) != len || strncmp(t, xs_variant_name(k), len)))
      k++;
    if (k < XS_VARIANT_COUNT) c->variants |= 1u << k;
    else if (len == 3 && !strncmp(t, "all", 3)) c->variants = (1u << XS_VARIANT_COUNT) - 1;
    else return "unknown variant (baseline, sampling, material, fuel, sorted-material, sorted-energy, all)";
    t += len;
    if (!*t) break;
  }
  c->variants_set = 1;
  return NULL;
}
static const char *p_kernel(const char *v, void *ctx) {
  xs_config *c = ctx;
  long long id;
  const char *err = pp_parse_int(v, 0, 6, &id);
  if (err) return "XSBench kernel ids are 0, 1, 2, 3, 4, 6";
  if (id == 5) return "XSBench's -k 5 (fuel/non-fuel partition) is not implemented; ids 0-4 and 6 are";
  for (int k = 0; k < XS_VARIANT_COUNT; k++)
    if (xs_variant_kernel_id(k) == id) c->variants = 1u << k;
  c->variants_set = 1;
  return NULL;
}
static const char *p_threads(const char *v, void *ctx) {
  (void)ctx;
  long long t;
  const char *err = pp_parse_int(v, 1, PP_MAX_OMP_THREADS, &t); /* why: pp/omp_env.h */
#ifdef _OPENMP
  if (!err) omp_set_num_threads((int)t);
#endif
  return err;
}
static const char *p_expect(const char *v, void *ctx) {
  xs_config *c = ctx;
  long long x;
  const char *err = pp_parse_int(v, 0, (long long)XS_HASH_MOD - 1, &x);
  if (!err) c->expect = (unsigned long long)x, c->expect_set = 1;
  return err;
}
static const char *p_sort(const char *v, void *ctx) {
  static const char *const sorts[] = {"own", "vendor", NULL};
  return pp_parse_choice(v, sorts, &((xs_config *)ctx)->sort_vendor);
}
static const char *p_split(const char *v, void *ctx) {
  static const char *const splits[] = {"lookups", "energy", NULL};
  xs_config *c = ctx;
  c->split_set = 1;
  return pp_parse_choice(v, splits, &c->split_energy);
}
static const char *p_material_launch(const char *v, void *ctx) {
  static const char *const launches[] = {"serial", "concurrent", "single", NULL};
  xs_config *c = ctx;
  c->material_set = 1;
  return pp_parse_choice(v, launches, &c->material_launch);
}
static const char *p_phases(const char *v, void *ctx) {
  (void)v;
  ((xs_config *)ctx)->phases = 1;
  return NULL;
}
static const char *p_sort_check(const char *v, void *ctx) {
  (void)v;
  ((xs_config *)ctx)->sort_check = 1;
  return NULL;
}
static const char *p_binary(const char *v, void *ctx) {
  (void)v, (void)ctx;
  return "XSBench's binary file mode is not supported: the data is generated in every run";
}

/* Both spellings of each option; XSBench's first letters where they exist. */
static const pp_app_option options[] = {
    {"--problem", "SIZE", "H-M benchmark size: small, large, XL, XXL (default large; XSBench -s)", p_problem},
    {"-s", "SIZE", "= --problem", p_problem},
    {"--method", "M", "event (default) or history (XSBench's CPU default; host only) (-m)", p_method},
    {"-m", "M", "= --method", p_method},
    {"--lookups", "N", "event: total lookups (default 17,000,000); history: lookups per\n"
                       "                     particle (default 34); 1..2^40 (XSBench -l)", p_lookups},
    {"-l", "N", "= --lookups", p_lookups},
    {"--particles", "N", "history: particles (default 500,000) (XSBench -p)", p_particles},
    {"-p", "N", "= --particles", p_particles},
    {"--grid", "TYPE", "unionized (default), nuclide or hash (XSBench -G)", p_grid},
    {"-G", "TYPE", "= --grid", p_grid},
    {"--hash-bins", "N", "hash grid bins (--grid hash; default 10,000); XSBench's '-h N' is\n"
                         "                     accepted too ('-h' followed by a value; '-h' alone or\n"
                         "                     before an option is --help)", p_hash_bins},
    {"--gridpoints", "N", "points per nuclide, overrides the size's (XSBench -g)", p_gridpoints},
    {"-g", "N", "= --gridpoints", p_gridpoints},
    {"--variant", "LIST", "event kernels: baseline, sampling, material, fuel, sorted-material,\n"
                          "                     sorted-energy, all (default baseline)", p_variant},
    {"-k", "ID", "XSBench CUDA kernel id: 0 baseline, 1 sampling, 2 material, 3 fuel,\n"
                 "                     4 sorted-material, 6 sorted-energy", p_kernel},
    {"--sort", "S", "sorted variants' device sort: own (default; the suite's radix sort, the\n"
                    "                     same in cuda and ompx) or vendor (cuda: CUB; other models\n"
                    "                     report the sorted variants NOT RUN, refused if none has one)", p_sort},
    {"--split", "S", "how MPI ranks share the sorted variants' lookups: lookups (default;\n"
                     "                     contiguous blocks of the lookup index, as the other\n"
                     "                     variants always are) or energy (rank r of R takes those\n"
                     "                     with energy in [r/R, (r+1)/R): every rank samples all of\n"
                     "                     them, keeps its band, sorts and looks up as densely in\n"
                     "                     energy as one GPU does; every model)", p_split},
    {"--material-launch", "L",
     "sorted variants' per-material lookups: serial (default; one\n"
     "                     kernel after another, as XSBench's -k 4 and -k 6),\n"
     "                     concurrent (all at once, joined before the checksum;\n"
     "                     cuda, hip, ompx; the others report serial) or single\n"
     "                     (one kernel over all the sorted lookups, each taking\n"
     "                     its material from its sort key: no material ranges,\n"
     "                     no host round trip; every model)",
     p_material_launch},
    {"--phases", NULL,
     "also a row per phase of the event variants (sampling, sort, material\n"
     "                     ranges, lookups, checksum), each timed alone in one more\n"
     "                     run with a synchronization around every phase",
     p_phases},
    {"--sort-check", NULL, "check the sort alone on all of this rank's keys (not 100,003) and\n"
                           "                     print its time (one untimed run first)", p_sort_check},
    {"--threads", "N", "host OpenMP threads (XSBench -t)", p_threads},
    {"-t", "N", "= --threads", p_threads},
    {"--expect-checksum", "N", "every model must print this checksum (e.g. one recorded from\n"
                               "                     XSBench itself, validate/xsbench/)", p_expect},
    {"-b", "MODE", "XSBench's binary file mode: refused", p_binary},
    {NULL, NULL, NULL, NULL}};

const pp_app_option *xs_options(void) { return options; }

void xs_config_default(xs_config *c) {
  memset(c, 0, sizeof *c);
  c->problem = "large";
  c->grid = XS_UNIONIZED;
  c->hash_bins = XS_DEFAULT_HASH_BINS;
  c->variants = 1u << XS_BASELINE;
}

/* XSBench's "-h N" is hash bins; the suite's "-h" is help: what follows
 * "-h" decides. A value (anything but an option; "-5" is a value, so its
 * range is checked) makes it --hash-bins. Rewrites argv in place. */
void xs_rewrite_argv(int argc, char **argv) {
  static char hash_opt[] = "--hash-bins";
  for (int i = 1; i + 1 < argc; i++) {
    if (strcmp(argv[i], "-h")) continue;
    const char *v = argv[i + 1];
    const int option = v[0] == '-' && v[1] && !(v[1] >= '0' && v[1] <= '9');
    if (!option) argv[i] = hash_opt;
  }
}
