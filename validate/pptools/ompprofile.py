"""Where an OpenMP target region's time goes, from LLVM's own profile.

omp-profile TRACE.json [--json OUT] [--min-count N]

LLVM's offload runtime (libomptarget) writes a Chrome trace of its work when a
program runs with LIBOMPTARGET_PROFILE=TRACE.json; LIBOMPTARGET_PROFILE_GRANULARITY=1
keeps every event of a microsecond or more (the default drops those under 500 us,
which is every event of a short region). Each region is a "Runtime: target exe"
event; the runtime's steps inside it (HostToDev and DevToHost transfers, "Kernel
Target" the launch, "Runtime: synchronize" the wait: "syncronize" in LLVM 19) are
events within its span on its thread. This tool groups the regions by what they do (source location where
the program has line tables, -gline-tables-only; else the argument count, trip
count, team count and transfer sizes) and prints, per group, the median region
and the median time of each step in it; "other" is the region less its steps:
the runtime's own bookkeeping. API calls outside regions (omp_target_memcpy,
omp_target_alloc, ...) get one line each.

On a GPU the launch is asynchronous: the kernel's time is inside the wait
(and the transfers queued behind it); on the host as the device, the launch
runs the kernel. docs/running.md (Where an OpenMP region's time goes) has the
command and how to read it.
"""
import argparse
import statistics
import sys

from . import cli
from .outfile import write_json
from .result import BadInput, load_json

PROG = "omp-profile"
REGION = "Runtime: target exe"
LIMIT = 512 << 20  # a profile of a long run with granularity 1 is tens of MB
# the runtime's steps of a region, in the table's order, and their column names
STEP_NAMES = {"HostToDev": "h2d", "Kernel Target": "launch", "DevToHost": "d2h", "Runtime: synchronize": "sync"}
SPELLINGS = {"Runtime: syncronize": "Runtime: synchronize"}  # LLVM 19's name of the wait (22's is right)


def _detail(ev):
    args = ev.get("args")
    d = args.get("detail") if isinstance(args, dict) else None
    return d if isinstance(d, str) else ""


def _fields(detail):
    """';file;function;line;col;;K=V;K=V' -> (location or None, {K: V})."""
    parts = detail.split(";")
    loc = None
    if len(parts) >= 4 and parts[1] not in ("", "unknown"):
        loc = f"{parts[1]}:{parts[3]} {parts[2]}"
    kv = {}
    for p in parts:
        if "=" in p:
            k, _, v = p.partition("=")
            kv[k] = v
    return loc, kv


def events(doc, name):
    """The complete ('X') events of a trace document, checked."""
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise BadInput(f"{name}: not a Chrome trace (no traceEvents list): run the program with "
                       "LIBOMPTARGET_PROFILE=FILE")
    out = []
    for e in doc["traceEvents"]:
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        n, ts, dur = e.get("name"), e.get("ts"), e.get("dur")
        if not isinstance(n, str) or n.startswith("Total "):
            continue  # the runtime's per-name totals, not events
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and 0 <= x < 1e15 for x in (ts, dur)):
            raise BadInput(f"{name}: event '{n}' without a valid ts/dur")
        out.append({"name": SPELLINGS.get(n, n), "ts": float(ts), "dur": float(dur), "tid": e.get("tid"), "detail": _detail(e)})
    out.sort(key=lambda e: (e["tid"] if isinstance(e["tid"], int) else 0, e["ts"], -e["dur"]))
    return out


def regions(evs):
    """Each region with the steps inside its span on its thread, and the events outside any."""
    found, outside = [], []
    open_ = {}  # tid -> the region being filled
    for e in evs:
        r = open_.get(e["tid"])
        if r and e["ts"] > r["ts"] + r["dur"]:
            del open_[e["tid"]]
            r = None
        if e["name"] == REGION:
            r = dict(e, steps=[])
            open_[e["tid"]] = r
            found.append(r)
        elif r is not None:
            r["steps"].append(e)
        else:
            outside.append(e)
    return found, outside


def signature(r):
    """What the region does: its source location, else its launch's arguments, trip count
    and teams. Transfer sizes are not part of it: a step under the granularity leaves no
    event, so the same region can show a transfer one time and not the next."""
    loc, kv = _fields(r["detail"])
    if loc:
        return loc
    launch = [s for s in r["steps"] if s["name"] == "Kernel Target"]
    lkv = _fields(launch[0]["detail"])[1] if launch else {}
    return f"args {kv.get('NumArgs', '?')}, trip {lkv.get('TripCount', '?')}, teams {kv.get('NumTeams', '?')}"


