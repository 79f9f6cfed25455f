"""ReFrame site configuration: OLCF Frontier (documented, not run here).

4 x AMD MI250X per node = 8 GCDs (gfx90a), each a device to the apps; Slurm
(partition batch), Lmod. One environment per Frontier preset of
CMakePresets.json (module lines from docs/building.md, "Perlmutter and
Frontier"); the build runs on the login node, each check on one GCD.

  export SBATCH_ACCOUNT=PRJ123
  reframe -C validate/reframe/config/frontier.py -c validate/reframe -r -t reference \
          -S proxyport_build.build_jobs=16

No published results for the MI250X: the checks carry no references here.
"""
import os

site_configuration = {
    "systems": [{
        "name": "frontier",
        "descr": "OLCF Frontier, HPE Cray EX, 4 x AMD MI250X (8 GCDs) per node",
        "hostnames": [r"login\d+\.frontier", r"frontier\d+"],
        "modules_system": os.environ.get("PP_RFM_MODULES", "lmod"),  # nomod: list checks off-site
        "prefix": os.path.join(os.environ.get("MEMBERWORK", "."), "proxyport-reframe"),
        "partitions": [{
            "name": "gpu",
            "descr": "compute nodes (one GCD per check)",
            "scheduler": "slurm",
            "launcher": "srun",
            "access": ["--partition=batch"],
            "environs": ["PrgEnv-cray", "PrgEnv-amd"],
            "features": ["pp_host", "pp_omp", "pp_ompx", "pp_hip"],
            "max_jobs": 20,
            "time_limit": "30m",
            "resources": [{"name": "_rfm_gpu", "options": ["--gpus-per-node={num_gpus_per_node}"]}],
            "devices": [{"type": "gpu", "arch": "gfx90a", "num_devices": 8}],
        }],
    }],
    "environments": [
        {"name": "PrgEnv-cray", "modules": ["PrgEnv-cray", "craype-accel-amd-gfx90a", "rocm"],
         "cc": "cc", "extras": {"pp_preset": "frontier-cray"}, "target_systems": ["frontier"]},
        {"name": "PrgEnv-amd", "modules": ["PrgEnv-amd", "craype-accel-amd-gfx90a"],
         "cc": "cc", "extras": {"pp_preset": "frontier-amd"}, "target_systems": ["frontier"]},
    ],
}
