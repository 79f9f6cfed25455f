/* testsnap driver: options -> configuration, potential, neighbours ->
 * reference -> each model's steps (every kernel timed alone) -> per-atom
 * energies and forces checked -> report. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "pp/datadir.h"
#include "pp/outfile.h"
#include "pp/pp.h"
#include "pp/escape.h"
#include "problem.h"
#include "ts_options.h"

#define DEFAULT_CASE "W_2J14_2000_disp"
#define GIB 1073741824.0

/* Tolerances against the reference (LAMMPS and TestSNAP agree with each
 * other to ~1e-15 eV/A on W_2; these leave room for summation order and
 * compilers, and are far below any physical difference). */
#define TOL_E 1e-10      /* eV: max_i |E_i - E_ref,i| */
#define TOL_F_RMS 1e-10  /* eV/A: sqrt(mean_i |F_i - F_ref,i|^2) */
#define TOL_F_MAX 1e-9   /* eV/A: max_i |F_i - F_ref,i| */
#define TOL_FD 1e-6      /* eV/A: max |F + dE/dx| of central differences */
#define FAULT_SIZE 1e-6  /* planted faults: one value off by this much */
/* Coefficients whose a-priori bound on |E_i| exceeds this are refused: far
 * beyond any physics, and it leaves the forces' derivative factors room
 * below the largest double. */
#define MAX_ENERGY_BOUND 1e300

typedef struct problem {
  char what[256];
  snap_potential *pot;
  snap_host_tables tab;
  snap_atoms atoms;       /* periodic configurations (n = 0 in TestSNAP mode) */
  snap_neigh nl;
  char ref_what[300];
  double *ref_e, *ref_f;  /* whole problem: ref_e [dec.ne]; ref_f [dec.nf*3] */
  const char *e_what;     /* where the reference energies come from */
  ts_decomp dec;          /* this rank's atoms; nl holds only their lists */
  double bytes;           /* memory this rank's part needs (need_bytes) */
  double flops[SNAP_NKERNELS]; /* per kernel run: this rank's, and all ranks' */
  double flops_all[SNAP_NKERNELS];
} problem;

static const char *const kname[SNAP_NKERNELS] = {"compute_ui", "compute_yi", "compute_deidrj", "compute_forces",
                                                 "compute_energies"};
static int dump_failed; /* a --dump could not be written: no output is, exit 4 */

/* ---- setting up ------------------------------------------------------------------ */
static void resolve_case(ts_config *c, char *buf, size_t len) {
  const int n_src = !!c->case_name + !!c->data + !!c->cells[0] + !!c->testsnap_ref;
  if (n_src > 1) pp_usage_error("testsnap", "give one of --case, --data, --lattice, --testsnap-ref");
  if (n_src == 0) c->case_name = DEFAULT_CASE;
  if (!c->case_name) return;
  char root[1024], dir[1200];
  if (!pp_inputs_dir(c->inputs, root, sizeof root))
    pp_usage_error("testsnap", "--case %s: no inputs folder (%s is not a folder); give --inputs DIR or set "
                   "PP_INPUTS to the suite's inputs/", c->case_name, root);
  snprintf(dir, sizeof dir, "%s/testsnap/%s", root, c->case_name);
  struct stat st;
  if (strchr(c->case_name, '/') || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) { /* name the cases there */
    char cases[512], tdir[1100];
    snprintf(tdir, sizeof tdir, "%s/testsnap", root);
    if (pp_dir_names(tdir, "", 1, cases, sizeof cases) == 0)
      snprintf(cases, sizeof cases, "none (the folder is empty or unreadable)");
    pp_usage_error("testsnap", "--case %s: no such case in %s; the cases: %s", c->case_name, tdir, cases);
  }
  if (!strcmp(c->case_name, "W_2")) {
    static char ts_dir[sizeof dir];
    snprintf(ts_dir, sizeof ts_dir, "%s", dir);
    c->testsnap_ref = ts_dir;
    return;
  }
  if (c->coeff || c->param) pp_usage_error("testsnap", "--case brings its own potential: drop --coeff/--param");
  char *p = buf;
  const char *pat[4] = {"data.*", "*.snapcoeff", "*.snapparam", "peratom.dump"};
  const char **dst[4] = {&c->data, &c->coeff, &c->param, &c->reference};
  for (int k = 0; k < 4; k++) {
    if (*dst[k]) continue; /* --reference given: it wins */
    snap_find_file(dir, pat[k], p, len - (size_t)(p - buf));
    *dst[k] = p;
    p += strlen(p) + 1;
  }
}

/* Bytes the run needs, estimated before the neighbour lists exist. */
static double need_bytes(const snap_tables *t, int natoms, int nall, double nmax) {
  return 8.0 * (4.0 * natoms * t->idxu_max + 3.0 * natoms * nmax) /* scratch */
         + natoms * nmax * 32.0 + nall * 80.0;                    /* lists, outputs */
}

/* Inputs: what every rank reads alike (a bad one is one message, exit 2). */
typedef struct inputs_ctx {
  pp_session *s;
  ts_config *c;
  problem *pb;
} inputs_ctx;

