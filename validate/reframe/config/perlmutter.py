"""ReFrame site configuration: NERSC Perlmutter GPU nodes (documented, not run here).

4 x NVIDIA A100 (sm_80) per node, Slurm (-C gpu), Lmod. One environment per
Perlmutter preset of CMakePresets.json (module lines from docs/building.md,
"Perlmutter and Frontier"); the build runs on the login node, each check on
one GPU of a compute node. Account and QOS through Slurm's own variables:

  export SBATCH_ACCOUNT=mXXXX          (SBATCH_QOS overrides the qos below)
  reframe -C validate/reframe/config/perlmutter.py -c validate/reframe -r -t reference \
          -S proxyport_build.build_jobs=16
  (-p PrgEnv-llvm: one compiler only; PP_BUILD_DIR=build/perlmutter-llvm: a build made already)

No published results for the A100: the checks carry no references here
(extras pp_reference names a results/ folder where one exists).
"""
import os

site_configuration = {
    "systems": [{
        "name": "perlmutter",
        "descr": "NERSC Perlmutter, HPE Cray EX, GPU nodes with 4 x NVIDIA A100",
        "hostnames": [r"login\d+", r"nid\d+"],
        "modules_system": os.environ.get("PP_RFM_MODULES", "lmod"),  # nomod: list checks off-site
        "prefix": os.path.join(os.environ.get("SCRATCH", "."), "proxyport-reframe"),
        "partitions": [{
            "name": "gpu",
            "descr": "GPU nodes (one GPU per check)",
            "scheduler": "slurm",
            "launcher": "srun",
            "access": ["--constraint=gpu", "--qos=regular"],
            "environs": ["PrgEnv-gnu", "PrgEnv-nvidia", "PrgEnv-llvm"],
            "features": ["pp_host", "pp_omp", "pp_ompx", "pp_cuda"],
            "max_jobs": 20,
            "time_limit": "30m",
            "resources": [{"name": "_rfm_gpu", "options": ["--gpus-per-node={num_gpus_per_node}"]}],
            "devices": [{"type": "gpu", "arch": "sm_80", "num_devices": 4}],
        }],
    }],
    "environments": [
        {"name": "PrgEnv-gnu", "modules": ["PrgEnv-gnu", "cudatoolkit", "craype-accel-nvidia80"],
         "cc": "cc", "extras": {"pp_preset": "perlmutter-gnu"}, "target_systems": ["perlmutter"]},
        {"name": "PrgEnv-nvidia", "modules": ["PrgEnv-nvidia", "cudatoolkit", "craype-accel-nvidia80"],
         "cc": "cc", "extras": {"pp_preset": "perlmutter-nvhpc"}, "target_systems": ["perlmutter"]},
        {"name": "PrgEnv-llvm", "modules": ["PrgEnv-llvm", "cudatoolkit", "craype-accel-nvidia80"],
         "cc": "cc", "extras": {"pp_preset": "perlmutter-llvm"}, "target_systems": ["perlmutter"]},
    ],
}
