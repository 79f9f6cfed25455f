"""energy-check [options] [-- COMMAND...]

Runs COMMAND (default: microbench's triad on cuda, ompx and omp, each row
metered over at least 20 s) with --json, while
`nvidia-smi --query-gpu=timestamp,power.draw -lms 100` samples the GPU's
power; then compares each row's average power from the energy meter with
the mean of the samples taken inside that row's metered region. Exit 0 when
every row is within the tolerance, 1 when one is outside it, 2 when it
cannot be checked (no nvidia-smi, no samples in a region, no energy).

  --build DIR        the build whose microbench runs (default build/nvidia-sm90)
  --gpu N            the GPU nvidia-smi samples (default 0; the run uses --device N)
  --tolerance X      allowed relative difference (default 0.05)
  --skip S           seconds left out at the region's start: power.draw is an
                     average over about a second on recent drivers (default 1)
  --query FIELD      nvidia-smi's field (default power.draw; power.draw.instant
                     on drivers that have it)
  --out DIR          where the result file and the samples go (default: a temp dir)
  --smi PROGRAM      the nvidia-smi to run (tests give a fake)"""
import argparse
import datetime
import os
import subprocess
import tempfile
import time

from pptools import cli, result
from pptools.text import show

DEFAULT = ["--backend", "cuda,ompx,omp", "--kernels", "triad", "--size", "2^28", "--warmup", "20", "--samples", "100",
           "--energy-min-s", "20", "--bootstrap", "0"]


def die(msg, code=2):
    cli.die("energy-check", msg, code)


def parse_samples(path):
    """[(unix seconds, watts)] from nvidia-smi's csv (timestamps in UTC: TZ=UTC)."""
    out = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) < 2:
                continue
            try:
                t = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f")
                w = float(parts[1])
            except ValueError:
                continue  # "[N/A]", a header, a cut line
            out.append((t.replace(tzinfo=datetime.timezone.utc).timestamp(), w))
    return out


def main(argv=None):
    ap = cli.Parser(usage=__doc__, add_help=True)
    ap.add_argument("--build", default="build/nvidia-sm90")
    ap.add_argument("--gpu", type=int, default=0)
    ap.add_argument("--tolerance", type=float, default=0.05)
    ap.add_argument("--skip", type=float, default=1.0)
    ap.add_argument("--query", default="power.draw")
    ap.add_argument("--out")
    ap.add_argument("--smi", default="nvidia-smi")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    cmd = a.command[1:] if a.command[:1] == ["--"] else a.command
    if not cmd:
        cmd = [os.path.join(a.build, "bin", "microbench")] + DEFAULT + ["--device", str(a.gpu)]
    out = a.out or tempfile.mkdtemp(prefix="energy-check.")
    os.makedirs(out, exist_ok=True)
    res_path, smi_path = os.path.join(out, "result.json"), os.path.join(out, "smi.csv")
    env = dict(os.environ, TZ="UTC")
    try:
        smi = subprocess.Popen([a.smi, f"--query-gpu=timestamp,{a.query}", "--format=csv,noheader,nounits",
                                "-i", str(a.gpu), "-lms", "100"], stdout=open(smi_path, "w"), env=env)
    except OSError as e:
        die(f"cannot run {a.smi}: {e}")
    time.sleep(0.5)
    print("energy-check: running", show(" ".join(cmd), 8000), flush=True)
    rc = subprocess.run(cmd + ["--json", res_path], env=env).returncode
    time.sleep(0.3)
    smi.terminate()
    smi.wait()
    if rc != 0:
        die(f"the command exited {rc}")
    doc = result.load_result(res_path)
    rows = [r for r in doc["results"] if isinstance(r.get("energy"), dict)]
    if not rows:
        reasons = sorted({str(r.get("energy")) for r in doc["results"]})
        die(f"no row has energy: {'; '.join(reasons)[:300]}")
    samples = parse_samples(smi_path)
    worst = 0
    for row in rows:
        e = row["energy"]
        t0, t1 = e["region_start_unix_s"], e["region_end_unix_s"]
        skip = a.skip if t1 - t0 > 2 * a.skip else 0.0
        inside = [w for t, w in samples if t0 + skip <= t <= t1]
        if len(inside) < 3:
            die(f"{row['kernel']} {row['model']}: {len(inside)} nvidia-smi samples inside the region "
                f"({t1 - t0:.2f} s; {len(samples)} in all, in {smi_path}): meter longer (--energy-min-s)")
        smi_w = sum(inside) / len(inside)
        diff = (e["watts"] - smi_w) / smi_w
        ok = abs(diff) <= a.tolerance
        worst = max(worst, 0 if ok else 1)
        print(f"row:            {show(row['kernel'])} {show(row['model'])} size {row['size']} {show(row.get('variant', ''))}")
        print(f"region:         {t1 - t0:.2f} s, {e['region_runs']} runs"
              f"{' (repeated)' if e['repeated_for_resolution'] else ' (the timed runs)'}")
        print(f"energy meter:   {e['watts']:.1f} W average ({e['joules_per_rep']:.4g} J per repetition; idle "
              f"{e['idle_watts']:.1f} W; counter update {e['counter_update_s'] * 1e3:.1f} ms, error "
              f"{100 * e['counter_error']:.2f}%; {show(e['source'])})")
        print(f"nvidia-smi:     {smi_w:.1f} W mean of {len(inside)} {a.query} samples (first {skip:g} s left out)")
        print(f"difference:     {100 * diff:+.1f}% (tolerance {100 * a.tolerance:.0f}%): {'PASS' if ok else 'FAIL'}")
    print(f"files:          {show(res_path, 2000)} {show(smi_path, 2000)}")
    return worst
