"""ReFrame checks for ProxyPort: one per app, parameterized by model and case.

  reframe -C validate/reframe/config/local.py -c validate/reframe -r -t small

Each check runs `<app> --backend <model> <case options> --json result.json`
with the case options of validate/pptools/suite/cases.py (small / reference). Sanity:
exit code 0 and every result row of that model validated. Performance: one
variable per row, its figure of merit in the unit the app writes; on a
partition whose extras name a published results folder (pp_reference:
'nvidia-h200'), the reference case's variables get that folder's values as
references with a tolerance of `tolerance` (default 10%) on the bad side,
when the run's result file shows the published GPU (an H100 there: none).
Variables (-S NAME=VALUE): inject_fault (the app's --inject-fault), app_opts
(more app options, comma-separated), tolerance; for proxyport_build: preset,
cmake_opts, build_dir, build_jobs.

The apps are built once per partition and environment by proxyport_build:
CMake with the cache variables of a CMakePresets.json preset (the
environment's extras 'pp_preset', else 'cpu'), or taken from an existing
build folder: PP_BUILD_DIR=build/cpu, or -S proxyport_build.build_dir=DIR.

The checks read result files through the tools' package, validate/pptools:
validate/reframe/install.sh puts validate/ on its virtual environment's path
(a .pth file); with another ReFrame, set PYTHONPATH=<repository>/validate
(tests/tools/reframe_check.sh does).
"""
import os
import shlex
import sys

import reframe as rfm
import reframe.utility.sanity as sn
import reframe.utility.typecheck as typ
from reframe.core.builtins import fixture, parameter, run_after, run_before, sanity_function, variable
from reframe.core.exceptions import SanityError
from reframe.core.meta import make_test

# validate/, where the tools' package is, found from this file (PYTHONPATH or the .pth
# file of validate/reframe/install.sh are then not needed)
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
try:
    from pptools import project
    from pptools import reframe_rows as pp_rows
    from pptools import site as pp_site
    from pptools.suite import cases as suite_cases
    from pptools.suite import run as suite_run
    from pptools.suite import summary as suite_summary
except ImportError as e:
    raise ImportError(f"{e}: validate/pptools is not on the Python path; run validate/reframe/install.sh "
                      "(its virtual environment finds it) or set PYTHONPATH=<repository>/validate") from e

REPO = project.ROOT



MODELS = list(project.models())  # PP_MODELS of pp/model.h, the one list


class proxyport_build(rfm.CompileOnlyRegressionTest):
    """The five apps, configured from a CMake preset, or an existing build."""
    descr = "ProxyPort apps built with CMake"
    valid_systems = ["*"]
    valid_prog_environs = ["*"]
    sourcesdir = None          # configure the repository in place (-S REPO), build in the stage
    build_system = "CMake"
    preset = variable(str, value="")            # '' -> environment extras 'pp_preset', else 'cpu'
    cmake_opts = variable(typ.List[str], value=[])   # e.g. -DPP_OMP_CUDA_PATH=...
    build_dir = variable(str, value=os.environ.get("PP_BUILD_DIR", ""))
    build_jobs = variable(int, value=min(8, os.cpu_count() or 1))

    @run_after("init")
    def absolute(self):  # later stages run inside the stage folder
        if self.build_dir:
            self.build_dir = os.path.abspath(self.build_dir)

    @property
    def bindir(self):
        return os.path.join(self.build_dir or os.path.join(self.stagedir, "build"), "bin")

    @run_before("compile")
    def configure(self):
        if self.build_dir:  # reuse: only check that every app is there
            self.build_system = "CustomBuild"
            self.build_system.commands = [f"test -x {shlex.quote(os.path.join(self.bindir, a))}"
                                          for a in suite_cases.apps()]
            return
        name = self.preset or self.current_environ.extras.get("pp_preset", "cpu")
        gen, cache = pp_site.preset(name)
        cache["PP_BUILD_TESTS"] = "OFF"
        # a site file's build: its compiler and cache variables (-DNAME=VALUE)
        if self.current_environ.extras.get("pp_preset") and self.current_environ.cc:
            cache["CMAKE_C_COMPILER"] = self.current_environ.cc
        for opt in self.current_environ.extras.get("pp_cmake", []):
            key, _, val = opt[2:].partition("=")
            cache[key.split(":")[0]] = val
        bs = self.build_system
        bs.flags_from_environ = False  # the preset names the compiler
        bs.configuredir = REPO
        bs.builddir = "build"
        bs.config_opts = ([f"-G {shlex.quote(gen)}"] if gen else []) + \
            [shlex.quote(f"-D{k}={v}") for k, v in cache.items()] + [shlex.quote(o) for o in self.cmake_opts]
        bs.max_concurrency = self.build_jobs
        bs.build_opts = list(suite_cases.apps())

    @sanity_function
    def apps_built(self):
        missing = [a for a in suite_cases.apps() if not os.access(os.path.join(self.bindir, a), os.X_OK)]
        return sn.assert_false(missing, msg=f"not built in {self.bindir}: {', '.join(missing)}")