static void read_inputs(void *ctx) {
  pp_session *s = ((inputs_ctx *)ctx)->s;
  ts_config *c = ((inputs_ctx *)ctx)->c;
  problem *pb = ((inputs_ctx *)ctx)->pb;
  static char paths[4096];
  resolve_case(c, paths, sizeof paths);
  if (c->testsnap_ref && pp_mpi_size() > 1)
    pp_usage_error("testsnap", "TestSNAP's reference (--testsnap-ref, --case W_2) runs on one rank only: its "
                               "ghost atoms are not decomposed; run one rank");
  if (c->testsnap_ref) {
    if (c->reference || c->fd_checks || c->coeff || c->param)
      pp_usage_error("testsnap", "--testsnap-ref brings its potential and reference: drop --reference, "
                                 "--fd-check, --coeff, --param");
    snap_tsref ts;
    snap_read_testsnap(c->testsnap_ref, &ts);
    const int nc = snap_ncoeff(ts.twojmax);
    pb->pot = calloc(1, sizeof *pb->pot + sizeof(double) * (size_t)nc);
    snap_potential *p = pb->pot;
    /* TestSNAP's fixed parameters (src/test_snap.h), cutoff rcutfac itself */
    p->rcutfac = p->rcut = ts.rcutfac, p->rfac0 = 0.99363, p->rmin0 = 0.0;
    p->twojmax = ts.twojmax, p->switchflag = 1, p->bzeroflag = 1;
    p->radius = 0.5, p->weight = 1.0, p->ncoeff = nc, p->beta0 = ts.coeff[0];
    memcpy(p->beta, ts.coeff + 1, sizeof(double) * (size_t)nc);
    for (int q = 0; q < ts.nlocal * ts.ninside; q++) {
      const double *r = ts.rij + 3 * q;
      const double rr2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2];
      if (!(rr2 >= DBL_MIN && rr2 < p->rcut * p->rcut)) /* SNAP divides by |r_ij| */
        pp_usage_error("testsnap", "%s: neighbour %d at %g A is outside (0, rcutfac = %g)", c->testsnap_ref, q,
                       sqrt(rr2), p->rcut);
    }
    if (snap_tables_build(p->twojmax, p->beta, &pb->tab) != 0 ||
        snap_neigh_from_lists(ts.nlocal, ts.nlocal + ts.nghost, ts.ninside, ts.jlist, ts.rij, &pb->nl) != 0)
      pp_usage_error("testsnap", "out of memory for TestSNAP's data");
    pb->ref_f = ts.fj;
    snprintf(pb->what, sizeof pb->what, "TestSNAP reference %s: %d local + %d ghost atoms, %d neighbours each",
             c->testsnap_ref, ts.nlocal, ts.nghost, ts.ninside);
    snprintf(pb->ref_what, sizeof pb->ref_what,
             "TestSNAP's forces on local and ghost atoms, ghost forces not folded (TestSNAP's convention)");
    free(ts.coeff), free(ts.jlist), free(ts.rij);
    ts_decomp_block(pb->nl.natoms, pb->nl.nall, &pb->dec);
    return;
  }
  if (!c->coeff || !c->param) pp_usage_error("testsnap", "give --coeff FILE and --param FILE (or --case NAME)");
  pb->pot = snap_read_potential(c->coeff, c->param);
  const snap_potential *p = pb->pot;
  if (c->data) {
    snap_read_data(c->data, &pb->atoms);
    snprintf(pb->what, sizeof pb->what, "%s%s (%d atoms)", c->case_name ? "case " : "",
             c->case_name ? c->case_name : c->data, pb->atoms.n);
  } else { /* its size only: the coordinates are made once the problem is known to fit */
    snap_bcc_size((int)c->cells[0], (int)c->cells[1], (int)c->cells[2], c->lattice_a, &pb->atoms);
    snprintf(pb->what, sizeof pb->what,
             "bcc %lldx%lldx%lld cells (%d atoms), a = %g A, displacements uniform in [-%g, %g] A, seed %llu",
             c->cells[0], c->cells[1], c->cells[2], pb->atoms.n, c->lattice_a, c->displace, c->displace,
             (unsigned long long)s->opt.seed);
  }
  const char *small = snap_box_check(pb->atoms.box, p->rcut);
  if (small) pp_usage_error("testsnap", "%s: %s", c->data ? c->data : "--lattice", small);
  if (pb->atoms.n < pp_mpi_size())
    pp_usage_error("testsnap", "%d atoms for %d ranks: every rank needs at least one atom", pb->atoms.n,
                   pp_mpi_size());
  if (c->fd_checks > 3LL * pb->atoms.n)
    pp_usage_error("testsnap", "--fd-check %lld: the configuration has %lld force components (3 x %d atoms), "
                   "each checked at most once", c->fd_checks, 3LL * pb->atoms.n, pb->atoms.n);
  if (snap_tables_build(p->twojmax, p->beta, &pb->tab) != 0) pp_usage_error("testsnap", "out of memory for tables");
  ts_decomp_block(pb->atoms.n, pb->atoms.n, &pb->dec);
  /* neighbours estimated from the density (the lists do not exist yet) */
  const double vol = pb->atoms.box[0] * pb->atoms.box[1] * pb->atoms.box[2];
  const double est = pb->atoms.n / vol * 4.18879 * p->rcut * p->rcut * p->rcut * 1.5 + 8;
  pb->bytes = need_bytes(&pb->tab.t, pb->dec.hi - pb->dec.lo, pb->atoms.n, est);
  if (c->reference) { /* read here: a bad dump is an input error */
    snap_ref r;
    snap_read_dump(c->reference, pb->dec.nf, &r);
    pb->ref_f = r.force;
    snprintf(pb->ref_what, sizeof pb->ref_what, "%s", c->reference);
    if (r.has_energy) pb->ref_e = r.energy, pb->e_what = "the reference";
    else free(r.energy);
  }
}

