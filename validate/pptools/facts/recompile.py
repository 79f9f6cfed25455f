"""The kernels' compile commands re-run into a temporary folder with flags that
make the compiler report what it built (ptxas -v, resource-usage and OpenMP
remarks, saved PTX), or the app relinked where device code is compiled at the
link; the facts per kernel and per file that come of it."""
import glob
import os
import shlex
import tempfile

from .build_folder import build_tag, compiler_kind, is_lto, kernel_sources, openmp_device_models, read_cache, replace_output, run
from .compiler_output import attach_remarks, parse_amd_resource, parse_ptx_bounds, parse_ptxas, parse_remarks
from .kernel_names import cuda_launch, demangle, kernel_name, launch_clauses, omp_symbol, source_line
from .occupancy import block_threads, occupancy

OPENMP_REMARKS = ["-Rpass=openmp-opt", "-Rpass-missed=openmp-opt", "-Rpass-analysis=openmp-opt"]


class Facts:
    def __init__(self, build, src_root, tmp):
        self.build, self.src_root, self.tmp = build, src_root, tmp
        self.kernels, self.files, self.failed = [], [], []
        self.inodes = {}

    def note_file(self, src, model, app, status, method, remarks=()):
        self.files.append({"source": os.path.relpath(src, self.src_root), "app": app, "model": model,
                           "status": status, "method": method, "remarks": list(remarks)})

    def add(self, app, model, symbol, facts, method, src_hint=None, bounds=None):
        k = {"app": app, "model": model, "symbol": symbol, "method": method}
        info = omp_symbol(symbol, self.inodes) if model in openmp_device_models() else None
        if info:
            src = info["source"] or src_hint
            k.update(kernel=info["function"], line=info["line"], region=info["region"])
            if src:
                text = source_line(src, info["line"])
                k["launch"] = dict(launch_clauses(text), source_text=text) if text else {}
        else:
            dem = self.demangled.get(symbol, symbol)
            k.update(kernel=kernel_name(dem), demangled=dem, line=None)
            src = src_hint
            if src:
                k["launch"] = {"configs": cuda_launch(src, dem.split("(")[0].split("::")[-1])}
        k["source"] = os.path.relpath(src, self.src_root) if src else None
        for f in ("registers", "smem_static", "stack", "spill_stores", "spill_loads"):
            k[f] = facts.get(f)
        k["max_threads"] = (bounds or {}).get("max_threads") or (bounds or {}).get("req_threads")
        extra = {f: v for f, v in facts.items() if f not in k}
        extra.update({f: v for f, v in (bounds or {}).items() if f not in ("max_threads",)})
        if extra:
            k["extra"] = extra
        k["remarks"] = []
        self.kernels.append(k)

    def index_inodes(self, srcs):
        for s in srcs:
            try:
                self.inodes[format(os.stat(s).st_ino, "x")] = s
            except OSError:
                pass

    # clang OpenMP, device code compiled with the TU: ptxas runs now.
    def clang_compile(self, src, model, app, cwd, argv):
        d = tempfile.mkdtemp(prefix="omp-", dir=self.tmp)
        extra = (["--offload-device-only", "-save-temps=obj", "-Xcuda-ptxas", "-v",
                  "-Rpass-analysis=kernel-resource-usage"] + OPENMP_REMARKS)
        rc, out = run(replace_output(argv, os.path.join(d, "k.o")) + extra, cwd)
        if rc:
            self.fail(src, model, app, "clang device compile", rc, out)
            return
        amd = parse_amd_resource(out)
        res = parse_ptxas(out) or amd
        bounds = {}
        for s in glob.glob(os.path.join(d, "*.s")):
            with open(s, encoding="utf-8", errors="replace") as f:
                bounds.update(parse_ptx_bounds(f.read()))
        method = ("clang device compile: ptxas -v of the build's ptxas (" + self.ptxas_of(argv) + "), PTX .maxntid"
                  if not amd else "clang device compile: -Rpass-analysis=kernel-resource-usage")
        self.emit(src, model, app, res, bounds, parse_remarks(out), method)

    def emit(self, src, model, app, res, bounds, remarks, method):
        self.demangled = demangle(res)
        first = len(self.kernels)
        for sym in sorted(res, key=lambda s: (omp_symbol(s, {}) or {}).get("line", 0)):
            self.add(app, model, sym, res[sym], method, src, bounds.get(sym))
        loose = attach_remarks(self.kernels[first:], remarks, src, self.src_root)
        self.note_file(src, model, app, "ok" if res else "no kernels reported", method, loose)

    def ptxas_of(self, argv):
        cp = [a.split("=", 1)[1] for a in argv if a.startswith("--cuda-path=")]
        return os.path.join(cp[-1], "bin", "ptxas") if cp else "ptxas on PATH / clang's CUDA"

    def nvcc(self, src, model, app, cwd, argv):
        d = tempfile.mkdtemp(prefix="cuda-", dir=self.tmp)
        rc, out = run(replace_output(argv, os.path.join(d, "k.o"))
                      + ["-Xptxas", "-v", "-keep", "-keep-dir", d], cwd)
        if rc:
            self.fail(src, model, app, "nvcc compile", rc, out)
            return
        bounds = {}
        for s in glob.glob(os.path.join(d, "*.ptx")):
            with open(s, encoding="utf-8", errors="replace") as f:
                bounds.update(parse_ptx_bounds(f.read()))
        self.emit(src, model, app, parse_ptxas(out), bounds, [], "nvcc -Xptxas -v, PTX .maxntid")

    def hipcc(self, src, model, app, cwd, argv):
        d = tempfile.mkdtemp(prefix="hip-", dir=self.tmp)
        rc, out = run(replace_output(argv, os.path.join(d, "k.o"))
                      + ["--offload-device-only", "-Rpass-analysis=kernel-resource-usage"], cwd)
        if rc:
            self.fail(src, model, app, "hipcc device compile", rc, out)
            return
        self.emit(src, model, app, parse_amd_resource(out), {}, [], "hipcc -Rpass-analysis=kernel-resource-usage")

    def fail(self, src, model, app, what, rc, out):
        tail = " | ".join(out.strip().splitlines()[-3:])
        self.failed.append(f"{os.path.relpath(src, self.src_root)}: {what} exit {rc}: {tail}")
        self.note_file(src, model, app, f"failed: {what} exit {rc}", what)

    # Device code compiled at the link: relink each app into the temporary folder.
    def relink(self, apps_srcs):
        for app, srcs in sorted(apps_srcs.items()):
            link = os.path.join(self.build, app, "CMakeFiles", f"{app}.dir", "link.txt")
            if not os.path.exists(link):
                for s, m in srcs:
                    self.note_file(s, m, app, f"not available: no link command {os.path.relpath(link, self.build)}",
                                   "relink")
                continue
            with open(link, encoding="utf-8") as f:
                argv = shlex.split(f.read().strip().splitlines()[0])
            d = tempfile.mkdtemp(prefix=f"link-{app}-", dir=self.tmp)
            # run in d (the linker wrapper writes its saved temps to the working
            # folder): the link's relative paths made absolute
            appdir = os.path.join(self.build, app)
            argv = [os.path.join(appdir, x) if not x.startswith("-") and not os.path.isabs(x)
                    and os.path.exists(os.path.join(appdir, x)) else x for x in argv]
            argv = replace_output(argv, os.path.join(d, app))
            argv += ["-Wl,--offload-opt=-pass-remarks-analysis=kernel-resource-usage|openmp-opt",
                     "-Wl,--offload-opt=-pass-remarks=openmp-opt",
                     "-Wl,--offload-opt=-pass-remarks-missed=openmp-opt", "-Xcuda-ptxas", "-v",
                     "-save-temps"]  # the linked PTX (its .maxntid)
            rc, out = run(argv, d)
            method = "relink (device LTO): clang-linker-wrapper remarks / ptxas -v"
            if rc:
                why = out.strip().splitlines()[-1] if out.strip() else ""
                for s, m in srcs:
                    self.note_file(s, m, app, f"not available: relink exit {rc} (build the app first?) {why}",
                                   "relink")
                continue
            res = parse_ptxas(out) or parse_amd_resource(out)
            bounds = {}
            for ptx in glob.glob(os.path.join(d, "*.s")):
                with open(ptx, encoding="utf-8", errors="replace") as f:
                    bounds.update(parse_ptx_bounds(f.read()))
            self.demangled = {}
            mine = {os.path.realpath(s): m for s, m in srcs}
            for sym, fx in res.items():
                info = omp_symbol(sym, self.inodes)
                if info and info["source"] and os.path.realpath(info["source"]) in mine:
                    self.add(app, mine[os.path.realpath(info["source"])], sym, fx, method, bounds=bounds.get(sym))
            loose = [r["text"] for r in parse_remarks(out)]
            for s, m in srcs:
                self.note_file(s, m, app, "ok", method, loose if s == srcs[0][0] else [])


