"""ProxyPort's result tools as one package (validate/pptools).

  result     the result file and every other JSON the tools read: bounded,
             non-blocking reading, type and range checks, the row key, label
             vs model, native models, launch-shape families, the schema
  project    the one app list (apps.txt) and model list (pp/model.h's PP_MODELS)
  apps       each app's manifest (<app>/app.toml): its cases, tests, checks, series
  outfile    atomic writes that never follow a symbolic link
  cli        the tools' shared exit-2 handling
  compare/   validate/compare: A/B comparison and the compiler report
  suite/     validate/suite: the suite run, its rules and summary
  scaling/   validate/scaling: multi-GPU scaling tables
  tables/    validate/results-table: the published results table
  facts/     validate/compile-facts: registers, spills, occupancy per kernel
  reframe_rows  what the ReFrame checks read from a result file

The scripts in validate/ are thin entry points: their folder is on sys.path
when run, so `from pptools.compare import main` needs no path edits.
"""