/* Inputs the math cannot take, found once the neighbours are known:
 * coincident atoms (SNAP divides by |r_ij|) and coefficients so large that
 * energies overflow. NULL, or why (static storage). */
static const char *degenerate(const ts_config *c, const problem *pb) {
  static char msg[512];
  const snap_potential *p = pb->pot;
  int i, j, imaged;
  if (pb->atoms.n && snap_neigh_coincident(&pb->atoms, &pb->nl, pb->dec.lo, &i, &j, &imaged)) {
    snprintf(msg, sizeof msg, "%s: atoms %d and %d are at the same position%s: SNAP needs distinct atoms",
             c->data ? c->data : "--lattice", i + 1, j + 1, imaged ? " (through periodic images)" : "");
    return msg;
  }
  /* |U_i| <= wself + nmax |w|, |Z| <= (J+1)^2 |U|^2, |B_k| <= 2 (J+1)^4 |U|^3, bzero_k <= J+1 */
  const double u = 1.0 + pb->nl.nmax * fabs(p->weight), j4 = pow(p->twojmax + 1.0, 4);
  double sum = 0.0, big = fabs(p->beta0);
  for (int k = 0; k < p->ncoeff; k++) sum += fabs(p->beta[k]), big = fmax(big, fabs(p->beta[k]));
  const double bound = fabs(p->beta0) + (sum > 0.0 ? sum * (2.0 * j4 * u * u * u + p->twojmax + 1.0) : 0.0);
  if (!(bound <= MAX_ENERGY_BOUND)) {
    snprintf(msg, sizeof msg, "%s: coefficients up to |beta| = %.3g with weight %g and up to %d neighbours bound "
             "|E_i| only by %.3g eV (over %g): energies and forces could overflow",
             c->coeff ? c->coeff : c->testsnap_ref, big, p->weight, pb->nl.nmax, bound, MAX_ENERGY_BOUND);
    return msg;
  }
  return NULL;
}

/* The longest neighbour list (nmax) whose need_bytes passes the fit check
 * of setup(), and whose natoms x nmax pairs an int indexes. */