def transfers(rs):
    """The transfer sizes seen in a group's regions, e.g. 'h2d 8B, d2h 8B'."""
    seen = []
    for r in rs:
        for s in r["steps"]:
            if s["name"] in ("HostToDev", "DevToHost"):
                t = f"{STEP_NAMES[s['name']]} {_fields(s['detail'])[1].get('Size', '?')}"
                if t not in seen:
                    seen.append(t)
    return ", ".join(seen) or "no transfer seen"


def _covered(steps):
    """The time the steps cover, each instant once (a transfer can run inside the wait);
    steps come in start order (events() sorts them)."""
    top, end = 0.0, -1.0
    for s in steps:
        a, b = s["ts"], s["ts"] + s["dur"]
        if b > end:
            top += b - max(a, end)
            end = b
    return top


def summarize(evs, min_count=1):
    found, outside = regions(evs)
    groups = {}
    for r in found:
        groups.setdefault(signature(r), []).append(r)
    rows = []
    for sig, rs in groups.items():
        if len(rs) < min_count:
            continue
        row = {"region": sig, "transfers": transfers(rs), "count": len(rs), "first_ts_us": rs[0]["ts"],
               "median_us": statistics.median(r["dur"] for r in rs)}
        for step, col in STEP_NAMES.items():
            row[col + "_us"] = statistics.median(sum(s["dur"] for s in r["steps"] if s["name"] == step) for r in rs)
            row[col + "_count"] = statistics.median(sum(s["name"] == step for s in r["steps"]) for r in rs)
        row["other_us"] = statistics.median(max(0.0, r["dur"] - _covered(r["steps"])) for r in rs)
        rows.append(row)
    rows.sort(key=lambda x: x["first_ts_us"])
    calls = {}
    for e in outside:
        calls.setdefault(e["name"], []).append(e["dur"])
    api = [{"call": n, "count": len(d), "median_us": statistics.median(d), "total_us": sum(d)}
           for n, d in sorted(calls.items(), key=lambda kv: -sum(kv[1]))]
    return {"regions": rows, "outside": api}


def _step_cell(r, k):
    """A step's median microseconds, xN when a region has N of it, '-' when none is seen."""
    c = r[k + "_count"]
    return f"{r[k + '_us']:.1f}" + (f"x{c:g}" if c > 1 else "") if c else "-"


def text(s, name):
    out = [f"{name}: {sum(r['count'] for r in s['regions'])} target regions in {len(s['regions'])} groups "
           "(median microseconds per region; steps as libomptarget names them)"]
    hdr = f"{'count':>6} {'region':>9} {'h2d':>8} {'launch':>8} {'sync':>8} {'d2h':>8} {'other':>8}  what"
    out.append(hdr)
    for r in s["regions"]:
        cells = " ".join(f"{_step_cell(r, k):>8}" for k in ("h2d", "launch", "sync", "d2h"))
        out.append(f"{r['count']:>6} {r['median_us']:>9.1f} {cells} {r['other_us']:>8.1f}  {r['region']} ({r['transfers']})")
    if s["outside"]:
        out.append("outside regions (count, median us, total us):")
        for c in s["outside"]:
            out.append(f"{c['count']:>6} {c['median_us']:>9.1f} {c['total_us']:>10.0f}  {c['call']}")
    if not s["regions"]:
        out.append("no target region in this trace: was LIBOMPTARGET_PROFILE_GRANULARITY=1 set, "
                   "and did the program run one?")
    return "\n".join(out)


def profile_main(argv):
    p = cli.Parser(prog=PROG, description=__doc__.split("\n\n")[1],
                   formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("trace", help="the file LIBOMPTARGET_PROFILE named")
    p.add_argument("--json", help="also write the summary as JSON")
    p.add_argument("--min-count", type=int, default=1, help="leave out region groups seen fewer times (default 1)")
    try:
        a = p.parse_args(argv)
    except SystemExit as e:
        sys.exit(0 if e.code == 0 else 2)
    if a.min_count < 1:
        raise BadInput(f"--min-count {a.min_count}: expected 1 or more")
    doc = load_json(a.trace, "the trace", limit=LIMIT)
    s = summarize(events(doc, a.trace), a.min_count)
    print(text(s, a.trace))
    if a.json:
        write_json(a.json, {"schema": "proxyport-omp-profile-1", "trace": a.trace, **s}, "--json")
    return 0


def main(argv=None):
    cli.run(PROG, profile_main, argv)
