"""ProxyPort's result tools as one package (validate/pptools).

  result     the result file and every other JSON the tools read: bounded,
             non-blocking reading, type and range checks, the row key, label
             vs model, native models, launch-shape families, the schema
  project    the one app list (apps.txt) and model list (pp/model.h's PP_MODELS)
  apps       each app's manifest (<app>/app.toml): its cases, tests, checks, series
  runset     repeats combined: median over the repeats, best launch shape
  outfile    atomic writes that never follow a symbolic link
  bounded    bounded, non-blocking reading of the files the tools are given
  cli        the tools' shared exit-2 handling
  compare/   validate/compare: A/B comparison and the compiler report
  suite/     validate/suite: the suite run, its rules and summary
  scaling/   validate/scaling: multi-GPU scaling tables
  tables/    validate/results-table: the published results table
  facts/     validate/compile-facts: registers, spills, occupancy per kernel
  ompprofile validate/omp-profile: where an OpenMP target region's time goes (LLVM's profile)
  portability/  validate/portability: performance portability across machines
  peers/     validate/peers: the public codes beside ProxyPort, one module per code
  energy_check/ validate/energy-check: the energy meter against nvidia-smi
  site/      validate/site: the site files
  reframe_rows  what the ReFrame checks read from a result file

The scripts in validate/ are thin entry points that put their own folder on
sys.path, so they run from any folder without PYTHONPATH; installed with pip
(pyproject.toml), the same mains are the console scripts pp-suite, pp-compare, ...
"""
