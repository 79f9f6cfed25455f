"""A ReFrame site configuration from a site file (validate/reframe/config/
perlmutter.py and frontier.py): one system, one partition of whole nodes whose
feature pp_node selects the node check (proxyport_node: every app and model of
a case in one job), one environment per build (its modules, env, compiler and
preset). Account (scheduler.account_env, account_suffix) and scratch
(scheduler.scratch_env: the stage prefix) come from the environment.
"""
import os

LAUNCHERS = {"local": "local", "srun": "srun", "mpirun": "mpirun", "mpiexec": "mpiexec", "flux": "local"}


def config(site, environ=os.environ):
    s = site.scheduler
    gpus = s.get("gpus_per_node", 0)
    access = []
    acct = site.account(environ)
    if acct:
        access.append(f"--account={acct}")
    if s.get("partition"):
        access.append(f"--partition={s['partition']}")
    access += s.get("options", [])
    # off-site (listing the checks) there is no scratch: the current folder
    prefix = site.scratch(environ, default=os.path.join(os.getcwd(), "proxyport-reframe"))
    part = {
        "name": "gpu" if gpus else "cpu",
        "descr": f"whole nodes: {gpus} GPU(s), {s.get('cores_per_node', '?')} cores; one job per build and case",
        "scheduler": s["type"],
        "launcher": LAUNCHERS[s.get("launcher", "local")],
        "access": access,
        "environs": [b["name"] for b in site.builds],
        "features": ["pp_node"],
        "extras": {"pp_cores": s.get("cores_per_node", os.cpu_count() or 1), "pp_gpus": gpus,
                   "pp_slurm_cpus_per_core": s.get("slurm_cpus_per_core", 1),
                   "pp_cpus_per_gpu": s.get("cpus_per_gpu", 1),
                   "pp_launcher_options": s.get("launcher_options", []), "pp_site_file": site.path},
        "max_jobs": s.get("max_jobs", 8),
    }
    if s.get("time_limit"):
        part["time_limit"] = s["time_limit"]
    if gpus:
        part["resources"] = [{"name": "_rfm_gpu", "options": ["--gpus-per-node={num_gpus_per_node}"]}]
        part["devices"] = [{"type": "gpu", "arch": s.get("gpu_arch", ""), "num_devices": gpus}]
    envs = [{"name": b["name"], "modules": b.get("modules", []),
             "env_vars": [[k, v] for k, v in b.get("env", {}).items()] + [["PP_SITE_FILE", site.path]],
             "cc": b.get("cc", "cc"), "target_systems": [site.name],
             "extras": {"pp_preset": b["preset"], "pp_cmake": b.get("cmake", [])}} for b in site.builds]
    return {
        "systems": [{
            "name": site.name,
            "descr": site.doc["site"].get("description", site.name),
            "hostnames": site.doc["site"].get("hostnames", []),
            "modules_system": environ.get("PP_RFM_MODULES", "lmod"),  # nomod: list the checks off-site
            "prefix": prefix,
            "partitions": [part],
        }],
        "environments": envs,
    }
