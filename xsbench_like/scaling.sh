# xsbench_like's scaling series (its manifest's [scaling] series), sourced by
# validate/scaling-run.sh once per rank count $p: `series NAME P ARGS...` runs one.
# The series without suffix splits its sorted variant by energy band.
# Env: XS_EXTRA (default 1: also with --split lookups, with --material-launch
# concurrent (the 12 per-material lookups kernels at once), with that and --phases
# (sorted-energy alone: a row per phase, large-event-phases), with --material-launch
# single (one lookups kernel over all sorted lookups; -single, and -single-phases),
# weak (17M lookups per GPU), strong at 170M lookups; and, in OUT/onegpu/, one GPU
# running what one rank of the 17M --split lookups run runs, 17M/P lookups: the
# bound the workload sets on that series, whatever the communication), XS_SERIES
# (default: every series above; else the names to run, e.g. "large-event
# large-event-concurrent").
XS_EXTRA=${XS_EXTRA:-1}
XS_L=17000000 # XSBench's default lookups (-s large)
XS_SERIES=${XS_SERIES:-}
# xs_run SERIES P ARGS...: run that series unless XS_SERIES leaves it out
xs_run() { [ -z "$XS_SERIES" ] || case " $XS_SERIES " in *" $1 "*) ;; *) return 0 ;; esac; series "$@"; }
xs="-s large --variant baseline,sorted-energy"
xs_run large-event "$p" $samples $xs --split energy
if [ "$XS_EXTRA" = 1 ]; then
  xs_run large-event-split-lookups "$p" $samples $xs --split lookups
  xs_run large-event-concurrent "$p" $samples $xs --split energy --material-launch concurrent
  xs_run large-event-phases "$p" $samples -s large --variant sorted-energy --split energy \
    --material-launch concurrent --phases
  xs_run large-event-single "$p" $samples $xs --split energy --material-launch single
  xs_run large-event-single-phases "$p" $samples -s large --variant sorted-energy --split energy \
    --material-launch single --phases
  xs_run large-event-weak "$p" $samples $xs --split energy --lookups $((XS_L * p))
  xs_run large-event-l170m "$p" $samples $xs --split energy --lookups $((10 * XS_L))
  if [ "$p" -gt 1 ]; then # not a series: one process on one GPU (file names out of the tool's pattern)
    xs_run "onegpu/large-event-l$((XS_L / p))" 1 $samples $xs --split lookups \
      --lookups $((XS_L / p))
  fi
fi