static int nmax_that_fits(const pp_session *s, const problem *pb, int nloc) {
  int lo = 0, hi = (int)(2147483647.0 / (nloc ? nloc : 1));
  while (lo < hi) { /* need_bytes grows with nmax: the largest that fits */
    const int mid = lo + (hi - lo + 1) / 2;
    const double b = need_bytes(&pb->tab.t, nloc, pb->atoms.n, mid);
    if (pp_session_fits(s, b + SNAP_WORK_BYTES_EXTRA, 2.0 * b * pp_mpi_local_size())) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

static void setup(pp_session *s, ts_config *c, problem *pb) {
  inputs_ctx x = {s, c, pb};
  pp_usage_collective("testsnap", read_inputs, &x);
  const ts_decomp *dc = &pb->dec;
  if (pb->atoms.n) { /* every rank of this node holds its block's lists and the whole outputs */
    pp_session_check_fits(s, "the SNAP problem", pb->bytes + SNAP_WORK_BYTES_EXTRA,
                          2.0 * pb->bytes * pp_mpi_local_size());
    if (!pb->atoms.x && snap_bcc((int)c->cells[0], (int)c->cells[1], (int)c->cells[2], c->lattice_a, c->displace,
                                 s->opt.seed, &pb->atoms) != 0)
      pp_device_fail(PP_HOST, "testsnap lattice", "out of host memory");
    /* The estimate above assumed uniform density; clustered atoms can have
     * far more neighbours. The lists are counted before they are made, up
     * to the longest list that fits (need_bytes, as checked above). */
    const int nloc = dc->hi - dc->lo, lim = nmax_that_fits(s, pb, nloc);
    int over[2];
    const int rc = snap_neigh_build_block(&pb->atoms, pb->pot->rcut, dc->lo, dc->hi, lim, &pb->nl, over);
    char why[512];
    if (rc == -2)
      snprintf(why, sizeof why, "%s: atom %d has %d neighbours within the cutoff %g A (dense or clustered atoms): "
               "lists of %d slots for each of %d atoms (%.2f GiB of working set) do not fit in memory; "
               "at most %d slots fit",
               c->data ? c->data : "--lattice", over[0] + 1, over[1], pb->pot->rcut, over[1], nloc,
               need_bytes(&pb->tab.t, nloc, pb->atoms.n, over[1]) / 1073741824.0, lim);
    pp_usage_check_all("testsnap", rc == -2 ? why : NULL);
    if (rc != 0) pp_device_fail(PP_HOST, "testsnap neighbours", "out of host memory");
  }
  pp_usage_check_all("testsnap", degenerate(c, pb));
  ts_flops(&pb->tab.t, &pb->nl, pb->flops);
  memcpy(pb->flops_all, pb->flops, sizeof pb->flops);
  pp_mpi_sum(pb->flops_all, SNAP_NKERNELS);
}

/* A variant that no asked model can run is bad usage, known before the
 * reference is computed: one line, exit 2. (When some can, the others are
 * reported as not run.) */
static void check_variant(const pp_session *s, const ts_config *c, const problem *pb) {
  snap_data d;
  ts_data_fill(&d, pb->pot, &pb->tab, &pb->nl, NULL, NULL);
  char msg[1024] = "no asked model can run this variant: ";
  size_t len = strlen(msg);
  int refused = 0;
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    if (!s->ops[m]) continue;
    const snap_kernels *k = PP_MODEL_DISPATCH(m, snap_kernels_);
    const char *mn = pp_model_name((pp_model)m);
    char why[256] = "";
    if (k->check(&d, &c->variant, why, sizeof why) == 0) {
      pp_usage_check_all("testsnap", NULL);
      return;
    }
    const int named = !strncmp(why, mn, strlen(mn)) && why[strlen(mn)] == ':';
    if (len < sizeof msg)
      len += (size_t)snprintf(msg + len, sizeof msg - len, "%s%s%s%s", refused++ ? "; " : "", named ? "" : mn,
                              named ? "" : ": ", why);
  }
  pp_usage_check_all("testsnap", msg);
}

/* The reference must be finite: anything else comes from inputs the math
 * cannot take (exit 2, not a validation failure of every model). */
static void check_reference_finite(const problem *pb) {
  char msg[320];
  const char *bad = NULL;
  for (int i = 0; i < pb->dec.ne && !bad; i++)
    if (!isfinite(pb->ref_e[i]))
      snprintf(msg, sizeof msg, "the reference energy of atom %d (%.100s) is %g: the inputs overflow double precision",
               i + 1, pb->e_what, pb->ref_e[i]), bad = msg;
  for (int k = 0; k < 3 * pb->dec.nf && !bad; k++)
    if (!isfinite(pb->ref_f[k]))
      snprintf(msg, sizeof msg, "the reference force on atom %d (%.100s) is %g: the inputs overflow double precision",
               k / 3 + 1, pb->ref_what, pb->ref_f[k]), bad = msg;
  pp_usage_check_all("testsnap", bad);
}

/* Reference energies and forces not in the dump given: the host model, on
 * the same decomposition, combined. */
static void reference(problem *pb) {
  if (pb->ref_e && pb->ref_f) return;
  const snap_neigh *nl = &pb->nl;
  const ts_decomp *dc = &pb->dec;
  double *e = malloc(sizeof(double) * (size_t)nl->natoms), *f = malloc(sizeof(double) * 3 * (size_t)nl->nall);
  double *eg = malloc(sizeof(double) * (size_t)dc->ne), *fg = malloc(sizeof(double) * 3 * (size_t)dc->nf);
  snap_data d;
  ts_data_fill(&d, pb->pot, &pb->tab, nl, e, f);
  if (!e || !f || !eg || !fg || ts_host_eval(&d, 1) != 0)
    pp_device_fail(PP_HOST, "testsnap host reference", "out of host memory");
  ts_combine(dc, nl->natoms, e, f, eg, fg, 0);
  free(e), free(f);
  pb->ref_e = eg, pb->e_what = "the host model";
  if (pb->ref_f) free(fg);
  else pb->ref_f = fg, snprintf(pb->ref_what, sizeof pb->ref_what, "the host model on the same data");
}

/* ---- one model ------------------------------------------------------------------ */
/* An empty array (no neighbour pairs: rev_pair has no entries) still gets a
 * device buffer, so kernels take a valid pointer, but nothing is copied: the
 * host array may be shorter than the placeholder. */
static void *up(const pp_device_ops *o, const void *src, size_t bytes) {
  return bytes ? pp_device_upload(o, src, bytes) : o->alloc(8);
}
static void upload(pp_model m, const pp_device_ops *o, const snap_data *h, snap_data *dd) {
  *dd = *h;
  if (m == PP_HOST) return;
  const snap_tables *t = &h->t;
  dd->t.idxz = up(o, t->idxz, sizeof(snap_zidx) * (size_t)t->idxz_max);
  dd->t.idxb = up(o, t->idxb, sizeof(snap_bidx) * (size_t)t->idxb_max);
  dd->t.cg = up(o, t->cg, sizeof(double) * (size_t)t->idxcg_max);
  dd->t.rootpq = up(o, t->rootpq, sizeof(double) * (size_t)(t->twojmax + 2) * (t->twojmax + 2));
  dd->t.zbeta = up(o, t->zbeta, sizeof(double) * (size_t)t->idxz_max);
  dd->t.beta = up(o, t->beta, sizeof(double) * (size_t)t->idxb_max);
  dd->t.yblk_start = up(o, t->yblk_start, sizeof(int) * (size_t)(t->twojmax + 2));
  dd->t.yblk = up(o, t->yblk, sizeof(int) * (size_t)t->yblk_start[t->twojmax + 1]);
  const size_t np = (size_t)h->natoms * h->nmax;
  dd->nneigh = up(o, h->nneigh, sizeof(int) * (size_t)h->natoms);
  dd->jatom = up(o, h->jatom, sizeof(int) * np);
  dd->rij = up(o, h->rij, sizeof(double) * 3 * np);
  dd->rev_start = up(o, h->rev_start, sizeof(int) * ((size_t)h->nall + 1));
  dd->rev_pair = up(o, h->rev_pair, sizeof(int) * (size_t)h->rev_start[h->nall]);
  dd->energy = up(o, h->energy, sizeof(double) * (size_t)h->natoms);
  dd->force = up(o, h->force, sizeof(double) * 3 * (size_t)h->nall);
  o->sync();
}
static void release_data(pp_model m, const pp_device_ops *o, snap_data *dd) {
  if (m == PP_HOST) return;
  const void *p[] = {dd->t.idxz, dd->t.idxb, dd->t.cg, dd->t.rootpq, dd->t.zbeta, dd->t.beta, dd->t.yblk_start, dd->t.yblk, dd->nneigh,
                     dd->jatom, dd->rij, dd->rev_start, dd->rev_pair, dd->energy, dd->force};
  for (size_t k = 0; k < sizeof p / sizeof *p; k++) o->free((void *)p[k]);
}

typedef struct errs {
  double e_max, f_rms, f_max;
  int valid;
} errs;

/* Maximum that keeps a NaN (an unwritten or broken value must fail). */
static double worse(double acc, double v) {
  if (isnan(acc)) return acc;
  return isnan(v) || v > acc ? v : acc;
}

static errs compare(const problem *pb, const double *e, const double *f) {
  errs x = {0.0, 0.0, 0.0, 0};
  for (int i = 0; i < pb->dec.ne; i++) x.e_max = worse(x.e_max, fabs(e[i] - pb->ref_e[i]));
  double sum = 0.0;
  for (int a = 0; a < pb->dec.nf; a++) {
    double d2 = 0.0;
    for (int k = 0; k < 3; k++) d2 += (f[3 * a + k] - pb->ref_f[3 * a + k]) * (f[3 * a + k] - pb->ref_f[3 * a + k]);
    sum += d2;
    x.f_max = worse(x.f_max, sqrt(d2));
  }
  x.f_rms = sqrt(sum / pb->dec.nf);
  x.valid = pp_within(x.e_max, TOL_E) && pp_within(x.f_rms, TOL_F_RMS) && pp_within(x.f_max, TOL_F_MAX);
  return x;
}

/* The variant column of model m's rows ("" for the host: it has one form). */
static void variant_name(const ts_config *c, pp_model m, char *out, size_t len) {
  out[0] = '\0';
  if (!c->variant_set || m == PP_HOST) return;
  const snap_variant *v = &c->variant;
  /* options.c bounds levels to 2..3 and team to 1..1024: the modulo changes no
   * value and bounds the width, so the longest name fits out (64: pp_row's variant) */
  char lv[5] = "dflt", ts[5] = "dflt";
  if (v->levels) snprintf(lv, sizeof lv, "%u", (unsigned)v->levels % 10u);
  if (v->team_size) snprintf(ts, sizeof ts, "%u", (unsigned)v->team_size % 10000u);
  snprintf(out, len, "scratch=%s levels=%s yi=%s team=%s deidrj=%s",
           v->scratch < 0 ? "dflt" : v->scratch == SNAP_SCRATCH_TEAM ? "team" : "global", lv,
           v->yi_collapsed < 0 ? "dflt" : v->yi_collapsed ? "collapsed" : "nested", ts,
           v->deidrj < 0 ? "dflt" : v->deidrj == SNAP_DEIDRJ_SPLIT ? "split" : "levels");
}

/* --dump's file for model m: FILE, or FILE.<model> when several models run
 * (malloc'ed: a path is never cut). */
static char *dump_path(const pp_session *s, const ts_config *c, pp_model m) {
  const char *mn = pp_model_name(m);
  const size_t n = strlen(c->dump) + strlen(mn) + 2;
  char *path = malloc(n);
  if (!path) pp_device_fail(PP_HOST, "testsnap", "out of host memory");
  if (__builtin_popcount(s->opt.backends) > 1) snprintf(path, n, "%s.%s", c->dump, mn);
  else snprintf(path, n, "%s", c->dump);
  return path;
}

static void write_dump(const pp_session *s, const ts_config *c, pp_model m, const problem *pb, const double *eg,
                       const double *fg) {
  char *path = dump_path(s, c, m);
  if (snap_write_dump(path, pb->atoms.n ? &pb->atoms : NULL, pb->dec.nf, pb->dec.ne, eg, fg) != 0) {
    pp_error_line("testsnap", "cannot write --dump '%s': %s", path, strerror(errno));
    dump_failed = 1;
  }
  free(path);
}

static void not_run(pp_session *s, pp_model m, const char *why) {
  pp_report_skip(s->report, m, why);
  pp_report_param(s->report, pp_model_name(m), "NOT RUN: %s", why);
}

/* One model's runs: the step is its kernels, each a part timed alone
 * (device-synchronized); verify_step checks what the last step left. */
typedef struct model_run {
  pp_session *s;
  pp_model m;
  const ts_config *c;
  const problem *pb;
  const snap_kernels *k;
  snap_data dd;          /* in the model's memory */
  void *w;               /* the model's scratch */
  double *e, *f;         /* this rank's energies [natoms] and forces [nall*3], on the host */
  pp_parts pt;
} model_run;

static void step(void *arg) {
  model_run *r = arg;
  const snap_kernels *k = r->k;
  void (*const fn[SNAP_NKERNELS])(const snap_data *, void *) = {k->compute_ui, k->compute_yi, k->compute_deidrj,
                                                                k->compute_forces, k->compute_energies};
  for (int q = 0; q < SNAP_NKERNELS; q++) {
    pp_part_begin(&r->pt);
    fn[q](&r->dd, r->w);
    pp_part_end(&r->pt, q);
  }
}

/* After the runs, on every rank: the ranks' energies and partial forces
 * combined into the whole problem's, checked against the reference (and
 * finite differences), dumped. */
static void verify_step(void *arg, pp_row *row) {
  model_run *r = arg;
  const problem *pb = r->pb;
  const ts_config *c = r->c;
  const snap_neigh *nl = &pb->nl;
  const ts_decomp *dc = &pb->dec;
  const pp_device_ops *o = r->s->ops[r->m];
  if (r->m != PP_HOST) {
    o->to_host(r->e, r->dd.energy, sizeof(double) * (size_t)nl->natoms);
    o->to_host(r->f, r->dd.force, sizeof(double) * 3 * (size_t)nl->nall);
  }
  double *eg = malloc(sizeof(double) * (size_t)dc->ne), *fg = malloc(sizeof(double) * 3 * (size_t)dc->nf);
  if (!eg || !fg) pp_device_fail(r->m, "testsnap", "out of host memory");
  pp_mpi_barrier(); /* the combine's own time, not the wait for the slowest rank */
  const double tc = pp_wtime();
  ts_combine(dc, nl->natoms, r->e, r->f, eg, fg, pp_fault("snap-mpi-combine"));
  double t_comb = pp_wtime() - tc;
  pp_mpi_max(&t_comb, 1);

  if (pp_fault_fire("snap-force")) fg[0] += FAULT_SIZE;
  if (pp_fault_fire("snap-energy")) eg[0] += FAULT_SIZE;
  errs x = compare(pb, eg, fg);
  /* the whole configuration's energy: runs on other rank counts must agree
   * to within the per-atom tolerance times the atoms (validate/scaling) */
  double e_total = 0;
  for (int i = 0; i < dc->ne; i++) e_total += eg[i];
  pp_row_metric(row, "energy_total", "eV", e_total);
  char check[96];
  snprintf(check, sizeof check, "E %.2g<=%.0e eV; F rms %.2g<=%.0e max %.2g<=%.0e eV/A", x.e_max, TOL_E, x.f_rms,
           TOL_F_RMS, x.f_max, TOL_F_MAX);
  const char *mn = pp_model_name(r->m);
  const int root = pp_mpi_rank() == 0;
  if (root) {
    printf("%s: energies vs %s: max |E_i - E_ref| = %.3g eV (tolerance %.0e)\n", mn, pb->e_what, x.e_max, TOL_E);
    printf("%s: forces vs ", mn);
    pp_fputs_escaped(stdout, pb->ref_what); /* it may quote a file name */
    printf(": RMS |F_i - F_ref| = %.3g eV/A (tolerance %.0e), max %.3g eV/A (tolerance %.0e)\n", x.f_rms,
           TOL_F_RMS, x.f_max, TOL_F_MAX);
  }
  int valid = x.valid;
  if (c->fd_checks) { /* every rank alike, on the whole configuration */
    double fd_err;
    int worst;
    if (ts_fd_check(&pb->atoms, pb->pot, &pb->tab, fg, (int)c->fd_checks, c->fd_step, &fd_err, &worst) != 0)
      pp_device_fail(PP_HOST, "finite differences", "out of host memory");
    const int ok = pp_within(fd_err, TOL_FD);
    if (root)
      printf("%s: finite differences (%lld components, step %g A): max |F + dE/dx| = %.3g eV/A (tolerance %.0e, "
             "worst atom %d %c): %s\n", mn, c->fd_checks, c->fd_step, fd_err, TOL_FD, worst / 3 + 1, 'x' + worst % 3,
             ok ? "PASS" : "FAIL");
    valid = valid && ok;
    snprintf(check + strlen(check), sizeof check - strlen(check), "; fd %.2g", fd_err);
  }
  if (root) printf("%s: %s\n", mn, valid ? "PASS" : "FAIL");
  if (c->dump && root) write_dump(r->s, c, r->m, pb, eg, fg);
  if (dc->size > 1) {
    char key[32];
    snprintf(key, sizeof key, "%s combine", mn);
    pp_report_param(r->s->report, key, "%.3f ms (slowest rank): energies gathered, forces summed over %d ranks, "
                    "once after the run (not in the step times)", 1e3 * t_comb, dc->size);
  }
  row->valid = valid;
  snprintf(row->check, sizeof row->check, "%.4g GFLOP/s; %s", row->flops / row->time.median / 1e9, check);
  free(eg), free(fg);
}

/* The seconds of 100 steps (the papers' figure), on every row. */
static void per_100_steps(void *arg, pp_row *row) {
  (void)arg;
  pp_row_metric(row, "per_100_steps", "s", 100.0 * row->time.mean);
}

static void run_model(pp_session *s, pp_model m, const ts_config *c, const problem *pb) {
  model_run r = {.s = s, .m = m, .c = c, .pb = pb, .k = PP_MODEL_DISPATCH(m, snap_kernels_)}; /* opened: built */
  const pp_device_ops *o = s->ops[m];
  const snap_neigh *nl = &pb->nl;
  r.e = malloc(sizeof(double) * (size_t)nl->natoms), r.f = malloc(sizeof(double) * 3 * (size_t)nl->nall);
  if (!r.e || !r.f) pp_device_fail(m, "testsnap", "out of host memory");
  pp_poison_d(r.e, (size_t)nl->natoms), pp_poison_d(r.f, 3 * (size_t)nl->nall);
  snap_data hd;
  ts_data_fill(&hd, pb->pot, &pb->tab, nl, r.e, r.f);
  char why[256] = "";
  if (r.k->check(&hd, &c->variant, why, sizeof why) != 0) {
    not_run(s, m, why);
    free(r.e), free(r.f);
    return;
  }
  upload(m, o, &hd, &r.dd);
  r.w = r.k->prepare(&r.dd, &c->variant, why, sizeof why);
  if (!r.w) {
    if (!why[0]) pp_device_fail(m, "testsnap scratch", "allocation failed");
    not_run(s, m, why);
    release_data(m, o, &r.dd), free(r.e), free(r.f);
    return;
  }
  if (r.k->notes) {
    char key[32];
    snprintf(key, sizeof key, "%s mapping", pp_model_name(m));
    pp_report_param(s->report, key, "%s", r.k->notes);
  }
  /* rows of the whole problem: grind time per atom-step, its FLOP count */
  char variant[64];
  variant_name(c, m, variant, sizeof variant);
  const long long ne = pb->dec.ne;
  pp_measure parts[SNAP_NKERNELS], whole = {.name = "step",
                                             .unit = "ms/atom-step",
                                             .size = ne,
                                             .variant = variant,
                                             .work = (double)ne,
                                             .ranks = PP_RANKS_SPLIT,
                                             .figures = per_100_steps};
  for (int q = 0; q < SNAP_NKERNELS; q++) {
    parts[q] = whole;
    parts[q].name = kname[q];
    parts[q].flops = pb->flops_all[q];
    whole.flops += pb->flops_all[q];
  }
  pp_parts_init(&r.pt, o, SNAP_NKERNELS, 1, 0);
  pp_progress(s, "%s: %d warm-up + %d timed steps", pp_model_name(m), s->opt.warmup, s->opt.samples);
  pp_measure_parts(s, m, &whole, parts, &r.pt, PP_PARTS_EVERY_RUN, step, &r, verify_step);
  pp_parts_free(&r.pt);
  r.k->release(r.w);
  release_data(m, o, &r.dd);
  free(r.e), free(r.f);
}

static void describe(pp_session *s, const ts_config *c, const problem *pb) {
  const snap_potential *p = pb->pot;
  const snap_neigh *nl = &pb->nl;
  const ts_decomp *dc = &pb->dec;
  double nst[3] = {0.0, 0.0, 0.0}; /* -min, max, sum of the neighbour counts over all ranks */
  /* from the counts, not nmax: the lists keep at least one (padding) slot */
  nst[0] = -DBL_MAX;
  for (int i = 0; i < nl->natoms; i++)
    nst[0] = fmax(nst[0], -nl->nneigh[i]), nst[1] = fmax(nst[1], nl->nneigh[i]), nst[2] += nl->nneigh[i];
  pp_mpi_max(nst, 2);
  pp_mpi_sum(nst + 2, 1);
  pp_report_param(s->report, "problem", "%s", pb->what);
  pp_report_param(s->report, "potential",
                  "twojmax %d (%d coefficients + beta0), rcutfac %g, cutoff %g A, rfac0 %g, rmin0 %g, "
                  "switchflag %d, bzeroflag %d", p->twojmax, p->ncoeff, p->rcutfac, p->rcut, p->rfac0, p->rmin0,
                  p->switchflag, p->bzeroflag);
  pp_report_param(s->report, "atoms", "%d with energies, %d receiving forces; neighbours min %.0f max %.0f mean %.3f",
                  dc->ne, dc->nf, 0.0 - nst[0], nst[1], nst[2] / dc->ne);
  if (dc->size > 1)
    pp_report_param(s->report, "decomposition", "%d ranks, contiguous blocks of %d to %d atoms (energies and "
                    "neighbour lists per rank, each rank's pairs' forces summed over ranks)", dc->size,
                    dc->ne / dc->size, (dc->ne + dc->size - 1) / dc->size);
  for (int m = 0; m < PP_MODEL_COUNT && dc->size > 1; m++) { /* GPU models: each rank's device */
    if (!s->ops[m] || !pp_model_is_device((pp_model)m)) continue;
    double *dev = calloc((size_t)dc->size, sizeof(double));
    if (!dev) pp_device_fail(PP_HOST, "testsnap", "out of host memory");
    dev[dc->rank] = s->info[m].index;
    pp_mpi_sum(dev, dc->size);
    char key[32], v[160];
    int len = 0;
    for (int r = 0; r < dc->size && len < (int)sizeof v - 12; r++)
      len += snprintf(v + len, sizeof v - (size_t)len, "%s%d:%d", r ? " " : "", r, (int)dev[r]);
    snprintf(key, sizeof key, "%s devices", pp_model_name((pp_model)m));
    pp_report_param(s->report, key, "rank:device %s (node-local rank modulo the devices, or --device)", v);
    free(dev);
  }
  pp_report_param(s->report, "flops", "per step %.4g (compute_ui %.4g, _yi %.4g, _deidrj %.4g, _forces %.4g, "
                  "_energies %.4g), counted from the tables and neighbour counts (testsnap/flops.c)",
                  pb->flops_all[0] + pb->flops_all[1] + pb->flops_all[2] + pb->flops_all[3] + pb->flops_all[4],
                  pb->flops_all[0], pb->flops_all[1], pb->flops_all[2], pb->flops_all[3], pb->flops_all[4]);
  pp_report_param(s->report, "steps", "%lld timed (+ %d warm-up), each recomputes energies and forces", c->steps,
                  s->opt.warmup);
  pp_report_param(s->report, "reference", "forces: %s; energies: %s", pb->ref_what, pb->e_what);
  pp_report_param(s->report, "tolerances",
                  "max |dE_i| %.0e eV; RMS |dF_i| %.0e eV/A, max |dF_i| %.0e eV/A; finite differences %.0e eV/A",
                  TOL_E, TOL_F_RMS, TOL_F_MAX, TOL_FD);
  pp_report_param(s->report, "fom", "grind time: ms per atom-step (1000 s / (atoms x steps)); per kernel, its share; "
                  "GFLOP/s in the check column and metric rate");
}

/* pp_app.check: every rank, one verdict. */
static void check_options(pp_options *opt, void *ctx) {
  (void)opt;
  const ts_config *cfg = ctx;
  if (cfg->fd_checks && (cfg->testsnap_ref || (cfg->case_name && !strcmp(cfg->case_name, "W_2"))))
    pp_usage_error("testsnap", "--fd-check needs a periodic configuration (--data, --lattice or a LAMMPS case)");
}

int main(int argc, char **argv) {
  static ts_config cfg;
  ts_config_default(&cfg);
  /* The faults this app plants (pp_fault calls, and ROW-missed for each row it times). */
  static const char *const faults[] = {"snap-force", "snap-energy", "snap-mpi-combine", "step-missed", NULL};
  static pp_app app = {
      .name = "testsnap",
      .summary = "SNAP energies and forces (TestSNAP's kernels), validated against LAMMPS",
      .size_help = "not used (see --case, --data, --lattice)",
      .default_sizes = "1",
      .max_size = 1ll << 40,
      .ctx = &cfg, /* .options: ts_options(), below */
      .check = check_options,
      .faults = faults,
      .epilog =
      "Per-atom energies and forces of linear SNAP (one element) from a LAMMPS data file and\n"
      ".snapcoeff/.snapparam, a generated bcc lattice, or TestSNAP's own reference; checked\n"
      "against a LAMMPS per-atom dump (--reference, the cases' peratom.dump) or the host model.\n"
      "Forces follow LAMMPS: F_i += dE_i/dr_ij, F_j -= dE_i/dr_ij, periodic images folded (the\n"
      "TestSNAP reference keeps ghost atoms unfolded, as TestSNAP does). FOM: grind time in\n"
      "ms per atom-step. Planted faults: snap-force, snap-energy, snap-mpi-combine (MPI: the\n"
      "last rank's reactions on other ranks' atoms lost).\n"};
  app.options = ts_options();
  const char *unused = ts_unused_option(argc, argv);
  pp_session s;
  pp_session_start(&s, argc, argv, &app);
  pp_usage_check_all("testsnap", unused);
  s.opt.samples = (int)cfg.steps; /* each timed step is a sample */

  /* Several models write NAME.MODEL: NAME itself must still be a regular file
   * or a new path (a device's name would make /dev/full.host). */
  if (cfg.dump && __builtin_popcount(s.opt.backends) > 1) pp_session_check_outfile(&s, "--dump", cfg.dump);
  for (int m = 0; m < PP_MODEL_COUNT && cfg.dump; m++) /* before anything runs, as --json */
    if (s.opt.backends & (1u << m)) {
      char *path = dump_path(&s, &cfg, (pp_model)m);
      pp_session_check_outfile(&s, "--dump", path);
      free(path);
    }

  problem pb;
  memset(&pb, 0, sizeof pb);
  const double t0 = pp_wtime();
  setup(&s, &cfg, &pb);
  check_variant(&s, &cfg, &pb);
  reference(&pb);
  check_reference_finite(&pb);
  pp_report_param(s.report, "init", "%.3f s (inputs, tables, neighbours, reference; not timed)", pp_wtime() - t0);
  describe(&s, &cfg, &pb);
  pp_session_ready(&s); /* inputs are good: now the copy ceilings */
  for (int m = 0; m < PP_MODEL_COUNT; m++)
    if (s.ops[m]) run_model(&s, (pp_model)m, &cfg, &pb);
  const int rc = pp_session_finish(&s);
  return dump_failed && rc != 2 ? PP_EXIT_OUTPUT : rc; /* as a result file that cannot be written */
}
