"""ReFrame site configuration: this machine (local scheduler), and a GPU node.

  reframe -C validate/reframe/config/local.py -c validate/reframe -r -t small
      local:cpu   the `cpu` preset (host model + OpenMP offload to the host CPU);
                  the system picked on any host name
  reframe -C validate/reframe/config/local.py --system h200 -c validate/reframe -r -t reference
  reframe -C validate/reframe/config/local.py --system node -c validate/reframe -r -n proxyport_node
      node:cpu    the node check (proxyport_node, as the centres' site files run it): every
                  app and model of a case in one job, on all of this machine's cores
      h200:gpu    one NVIDIA H200 (the `nvidia-sm90` preset; give the legacy CUDA root with
                  -S proxyport_build.cmake_opts=-DPP_OMP_CUDA_PATH=$PWD/.toolchain/cuda-legacy,
                  or a build carried there with PP_BUILD_DIR); the reference case is checked
                  against results/nvidia-h200/ (extras pp_reference)
Partition features pp_<model> say which models a partition can run; stage,
output and performance logs go to build/reframe/ (git-ignored).
"""
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

site_configuration = {
    "systems": [
        {
            "name": "local",
            "descr": "this machine, no batch scheduler",
            "hostnames": [".*"],
            "modules_system": "nomod",
            "prefix": os.path.join(REPO, "build", "reframe"),
            "partitions": [{
                "name": "cpu",
                "descr": "CPU only: host model and OpenMP offload to the host",
                "scheduler": "local",
                "launcher": "local",
                "environs": ["clang-cpu"],
                "features": ["pp_host", "pp_omp"],
                "max_jobs": 1,  # one run at a time: timings share the cores
            }],
        },
        {
            "name": "node",
            "descr": "this machine as one whole node: the node check (chosen with --system node)",
            "hostnames": [],
            "modules_system": "nomod",
            "prefix": os.path.join(REPO, "build", "reframe"),
            "partitions": [{
                "name": "cpu",
                "scheduler": "local",
                "launcher": "local",
                "environs": ["clang-cpu"],
                "features": ["pp_node"],
                "extras": {"pp_cores": os.cpu_count() or 1, "pp_gpus": 0},
                "max_jobs": 1,
            }],
        },
        {
            "name": "h200",
            "descr": "a GPU node with one NVIDIA H200 (chosen with --system h200)",
            "hostnames": [],
            "modules_system": "nomod",
            "prefix": os.path.join(REPO, "build", "reframe"),
            "partitions": [{
                "name": "gpu",
                "scheduler": "local",
                "launcher": "local",
                "environs": ["clang-nvidia"],
                "features": ["pp_host", "pp_omp", "pp_ompx", "pp_cuda"],
                "extras": {"pp_reference": "nvidia-h200"},
                "max_jobs": 1,
            }],
        },
    ],
    "environments": [
        {"name": "clang-cpu", "extras": {"pp_preset": "cpu"}, "target_systems": ["local", "node"]},
        {"name": "clang-nvidia", "extras": {"pp_preset": "nvidia-sm90"}, "target_systems": ["h200"]},
    ],
}
