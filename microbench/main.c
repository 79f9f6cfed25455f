/* microbench driver: options, then for each size, model and threads per
 * block, the selected kernels of suite.c through the generic kernel loop
 * (pp/kernel.h), each checked exactly against gold values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pp/pp.h"
#include "suite.h"

typedef struct config {
  pp_list tpb;
  int blocks;       /* --blocks: of the streaming, atomic and reduction kernels (0: one per tpb elements) */
  int per_thread;   /* --per-thread: elements per thread of the streaming kernels without --blocks */
  uint64_t kernels; /* bit i: mb_suite[i] */
  int energy_all;   /* --energy-tpb all */
  int energy_sizes; /* --energy-sizes all */
} config;

static const char *parse_energy_tpb(const char *v, void *ctx) {
  static const char *const names[] = {"fastest", "all", NULL};
  return pp_parse_choice(v, names, &((config *)ctx)->energy_all);
}

static const char *parse_energy_sizes(const char *v, void *ctx) {
  static const char *const names[] = {"largest", "all", NULL};
  return pp_parse_choice(v, names, &((config *)ctx)->energy_sizes);
}

static const char *parse_tpb(const char *v, void *ctx) {
  config *c = ctx;
  const char *err = pp_parse_list(v, 32, 1024, &c->tpb);
  if (err) return err;
  for (int i = 0; i < c->tpb.n; i++)
    if (c->tpb.v[i] % 32) return "threads per block must be multiples of 32";
  return NULL;
}

static const char *parse_blocks(const char *v, void *ctx) {
  long long b;
  const char *err = pp_parse_int(v, 0, 0x7fffffff, &b);
  if (!err) ((config *)ctx)->blocks = (int)b;
  return err;
}

static const char *parse_per_thread(const char *v, void *ctx) {
  long long k;
  const char *err = pp_parse_int(v, 1, 64, &k);
  if (!err) ((config *)ctx)->per_thread = (int)k;
  return err;
}

static const char *parse_kernels(const char *v, void *ctx) {
  config *c = ctx;
  return pp_kernel_select(v, mb_suite, mb_suite_len, &c->kernels);
}

