#!/usr/bin/python3
"""tools/plot.py on synthetic results files written here with h5py.

  1. a PHU sweep (/summary with param.phu.cores / param.phu.multiplex string columns,
     variable-length strings, one failed point): phu_scaling.png must be drawn;
  2. two systems over four sequence lengths that cross (fixed-width strings everywhere,
     point tables with tasks and an energy breakdown): crossover.png, gantt and energy;
  3. error cases: a missing file and an HDF5 file without /summary exit non-zero.

Usage: test_plot_synthetic.py [SOURCE_DIR]   (default: two levels above this file)
Exits 0 and prints a skip message when h5py or matplotlib is missing.
"""
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
    import matplotlib  # noqa: F401  (plot.py needs it)
except ImportError as e:
    print("SKIP: %s cannot import h5py/matplotlib: %s" % (sys.executable, e))
    sys.exit(0)

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
PLOT = os.path.join(SRC, "tools", "plot.py")
PNG_SIG = b"\x89PNG\r\n\x1a\n"
failures = []


def check(cond, msg):
    print(("ok   " if cond else "FAIL ") + msg)
    if not cond:
        failures.append(msg)


def check_png(path, min_bytes=10 * 1024):
    ok = os.path.isfile(path)
    size = os.path.getsize(path) if ok else 0
    sig = open(path, "rb").read(8) if ok else b""
    check(ok and size > min_bytes and sig == PNG_SIG,
          "%s exists, %d bytes > %d, PNG signature" % (os.path.basename(path), size, min_bytes))


def run(*args):
    p = subprocess.run([sys.executable, PLOT] + list(args), capture_output=True, text=True)
    sys.stdout.write("".join("    | %s\n" % l for l in (p.stdout + p.stderr).splitlines()))
    return p


def summary_dtype(strings, extra_params, fixed):
    """The /summary compound type: strings vlen (like lightcode writes) or fixed-width."""
    s = np.dtype("S32") if fixed else h5py.string_dtype("utf-8")
    fields = [("id", s), ("status", s), ("error", s), ("model", s), ("stage", s),
              ("sequence_length", "<i8"), ("system", s), ("objective", s), ("profile", s),
              ("fidelity", s), ("makespan_ps", "<i8"), ("makespan_s", "<f8"),
              ("analytical_makespan_ps", "<i8"), ("energy_pj", "<f8"), ("nodes", "<i8")]
    fields += [("param." + p, s) for p in extra_params]
    return np.dtype(fields)


def summary_rows(points, params, fixed):
    dt = summary_dtype(None, params, fixed)
    enc = (lambda v: str(v).encode()) if fixed else str
    rows = []
    for i, p in enumerate(points):
        ps = int(round(p["makespan_s"] * 1e12))
        row = (enc("p%04d" % i), enc(p.get("status", "ok")), enc(p.get("error", "")),
               enc("gpt2"), enc("prefill"), p["seq"], enc(p["system"]), enc("time"),
               enc("lightcode"), enc("analytical"), ps, p["makespan_s"], ps, p["energy_pj"],
               1108)
        row += tuple(enc(p["params"].get(k, "")) for k in params)
        rows.append(row)
    return np.array(rows, dtype=dt)


def write_points(f, n, fixed_tasks=True):
    """A small schedule and energy breakdown for every point."""
    tdt = np.dtype([("id", "<i8"), ("name", "S16"), ("op", "S10"), ("hardware", "S5"),
                    ("unit", "<i4"), ("node", "<i8"), ("subgraph", "<i4"), ("start_ps", "<i8"),
                    ("end_ps", "<i8"), ("energy_pj", "<f8"), ("inputs", "S8"),
                    ("outputs", "S12")])
    edt = np.dtype([("hardware", "S10"), ("category", "S13"), ("energy_pj", "<f8")])
    ops = [b"dense", b"matmul", b"softmax", b"add", b"memory"]
    hw = [(b"cpu", 0), (b"cpu", 1), (b"phu", 0), (b"hbm", 0)]
    for i in range(n):
        g = f.create_group("points/p%04d" % i)
        g.attrs["status"] = "ok"
        g.attrs["error"] = ""
        tasks, t = [], 0
        tasks.append((0, b"start0", b"start", b"start", 0, -1, 0, 0, 0, 0.0, b"", b"[]"))
        for k in range(400):
            h, u = hw[k % len(hw)]
            dur = 1000 + 37 * (k % 11)
            tasks.append((k + 1, b"n%d" % k, ops[k % len(ops)], h, u, k, 0, t, t + dur, 1.0,
                          b"", b"[1, 8]"))
            t += dur // 3
        g.create_dataset("tasks", data=np.array(tasks, dtype=tdt))
        e = [(b"cpu", b"compute", 3e9), (b"phu", b"compute", 1e9), (b"phu", b"conversion", 2e9),
             (b"hbm", b"memory", 4e9), (b"hbm->sram", b"data_movement", 1.5e9),
             (b"phu", b"static", 5e8)]
        g.create_dataset("energy_breakdown", data=np.array(e, dtype=edt))