def collect(build, apps, models, tmp):
    build = os.path.realpath(build)
    cache = read_cache(build)
    src_root = os.path.realpath(cache.get("CMAKE_HOME_DIRECTORY") or cache.get("ProxyPort_SOURCE_DIR") or ".")
    fx = Facts(build, src_root, tmp)
    srcs = [s for s in kernel_sources(build, src_root)
            if (not apps or s[2] in apps) and (not models or s[1] in models)]
    fx.index_inodes(s[0] for s in srcs)
    link_apps = {}
    for src, model, app, cwd, argv in srcs:
        kind = compiler_kind(argv)
        if kind == "nvcc":
            fx.nvcc(src, model, app, cwd, argv)
        elif kind == "hipcc":
            fx.hipcc(src, model, app, cwd, argv)
        elif "-DPP_OFFLOAD_CPU=1" in argv or any(a.startswith("-fopenmp-targets=") and "nvptx" not in a
                                                 and "amdgcn" not in a for a in argv):
            # the cpu target, whichever compiler (gcc's -foffload=disable builds too)
            fx.note_file(src, model, app, "not available: OpenMP offload to the host CPU (no GPU kernels)", "none")
        elif kind == "gcc":
            fx.note_file(src, model, app, "not available: GCC compiles offload code at the link (mkoffload, "
                         "LTO); its nvptx back end reports no per-kernel resources", "none")
        elif is_lto(argv):
            # The common layer's kernels are linked into every app: relinking one app is enough.
            link_apps.setdefault("microbench" if app == "common" else app, []).append((src, model))
        else:
            fx.clang_compile(src, model, app, cwd, argv)
    if link_apps:
        fx.relink(link_apps)
    cc = cache.get("CMAKE_C_COMPILER", "")
    b = {"dir": build, "source": src_root, "compiler": f"{cache.get('CMAKE_C_COMPILER_ID', '?')} "
         f"{cache.get('CMAKE_C_COMPILER_VERSION', '?')} ({cc})", "tag": build_tag(cache),
         "offload": cache.get("PP_OFFLOAD", ""), "cuda_compiler": cache.get("CMAKE_CUDA_COMPILER", ""),
         "flags": " ".join(x for x in (cache.get("CMAKE_C_FLAGS", ""), cache.get("PP_OMP_DEVICE_FLAGS", ""),
                                       cache.get("PP_OMP_EXTRA_FLAGS", "")) if x).strip(),
         "arch": cache.get("PP_NVIDIA_ARCH") if cache.get("PP_OFFLOAD") == "nvidia" else cache.get("PP_AMD_ARCH", "")}
    for k in fx.kernels:  # at the block size the PTX bounds (launch bounds, .maxntid) fix
        occ = occupancy(b["arch"], k.get("registers"), k.get("smem_static"), block_threads(k.get("max_threads")))
        if occ:
            k["occupancy"] = dict(occ, threads=block_threads(k["max_threads"]),
                                  note="static shared memory only; at the block size of the kernel's bound")
    return {"schema": "proxyport-compile-facts-1", "build": b, "kernels": fx.kernels, "files": fx.files}, fx.failed
