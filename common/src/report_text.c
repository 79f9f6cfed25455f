/* The text report (pp/report_writers.h): what a person reads after a run. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "pp/buildinfo.h"
#include "pp/escape.h"
#include "pp/mpi.h"
#include "pp/report_writers.h"

/* Width of the widest label, for the text tables' model column. */
static int label_width(void) {
  int w = 5;
  char l[96];
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    int k = (int)strlen(pp_model_label((pp_model)m, l, sizeof l));
    if (k > w) w = k;
  }
  return w;
}

static void fmt_time(char *buf, size_t n, double s) {
  if (s < 1e-3) snprintf(buf, n, "%.2f us", s * 1e6);
  else if (s < 1) snprintf(buf, n, "%.3f ms", s * 1e3);
  else snprintf(buf, n, "%.3f s", s);
}

static void print_summary(const pp_report *r, FILE *f);

/* Joules in a readable unit. */
static void fmt_joules(char *buf, size_t n, double j) {
  if (j < 1e-3) snprintf(buf, n, "%.3g uJ", j * 1e6);
  else if (j < 1) snprintf(buf, n, "%.3g mJ", j * 1e3);
  else snprintf(buf, n, "%.4g J", j);
}

/* A row's energy columns: joules per repetition, average and idle watts, work
 * per joule; '*' below the counter's resolution, '!' clocks lowered. */
static void print_energy(FILE *f, const pp_row_energy *e, int *marks) {
  if (!e->measured) {
    fprintf(f, "%10s %13s %18s  ", "-", "-", "-");
    return;
  }
  char jb[32], wb[32], pj[40];
  fmt_joules(jb, sizeof jb, e->joules);
  snprintf(wb, sizeof wb, "%.1f/%.1f", e->watts, e->idle_watts);
  const int off_pace = !(fabs(e->pace - 1) <= PP_ENERGY_MAX_ERROR);
  snprintf(pj, sizeof pj, "%.4g %s%s%s%s", e->per_joule, e->per_joule_unit, e->below_resolution ? "*" : "",
           e->throttled ? "!" : "", off_pace ? "~" : "");
  *marks |= (e->below_resolution ? 1 : 0) | (e->throttled ? 2 : 0) | (off_pace ? 4 : 0);
  fprintf(f, "%10s %13s %18s  ", jb, wb, pj);
}

/* What the energy columns are, or why there are none (each model's reason once). */
static void print_energy_legend(const pp_report *r, FILE *f, int energy, int marks) {
  if (r->opt->no_energy) return;
  if (energy) {
    fprintf(f, "J/rep is the energy of one repetition: the power of the row's runs between two updates of\n"
               "the device's counter (every device read once) times their time per repetition, which is\n"
               "the row's time; W (idle) that power and the devices' idle power before the runs; per\n"
               "joule is the FOM's work per joule.%s%s%s\n",
            marks & 1 ? " *: the counter's error is 2% or more (below its resolution)." : "",
            marks & 2 ? " !: the GPU lowered its clocks for power or heat." : "",
            marks & 4 ? " ~: the metered runs' time per repetition is not the row's (the JSON's note says"
                        " how far)." : "");
  }
  for (int m = 0; m < PP_MODEL_COUNT; m++) { /* a model none of whose rows has energy: why */
    const pp_row *first = NULL;
    int some = 0;
    for (int i = 0; i < r->nrows; i++) {
      if ((int)r->rows[i].model != m) continue;
      some |= r->rows[i].energy.measured;
      if (!first && !r->rows[i].energy.measured && strncmp(r->rows[i].energy.why, "not measured: a part", 20))
        first = &r->rows[i];
    }
    if (!first || some) continue;
    fprintf(f, "energy (%s): ", pp_model_name((pp_model)m));
    pp_fputs_escaped(f, first->energy.why);
    fputc('\n', f);
  }
}

/* One line: rank 0's host and GPU; under MPI, how many hosts the ranks used. */
static void print_system(const pp_report *r, FILE *f) {
  char line[512];
  int n = pp_mpi_size(), hosts = 0;
  pp_system_summary(&r->systems[0], line, sizeof line);
  for (int i = 0; i < n; i++) {
    int seen = 0;
    for (int k = 0; k < i && !seen; k++) seen = !strcmp(r->systems[k].hostname, r->systems[i].hostname);
    hosts += !seen;
  }
  fprintf(f, "   %-22s ", "system");
  pp_fputs_escaped(f, line); /* host and driver strings are not ours to trust */
  if (n > 1) fprintf(f, " (rank 0; %d ranks on %d host%s)", n, hosts, hosts > 1 ? "s" : "");
  fputc('\n', f);
}