def main():
    tmp = tempfile.mkdtemp(prefix="lc_plot_synth_")

    # 1. PHU scaling sweep: cores x multiplex on CPU/PHU, plus one failed point
    points = []
    for mux in (10, 20):
        for cores in (1, 2, 4, 8, 16):
            compute = 2.0 / (cores * mux)
            points.append(dict(system="CPU/PHU", seq=150, makespan_s=compute + 0.02,
                               energy_pj=4.5e10 + 1e9 * cores,
                               params={"phu.cores": cores, "phu.multiplex": mux}))
    points.append(dict(system="CPU/PHU", seq=150, makespan_s=0.0, energy_pj=0.0,
                       status="failed", error="synthetic failure",
                       params={"phu.cores": 32, "phu.multiplex": 20}))
    h5 = os.path.join(tmp, "phu.h5")
    with h5py.File(h5, "w") as f:
        f.attrs["format_version"] = 1
        f.create_dataset("summary", data=summary_rows(points, ["phu.cores", "phu.multiplex"],
                                                       fixed=False))
        write_points(f, len(points) - 1)
    p = run(h5, "--out", os.path.join(tmp, "phu_plots"))
    check(p.returncode == 0, "plot.py on the PHU sweep exits 0 (got %d)" % p.returncode)
    check_png(os.path.join(tmp, "phu_plots", "phu_scaling.png"))
    check("skip: hardware_comparison.png" in p.stdout, "one system: hardware comparison skipped")
    check_png(os.path.join(tmp, "phu_plots", "gantt_p0000.png"))

    # 2. two systems whose makespan crosses between 64 and 256 tokens; fixed-width strings
    points = []
    for seq in (16, 64, 256, 1024):
        points.append(dict(system="CPU/PHU", seq=seq, makespan_s=1e-3 * seq, energy_pj=1e9 * seq,
                           params={"sequence_length": seq}))
        points.append(dict(system="GPU", seq=seq, makespan_s=0.1 + 1e-5 * seq,
                           energy_pj=2e9 * seq, params={"sequence_length": seq}))
    h5 = os.path.join(tmp, "cross.h5")
    with h5py.File(h5, "w") as f:
        f.create_dataset("summary", data=summary_rows(points, ["sequence_length"], fixed=True))
        write_points(f, len(points))
    out = os.path.join(tmp, "cross_out")
    p = run(h5, "--out", out, "--point", "p0003")
    check(p.returncode == 0, "plot.py on the crossover file exits 0 (got %d)" % p.returncode)
    for name in ("crossover.png", "hardware_comparison.png", "gantt_p0003.png",
                 "energy_p0003.png"):
        check_png(os.path.join(out, name))
    check("crossover makespan: CPU/PHU -> GPU" in p.stdout, "the makespan crossover is reported")
    check("skip: phu_scaling.png" in p.stdout, "no cores column: PHU scaling skipped")
    # default output directory: <stem>_plots beside the file
    p = run(h5)
    check(p.returncode == 0 and os.path.isfile(os.path.join(tmp, "cross_plots", "crossover.png")),
          "default --out is <stem>_plots beside the file")

    # 3. errors
    p = run(os.path.join(tmp, "missing.h5"))
    check(p.returncode != 0 and "no such file" in p.stderr, "missing file: non-zero exit")
    bad = os.path.join(tmp, "bad.h5")
    with h5py.File(bad, "w") as f:
        f.create_dataset("other", data=np.arange(3))
    p = run(bad)
    check(p.returncode != 0 and "not a LightCode results file" in p.stderr,
          "no /summary: non-zero exit")
    p = run(h5, "--point", "nope")
    check(p.returncode != 0, "unknown --point: non-zero exit")
    p = run("--help")
    check(p.returncode == 0 and "phu_scaling.png" in p.stdout, "--help explains the plots")

    if failures:
        print("%d check(s) failed; files in %s" % (len(failures), tmp))
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    print("all synthetic plot checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
