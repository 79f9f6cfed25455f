/* One CSV row per result (pp/report_writers.h), for spreadsheets. */
#include <stdio.h>
#include "pp/buildinfo.h"
#include "pp/outfile.h"
#include "pp/report_writers.h"

static void csv_field(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

int pp_report_write_csv(const pp_report *r, const char *path) {
  pp_outfile out;
  if (pp_outfile_open(&out, path) != 0) return -1;
  FILE *f = out.f;
  const pp_buildinfo *b = pp_build_info();
  fprintf(f, "app,kernel,model,size,variant,ranks,samples,time_min_s,time_median_s,time_mean_s,"
             "time_stddev_s,time_ci_low_s,time_ci_high_s,fom,fom_unit,bytes_per_run,flops_per_run,"
             "fraction_of_copy_ceiling,ratio_to_native,valid,check,device,git_revision,c_compiler,label,"
             "energy_j_per_rep,power_w,idle_power_w,fom_per_joule,fom_per_joule_unit,energy_error,energy_note\n");
  for (int i = 0; i < r->nrows; i++) {
    const pp_row *w = &r->rows[i];
    fprintf(f, "%s,%s,%s,%lld,", r->app, w->kernel, pp_model_name(w->model), w->size);
    csv_field(f, w->variant);
    fprintf(f, ",%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%s,%.9g,%.9g,%.6g,%.6g,%s,", w->ranks,
            w->time.n, w->time.min, w->time.median, w->time.mean, w->time.stddev, w->time.ci_lo,
            w->time.ci_hi, w->fom, w->fom_unit, w->bytes, w->flops, w->frac_ceiling,
            w->ratio_native, w->valid ? "PASS" : "FAIL");
    csv_field(f, w->check);
    fputc(',', f);
    csv_field(f, r->have_device[w->model] ? r->device[w->model].name : "");
    fputc(',', f);
    csv_field(f, b->git_revision);
    fputc(',', f);
    csv_field(f, b->c_compiler);
    fputc(',', f);
    char lab[96];
    csv_field(f, pp_model_label(w->model, lab, sizeof lab));
    const pp_row_energy *e = &w->energy; /* empty figures where not measured; the note says why */
    if (e->measured)
      fprintf(f, ",%.9g,%.6g,%.6g,%.6g,%s,%.3g,", e->joules, e->watts, e->idle_watts, e->per_joule,
              e->per_joule_unit, e->error);
    else
      fputs(",,,,,,,", f);
    csv_field(f, e->measured ? (e->below_resolution ? "below counter resolution" : e->why) : e->why);
    fputc('\n', f);
  }
  return pp_outfile_stage(&out); /* published with the run's other outputs, or none is */
}