void pp_report_print(const pp_report *r, FILE *f) {
  const pp_buildinfo *b = pp_build_info();
  fprintf(f, "\n== %s  (ProxyPort %s, git %s%s%s, %d rank%s)\n", r->app, b->version, b->git_revision,
          b->git_diff_hash[0] ? " diff " : "", b->git_diff_hash, pp_mpi_size(), pp_mpi_size() > 1 ? "s" : "");
  fprintf(f, "   %-22s %s (%s; flag set %s%s%s; omp simd %s%s%s)\n", "build", b->tag,
          b->omp_compiler_banner, b->omp_flag_set, b->omp_extra_flags[0] ? ": " : "",
          b->omp_extra_flags, b->omp_simd ? "on" : "off", b->ompx_grid[0] ? "; ompx blocks " : "", b->ompx_grid);
  if (b->omp_forced_flags[0]) fprintf(f, "   %-22s %s\n", "forced flags", b->omp_forced_flags);
  if (r->systems) print_system(r, f);
  const pp_site_file *site = pp_site_file_get(); /* the file is in the JSON whole */
  if (site->text) {
    fprintf(f, "   %-22s ", "site file");
    pp_fputs_escaped(f, site->path);
    fprintf(f, " (sha256 %.16s..., %zu bytes)\n", site->sha256, site->bytes);
  } else if (site->path[0]) {
    fprintf(f, "   %-22s ", "site file");
    pp_fputs_escaped(f, site->why);
    fputc('\n', f);
  }
  for (int i = 0; i < r->nparams; i++) { /* values may quote file names: escaped, one line each */
    fprintf(f, "   %-22s ", r->params[i].key);
    pp_fputs_escaped(f, r->params[i].val);
    fputc('\n', f);
  }
  int lw = label_width();
  char lab[96];
  for (int m = 0; m < PP_MODEL_COUNT; m++) {
    pp_model_label((pp_model)m, lab, sizeof lab);
    if (r->have_device[m]) {
      const pp_device_info *d = &r->device[m];
      fprintf(f, "   %-*s device %d: %s [%s]", lw, lab, d->index, d->name, d->arch);
      if (d->total_mem) fprintf(f, ", %.1f GiB", d->total_mem / 1073741824.0);
      if (isfinite(r->copy_gbs[m])) fprintf(f, ", copy ceiling %.1f GB/s", r->copy_gbs[m]);
      fprintf(f, "\n");
    } else if (r->skipped[m][0]) {
      fprintf(f, "   %-*s NOT RUN: %s\n", lw, lab, r->skipped[m]);
    }
  }
  /* Rows keep the bare model name (scripts and tests match "KERNEL +MODEL +SIZE"):
   * one binary has one tag, shown in the header, device lines and summary. */
  /* energy columns where a row has energy, unless --no-energy */
  int energy = 0, marks = 0;
  for (int i = 0; i < r->nrows; i++) energy |= r->rows[i].energy.measured;
  fprintf(f, "\n%-16s %-5s %11s %-18s %11s %12s %-10s %6s %7s  ", "kernel", "model", "size", "variant",
          "median", "FOM", "unit", "%copy", "vs-nat");
  if (energy) fprintf(f, "%10s %13s %18s  ", "J/rep", "W (idle)", "per joule");
  fprintf(f, "check\n");
  for (int i = 0; i < r->nrows; i++) {
    const pp_row *w = &r->rows[i];
    char t[32], frac[16] = "-", ratio[16] = "-";
    fmt_time(t, sizeof t, w->time.median);
    if (isfinite(w->frac_ceiling)) snprintf(frac, sizeof frac, "%.1f%%", 100 * w->frac_ceiling);
    if (isfinite(w->ratio_native)) snprintf(ratio, sizeof ratio, "%.3f", w->ratio_native);
    fprintf(f, "%-16s %-5s %11lld %-18s %11s %12.5g %-10s %6s %7s  ", w->kernel, pp_model_name(w->model),
            w->size, w->variant[0] ? w->variant : "-", t, w->fom, w->fom_unit, frac, ratio);
    if (energy) print_energy(f, &w->energy, &marks);
    fprintf(f, "%s %s\n", w->valid ? "PASS" : "FAIL", w->check);
  }
  int bad = pp_report_failures(r);
  char natives[64];
  fprintf(f, "\n%d result%s, %d passed, %d failed. FOM is of the median time; vs-nat is performance\n"
             "relative to the native model (%s) on the same kernel, size and variant%s;\n"
             "%%copy is GB/s over the device's copy ceiling ('-': none, or a working set that fits\n"
             "in a cache the ceiling's buffers do not).\n",
          r->nrows, r->nrows == 1 ? "" : "s", r->nrows - bad, bad,
          pp_model_set_names(pp_models_native(), "/", natives, sizeof natives),
          /* host is a CPU reference: a ratio to it would compare devices, not models */
          pp_report_native(r) < 0 ? " ('-' here: no native model ran,\nand the host model is the CPU reference, not a model on the same device)" : "");
  print_energy_legend(r, f, energy, marks);
  if (r->nrows) print_summary(r, f);
}