class proxyport_app(rfm.RunOnlyRegressionTest):
    """One app, one model, one case of validate/pptools/suite/cases.py."""
    app = variable(str)
    model = parameter(MODELS)
    case = parameter(["small", "reference"])
    build = fixture(proxyport_build, scope="environment")
    valid_prog_environs = ["*"]
    inject_fault = variable(str, value="")      # testing: the app's --inject-fault NAME
    app_opts = variable(typ.List[str], value=[])
    tolerance = variable(float, value=0.10)
    num_tasks = 1
    maintainers = ["ProxyPort"]

    @run_after("init")
    def select(self):
        self.valid_systems = [f"+pp_{self.model}"]  # partitions that can run this model
        self.descr = f"{self.app} --backend {self.model}, {self.case} case"
        self.tags = {self.app, self.model, self.case}

    @run_after("setup")
    def command(self):
        if self.model != project.reference_model() and any(d.device_type == "gpu" for d in self.current_partition.devices):
            self.num_gpus_per_node = 1  # omp offloads to the GPU too
        exe = os.path.join(self.build.bindir, self.app)
        if not self.is_dry_run():  # a dry run builds nothing to ask
            self.skip_if(self.model not in suite_cases.build_record(exe)["models"],
                         f"{self.model} is not built in {self.build.bindir} (see {self.app} --help)")
        inputs = os.environ.get("PP_INPUTS") or os.path.join(REPO, "inputs")
        self.executable = exe
        self.executable_opts = (["--backend", self.model] + suite_cases.case_args(self.app, self.case, inputs)
                                + self.app_opts + ["--json", "result.json", "--csv", "result.csv"]
                                + (["--inject-fault", self.inject_fault] if self.inject_fault else []))
        self.env_vars = {"PP_INPUTS": inputs, "OMP_TARGET_OFFLOAD": "MANDATORY"}
        cores = self.current_partition.extras.get("pp_cores")
        if self.model == project.reference_model() and cores:
            # the host model gets the node's cores (one core took testsnap's reference case ~19 min)
            self.num_cpus_per_task = cores * int(self.current_partition.extras.get("pp_slurm_cpus_per_core") or 1)
            self.env_vars["OMP_NUM_THREADS"] = str(cores)
        self.keep_files = ["result.json", "result.csv"]

    @sanity_function
    def validated(self):
        why = pp_rows.problems(pp_rows.load(os.path.join(self.stagedir, "result.json")),
                               self.model, self.job.exitcode)
        if why:
            raise SanityError(f"{self.app} {self.model}: " + "; ".join(why))
        return True

    @run_before("performance")
    def foms(self):
        doc = pp_rows.load(os.path.join(self.stagedir, "result.json"))
        rows = {**pp_rows.perf_rows(doc, self.model), **pp_rows.energy_rows(doc, self.model)}
        self.perf_variables = {name: sn.make_performance_function(lambda v=fom: v, unit)
                               for name, (fom, unit, _) in rows.items()}
        published = self.current_partition.extras.get("pp_reference")
        if published and self.case == "reference" and suite_cases.case(self.app)["published"]:
            pub = pp_rows.load(os.path.join(REPO, "results", published,
                                            suite_cases.case(self.app)["published"]))
            gpu, seen = suite_summary.gpu_name(pub or {}), pp_rows.gpu_names(doc)
            if gpu not in seen:  # e.g. an H100 in a partition set up for the H200
                self.logger.warning(f"no references: this run saw {sorted(seen) or 'no GPU'}, "
                                    f"the published results are of {gpu}")
                return
            refs = pp_rows.references(pub, self.model, self.tolerance)
            self.reference = {self.current_partition.fullname:
                              {k: v for k, v in refs.items() if k in self.perf_variables}}


