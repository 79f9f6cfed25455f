/* The energy hook of the measurement path (pp/measure.h): measure.c opens a
 * model's meter before its runs, reads it around the timed runs, and hands
 * the region here to finish the row's energy. Nothing else calls it. */
#ifndef PP_MEASURE_ENERGY_H
#define PP_MEASURE_ENERGY_H
#include "pp/energy.h"
#include "pp/measure.h"
PP_EXTERN_C_BEGIN

/* Model m's meter (opened and calibrated on first use, before any run of
 * the model's first row; collective). */
pp_energy_meter *pp_measure_energy_meter(pp_session *s, pp_model m);

/* After the row is built: if the timed region `er` is too short for the
 * counter's error to be < 2%, runs fn(ctx) again (after the row's verify,
 * so its check sees the timed runs only) until it is or --energy-max-s
 * passes; then fills row->energy (every rank's readers summed). Collective. */
void pp_measure_energy_row(pp_session *s, pp_model m, pp_row *row, const pp_measure *spec,
                           pp_energy_region *er, pp_run_fn fn, void *ctx);

PP_EXTERN_C_END
#endif