/* The best valid row of kernel k, model m at size n (NULL if none; *seen set
 * when the model has rows there at all). */
static const pp_row *best_row(const pp_report *r, const char *k, int m, long long n, int *seen) {
  const pp_row *best = NULL;
  *seen = 0;
  for (int i = 0; i < r->nrows; i++) {
    const pp_row *w = &r->rows[i];
    if ((int)w->model != m || w->size != n || strcmp(w->kernel, k)) continue;
    *seen = 1;
    if (!w->valid) continue;
    if (!best || (w->higher_is_better ? w->fom > best->fom : w->fom < best->fom)) best = w;
  }
  return best;
}

/* At a glance: per kernel at its largest size, each model at its fastest
 * variant, its ratio to the native model's fastest and its %copy. Kernels
 * with neither figure for any model are left out. */
static void print_summary(const pp_report *r, FILE *f) {
  int nat = pp_report_native(r), present[PP_MODEL_COUNT] = {0}, lines = 0;
  int cw = label_width() > 13 ? label_width() : 13;
  for (int i = 0; i < r->nrows; i++) present[r->rows[i].model] = 1;
  char buf[512], lab[96];
  for (int i = 0; i < r->nrows; i++) {
    const char *k = r->rows[i].kernel;
    int first = 1, any = 0, seen, len = 0;
    for (int j = 0; j < i && first; j++) first = strcmp(r->rows[j].kernel, k) != 0;
    if (!first) continue;
    long long n = 0;
    for (int j = i; j < r->nrows; j++)
      if (!strcmp(r->rows[j].kernel, k) && r->rows[j].size > n) n = r->rows[j].size;
    const pp_row *ref = nat >= 0 ? best_row(r, k, nat, n, &seen) : NULL;
    len += snprintf(buf + len, sizeof buf - (size_t)len, "%-16s %11lld", k, n);
    for (int m = 0; m < PP_MODEL_COUNT; m++) {
      if (!present[m]) continue;
      const pp_row *b = best_row(r, k, m, n, &seen);
      char ratio[16] = "-", frac[16] = "-", cell[40];
      if (b && ref && pp_model_is_device((pp_model)m)) {
        snprintf(ratio, sizeof ratio, "%.2f", b->higher_is_better ? b->fom / ref->fom : ref->fom / b->fom);
        any = 1;
      }
      if (b && isfinite(b->frac_ceiling)) {
        snprintf(frac, sizeof frac, "%.1f%%", 100 * b->frac_ceiling);
        any = 1;
      }
      if (b) snprintf(cell, sizeof cell, "%5s %7s", ratio, frac);
      else snprintf(cell, sizeof cell, "%13s", seen ? "FAIL" : "");
      len += snprintf(buf + len, sizeof buf - (size_t)len, "  %-*s", cw, cell);
    }
    if (!any) continue;
    if (!lines++) {
      fprintf(f, "\nSummary: each kernel at its largest size, each model at its fastest variant:\n");
      if (nat >= 0) fprintf(f, "vs-nat (ratio to %s's fastest) and %%copy.\n", pp_model_name((pp_model)nat));
      else fprintf(f, "%%copy (no native model ran, so no vs-nat).\n");
      fprintf(f, "%-16s %11s", "kernel", "size");
      for (int m = 0; m < PP_MODEL_COUNT; m++)
        if (present[m]) fprintf(f, "  %-*s", cw, pp_model_label((pp_model)m, lab, sizeof lab));
      fputc('\n', f);
    }
    fprintf(f, "%s\n", buf);
  }
  if (!lines)
    fprintf(f, "\nSummary: no native model ran and no row has a %%copy (working sets in cache), so\n"
               "there is no ratio to summarize.\n");
}