int main(int argc, char **argv) {
  static config cfg = {.tpb = {.n = 4, .v = {128, 256, 512, 1024}}, .per_thread = MB_PER_THREAD};
  cfg.kernels = (1ull << mb_suite_len) - 1;
  static const pp_app_option options[] = {
      {"--tpb", "LIST", "threads per block/team, multiples of 32 (default 128,256,512,1024)", parse_tpb},
      {"--blocks", "N", "blocks/teams of the streaming, atomic and reduction kernels, threads\n"
       "                     striding over the array (default 0: the streaming kernels' from\n"
       "                     --per-thread, the others one per tpb elements)", parse_blocks},
      {"--per-thread", "K", "elements per thread of the streaming kernels (init, zaxpy, copy, mul, add,\n"
       "                     triad) without --blocks: one block per tpb x K elements, threads striding\n"
       "                     (default " PP_STR(MB_PER_THREAD) ", as BabelStream; 1: one element per thread)",
       parse_per_thread},
      {"--kernels", "LIST", "kernels to run, by row name (default all; listed below)", parse_kernels},
      {"--energy-tpb", "WHICH", "fastest (default): a kernel's energy is metered at its fastest tpb, the\n"
       "                     row the summary reports (each metered row costs a few counter updates); all:\n"
       "                     at every tpb", parse_energy_tpb},
      {"--energy-sizes", "WHICH", "largest (default): energy is metered at the largest size, the row the\n"
       "                     summary reports (the launch kernels at their own size); all: at every size",
       parse_energy_sizes},
      {NULL, NULL, NULL, NULL}};
  static char epilog[4096];
  char list[2048];
  pp_kernel_help(list, sizeof list, mb_suite, mb_suite_len);
  snprintf(epilog, sizeof epilog,
           "Kernels (rows) and their figures of merit:\n%s"
           "Every result is checked exactly against gold values computed from the input\n"
           "generator in closed form (inputs are multiples of 1/8, the stream scalar is 3/8, so\n"
           "no rounding can occur). The launch kernels run at the first size only. The host\n"
           "model ignores --tpb.\n",
           list);
  static pp_app app = {.name = "microbench",
                       .summary = "array init, zaxpy, BabelStream, atomics, reductions and launch overhead",
                       .size_help = "array lengths in elements",
                       .default_sizes = "2^12,2^18,2^24",
                       .max_size = 1ll << 30,
                       .options = options,
                       .ctx = &cfg,
                       .epilog = epilog,
                       .faults = mb_faults};

  pp_session s;
  pp_session_start(&s, argc, argv, &app);
  long long maxn = 0;
  for (int i = 0; i < s.opt.sizes.n; i++) maxn = s.opt.sizes.v[i] > maxn ? s.opt.sizes.v[i] : maxn;
  /* Host: the inputs, one downloaded result, and the arrays of the host
   * model (or of OpenMP offloading to the host), which are host memory. */
  double dev_bytes = (double)maxn * MB_DEVICE_BYTES + MB_DEVICE_FIXED_BYTES;
  double host_bytes = (double)maxn * (MB_INPUT_BYTES + 8) + dev_bytes;
  pp_session_check_fits(&s, "the largest size", dev_bytes, host_bytes);

  pp_report_param(s.report, "sizes", "%s", "see rows (elements)");
  pp_report_param(s.report, "stream scalar", "%g (axpy a = %g)", MB_SCALAR, MB_AXPY_A);
  char tpbs[128] = "";
  for (int i = 0; i < cfg.tpb.n; i++)
    snprintf(tpbs + strlen(tpbs), sizeof tpbs - strlen(tpbs), "%s%lld", i ? "," : "", cfg.tpb.v[i]);
  pp_report_param(s.report, "threads per block", "%s", tpbs);
  if (cfg.blocks) pp_report_param(s.report, "blocks (streaming, atomics, reductions)", "%d", cfg.blocks);
  else if (cfg.per_thread > 1)
    pp_report_param(s.report, "blocks (streaming, atomics, reductions)",
                    "streaming: one per tpb x %d elements (--per-thread); others: one per tpb elements",
                    cfg.per_thread);
  else pp_report_param(s.report, "blocks (streaming, atomics, reductions)", "one per tpb elements");

  /* One result buffer for every check, its pages touched once (suite.h). */
  double *check_buf = pp_host_alloc(app.name, (size_t)maxn * sizeof *check_buf, "the results");
#pragma omp parallel for
  for (long long i = 0; i < maxn; i++) check_buf[i] = 0;
  /* Kernels of a fixed size of their own (the launch kernels) run once, at the first size. */
  uint64_t sized = 0;
  for (int i = 0; i < mb_suite_len; i++) sized |= (uint64_t)(mb_suite[i].size == 0) << i;
  for (int si = 0; si < s.opt.sizes.n; si++) {
    uint64_t here = si == 0 ? cfg.kernels : cfg.kernels & sized;
    if (!here) continue;
    /* energy: at the largest size, and the launch kernels' at theirs */
    const uint64_t metered = cfg.energy_sizes || s.opt.sizes.v[si] == maxn ? here : here & ~sized;
    mb_inputs in;
    mb_gold gold;
    mb_inputs_make(&in, app.name, (size_t)s.opt.sizes.v[si], s.opt.seed);
    mb_gold_sums(&gold, s.opt.seed, in.n);
    for (int m = 0; m < PP_MODEL_COUNT; m++) {
      if (!s.ops[m]) continue;
      int tpb[MB_MAX_TPB], ntpb = m == PP_HOST ? 1 : cfg.tpb.n;
      for (int t = 0; t < ntpb; t++) tpb[t] = m == PP_HOST ? 256 : (int)cfg.tpb.v[t];
      const mb_energy_plan plan = {cfg.energy_all, metered, maxn};
      const mb_shape shape = {cfg.blocks, cfg.per_thread};
      mb_run_model(&s, (pp_model)m, &in, &gold, tpb, ntpb, &shape, &plan, here, check_buf);
    }
    mb_inputs_free(&in);
  }
  free(check_buf);
  return pp_session_finish(&s);
}
