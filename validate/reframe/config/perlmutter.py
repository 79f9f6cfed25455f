"""ReFrame site configuration: NERSC Perlmutter GPU nodes (documented, not run here),
made from the site file site/perlmutter.toml (or PP_SITE_FILE): its builds are the
environments (modules PrgEnv-gnu|nvidia|llvm, cudatoolkit, craype-accel-nvidia80),
its scheduler the partition: whole GPU nodes (-C gpu, QOS regular), the project
from SBATCH_ACCOUNT with the _g suffix of GPU allocations added, the stage under
$PSCRATCH/proxyport. The partition runs the node check (proxyport_node): one job
per build and case runs every app and model on one node, one app per GPU at a
time, then the host model on all 64 cores: 3 jobs for the three builds' reference
case (the per-app checks would be up to 60 whole-node jobs).

  export SBATCH_ACCOUNT=mXXXX
  reframe -C validate/reframe/config/perlmutter.py -c validate/reframe -r -t reference \
          -S proxyport_build.build_jobs=16
  (-p gnu: one build only; PP_BUILD_DIR=build/perlmutter-gnu: a build made already)

No published results for the A100: the checks carry no references here.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))  # validate/
from pptools import site as pp_site  # noqa: E402
from pptools.site import reframe as pp_site_reframe  # noqa: E402

SITE = pp_site.load(os.environ.get("PP_SITE_FILE") or os.path.join(pp_site.project.ROOT, "site", "perlmutter.toml"))
site_configuration = pp_site_reframe.config(SITE)
