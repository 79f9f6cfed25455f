"""ReFrame site configuration: OLCF Frontier (documented, not run here), made from
the site file site/frontier.toml (or PP_SITE_FILE): its builds are the environments
(PrgEnv-cray or PrgEnv-amd with craype-accel-amd-gfx90a, rocm), its scheduler the
partition: whole nodes of partition batch, the project from SBATCH_ACCOUNT, the
stage under $MEMBERWORK/<project>/proxyport. The partition runs the node check
(proxyport_node): one job per build and case runs every app and model on one
node, one app per GCD at a time (7 cores each), then the host model on the 56
usable cores: 2 jobs for the two builds' reference case.

  export SBATCH_ACCOUNT=PRJ123
  reframe -C validate/reframe/config/frontier.py -c validate/reframe -r -t reference \
          -S proxyport_build.build_jobs=16

No published results for the MI250X: the checks carry no references here.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))  # validate/
from pptools import site as pp_site  # noqa: E402
from pptools.site import reframe as pp_site_reframe  # noqa: E402

SITE = pp_site.load(os.environ.get("PP_SITE_FILE") or os.path.join(pp_site.project.ROOT, "site", "frontier.toml"))
site_configuration = pp_site_reframe.config(SITE)