@rfm.simple_test
class proxyport_node(rfm.RunOnlyRegressionTest):
    """Every app and model of one case in one job on one whole node (partitions with
    the feature pp_node: the centres' site files): the device models one app per GPU
    at a time (CUDA/ROCR_VISIBLE_DEVICES, pp_cpus_per_gpu threads each), then the
    host model of each app on all the node's cores (pp_cores). Without GPUs, every
    model on all cores, one app at a time. Sanity: every app exits 0 and every row
    of every model it built validates. Performance: app_model_row variables."""
    case = parameter(["small", "reference"])
    build = fixture(proxyport_build, scope="environment")
    valid_systems = ["+pp_node"]
    valid_prog_environs = ["*"]
    fast = variable(bool, value=False)        # testing: the suite's --fast timing options
    apps = variable(typ.List[str], value=[])  # a subset of apps.txt (default all)
    inject_fault = variable(str, value="")    # testing: APP:FAULT, that app's --inject-fault FAULT
    num_tasks = 1
    exclusive_access = True
    maintainers = ["ProxyPort"]

    @run_after("init")
    def describe(self):
        self.descr = f"every app and model on one node, {self.case} case"
        self.tags = {"node", self.case}

    @run_after("setup")
    def plan(self):
        ex = self.current_partition.extras
        self.cores = int(ex.get("pp_cores") or os.cpu_count() or 1)
        self.gpus = int(ex.get("pp_gpus") or 0)
        self.num_cpus_per_task = self.cores * int(ex.get("pp_slurm_cpus_per_core") or 1)
        if self.gpus:
            self.num_gpus_per_node = self.gpus
        self.job.launcher.options = list(ex.get("pp_launcher_options", []))
        inputs = os.environ.get("PP_INPUTS") or os.path.join(REPO, "inputs")
        self.env_vars = {"PP_INPUTS": inputs, "OMP_TARGET_OFFLOAD": "MANDATORY"}
        ref = project.reference_model()
        self.runs = []   # (app, tag, models, threads, gpu or None)
        gpu_runs = []
        unknown = set(self.apps) - set(suite_cases.apps())
        if unknown:
            raise ValueError(f"proxyport_node.apps: not in apps.txt: {', '.join(sorted(unknown))}")
        for app in [a for a in suite_cases.apps() if not self.apps or a in self.apps]:
            exe = os.path.join(self.build.bindir, app)
            models = MODELS if self.is_dry_run() else suite_cases.build_record(exe)["models"]
            device = [m for m in models if m != ref]
            if self.gpus and device:
                gpu_runs.append((app, "gpu", device))
                self.runs.append((app, "host", [ref], self.cores, None))
            else:
                self.runs.append((app, "all", models, self.cores, None))
        per_gpu = max(1, int(ex.get("pp_cpus_per_gpu") or 1))
        self.runs = [(a, t, m, per_gpu, k % self.gpus) for k, (a, t, m) in enumerate(gpu_runs)] + self.runs
        lines = ["set -u", ": > exits.txt"]

        def cmd(app, tag, models, threads, gpu):
            env = [f"OMP_NUM_THREADS={threads}"] + ([f"CUDA_VISIBLE_DEVICES={gpu}", f"ROCR_VISIBLE_DEVICES={gpu}"]
                                                   if gpu is not None else [])
            args = suite_cases.case_args(app, self.case, inputs)
            if self.fast:  # as the suite's --fast: testsnap's steps are its samples
                fast = suite_cases.steps_are_samples(app)
                args = suite_run.fast_steps(args) if fast else args + suite_run.FAST
            fault_app, _, fault = self.inject_fault.partition(":")
            if fault and fault_app == app:
                args += ["--inject-fault", fault]
            argv = ([os.path.join(self.build.bindir, app), "--backend", ",".join(models)] + args +
                    ["--json", f"{app}-{tag}.json", "--csv", f"{app}-{tag}.csv"])
            return (f"env {' '.join(env)} {' '.join(shlex.quote(x) for x in argv)} > {app}-{tag}.txt 2>&1; "
                    f"echo \"{app} {tag} $?\" >> exits.txt")
        # the device phase: one chain of apps per GPU, side by side
        for g in range(self.gpus):
            chain = [cmd(*r) for r in self.runs if r[1] == "gpu" and r[4] == g]
            if chain:
                lines.append("( " + "; ".join(chain) + " ) &")
        lines.append("wait")
        lines += [cmd(*r) for r in self.runs if r[1] != "gpu"]  # then the host phase, all cores
        self.node_script = "\n".join(lines) + "\n"
        self.executable = "bash"
        self.executable_opts = ["node_run.sh"]
        self.keep_files = ["exits.txt"] + [f"{r[0]}-{r[1]}.{x}" for r in self.runs for x in ("json", "txt")]

    @run_before("run")
    def write_script(self):
        with open(os.path.join(self.stagedir, "node_run.sh"), "w") as f:
            f.write(self.node_script)

    def exits(self):
        out = {}
        path = os.path.join(self.stagedir, "exits.txt")
        if os.path.exists(path):
            for line in open(path):
                app, tag, rc = line.split()
                out[(app, tag)] = int(rc)
        return out

    @sanity_function
    def validated(self):
        rcs, why = self.exits(), []
        for app, tag, models, _, _ in self.runs:
            doc = pp_rows.load(os.path.join(self.stagedir, f"{app}-{tag}.json"))
            for m in models:
                why += [f"{app} {m}: {w}" for w in pp_rows.problems(doc, m, rcs.get((app, tag), -1))]
        if why:
            raise SanityError("; ".join(why))
        return True

    @run_before("performance")
    def foms(self):
        self.perf_variables = {}
        for app, tag, models, _, _ in self.runs:
            doc = pp_rows.load(os.path.join(self.stagedir, f"{app}-{tag}.json"))
            for m in models:
                rows = {**pp_rows.perf_rows(doc, m), **pp_rows.energy_rows(doc, m)}
                for name, (fom, unit, _) in rows.items():
                    self.perf_variables[f"{app}_{m}_{name}"] = sn.make_performance_function(lambda v=fom: v, unit)


# One check per app of the suite: microbench_check, spmv_check, ...
for _app in suite_cases.apps():
    rfm.simple_test(make_test(f"{_app}_check", (proxyport_app,), {"app": _app}, module=__name__))
