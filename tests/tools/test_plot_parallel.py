#!/usr/bin/python3
"""tools/plot.py's tp_scaling.png and tools/parallel_report.py on synthetic results files of
format 11 (tests/tools/synthetic_results.py's summary with the columns of several devices
added: tensor_parallel, pipeline_parallel, communication_s, group_energy_pj and the sweep
axis param.tensor_parallel).

  1. Llama-2-70B prefill and decode at 128 and 2048 tokens, TP 2/4/8, on two systems, one
     TP 1 point failed: exit 3, tp_scaling.png with 2 rows (prefill above decode) x 3 panels
     (6 axes, printed in the "tp scaling:" line); the latency lines hold the makespans (ms),
     the communication lines communication_s / makespan_s in %, the energy lines
     group_energy_pj in J, at x = 2, 4, 8 (the failed point left out); x is base-2 log
     with one tick per probed count; one legend entry per (system, sequence length);
  2. every point at one tensor_parallel value: tp_scaling.png skipped with a note;
  3. a format 6 file (no tensor_parallel column): skipped with a note, the other figures
     drawn as before;
  4. parallel_report.py: the section's heading, the predictions sentence and the regenerate
     commands; a table row per (tokens, TP) with ms (2-3 decimals), % (1 decimal) and J
     (3 significant figures) per system; the failed point listed; the 7B/13B table in
     natural model order; a file of format 10 exits 2.

Usage: test_plot_parallel.py [SOURCE_DIR]   (default: two levels above this file)
Exits 77 (ctest: skipped) with a SKIP message when h5py or matplotlib is missing.
"""
import io
import os
import subprocess
import sys
from contextlib import redirect_stdout

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# check(), run() (plot.py in this process, figures inspected) and the SKIP (exit 77) when
# h5py/matplotlib are missing
import test_plot_synthetic as base  # noqa: E402
from synthetic_results import point, summary_array, write_results  # noqa: E402
from test_plot_synthetic import check, check_png, run, run_cases  # noqa: E402

import h5py  # noqa: E402
import numpy as np  # noqa: E402

SYSTEMS = {"DGX-H100": 1.0, "DGX-A100": 1.8}  # name: how much slower than the H100
PARALLEL_FIELDS = [("tensor_parallel", "<i8"), ("pipeline_parallel", "<i8"),
                   ("communication_s", "<f8"), ("group_energy_pj", "<f8")]


def tp_point(system, stage, seq, tp, model="llama-2-70b", status="ok"):
    """A point of a TP sweep: its makespan falls with tp, communication grows with it; the
    fields of several devices kept in `params` under "_parallel" (written by write_tp)."""
    slow = SYSTEMS[system]
    base_s = (2e-5 * seq if stage == "prefill" else 0.03) * slow
    makespan = base_s * (0.6 + 0.8 / tp)
    comm = base_s * 0.05 * (tp.bit_length() - 1)  # 0.05 s of each base second per doubling
    energy = 1e12 * 10.0 * seq / 128 / tp
    p = point(system, seq, makespan if status == "ok" else 0.0, energy,
              {"system": "configs/systems/%s.yaml" % system.lower().replace("-", "_"),
               "stage": stage, "sequence_length": seq, "tensor_parallel": tp},
              status=status, error="" if status == "ok" else "does not fit: 138 GB > 80 GB",
              model=model, stage=stage)
    p["parallel"] = dict(tensor_parallel=tp, pipeline_parallel=1, communication_s=comm,
                         group_energy_pj=energy * tp * (1 + 0.05 * tp))
    return p


def write_tp(path, points, version=11):
    """A results file whose /summary has format 6's fields plus the columns of several
    devices (format 11), /points/<id> groups without tables (the figure reads none)."""
    s = summary_array(points, 6, fixed_strings=False)
    fields = [(n, s.dtype.fields[n][0]) for n in s.dtype.names]  # (h5py's string dtypes kept)
    dtype = np.dtype(fields[:15] + PARALLEL_FIELDS + fields[15:])
    out = np.zeros(len(points), dtype=dtype)
    for name in s.dtype.names:
        out[name] = s[name]
    for name, _ in PARALLEL_FIELDS:
        out[name] = [p["parallel"][name] for p in points]
    with h5py.File(path, "w") as f:
        f.attrs["format_version"] = np.int64(version)
        f.attrs["tool_version"] = "lightcode synthetic"
        f.create_dataset("summary", data=out)
    return path


def seventy_b_points():
    pts = [tp_point(sys_, stage, seq, tp) for sys_ in SYSTEMS for stage in ("prefill", "decode")
           for seq in (128, 2048) for tp in (2, 4, 8)]
    return pts + [tp_point("DGX-H100", "prefill", 128, 1, status="failed")]


def line_facts(fig):
    """[(axes title, x scale, x ticks, [(label, xs, ys)])] per axes, and the legend's labels."""
    axes = []
    for ax in fig.axes:
        lines = [(l.get_label(), list(map(float, l.get_xdata())), list(map(float, l.get_ydata())))
                 for l in ax.lines]
        axes.append((ax.get_title(), ax.get_xscale(), [float(t) for t in ax.get_xticks()], lines))
    legends = [t.get_text() for lg in fig.legends for t in lg.get_texts()]
    return axes, legends


def close(a, b):
    return len(a) == len(b) and all(abs(x - y) <= 1e-9 * max(1.0, abs(y)) for x, y in zip(a, b))


def case_tp_scaling(tmp):
    points = seventy_b_points()
    h5 = write_tp(os.path.join(tmp, "tp.h5"), points)
    out = os.path.join(tmp, "tp_plots")
    seen = run(h5, "--out", out, inspect=line_facts)
    check(seen.status == 3, "a failed TP 1 point: exit 3 (got %s)" % seen.status)
    check_png(os.path.join(out, "tp_scaling.png"), min_bytes=40 * 1024)
    check("tp scaling: 2 rows (stage x model) x latency, communication share, group energy "
          "= 6 axes" in seen.stdout, "2 rows (stage x model) x 3 panels printed")
    axes, legend = seen.get("tp_scaling.png", ([], []))
    check(len(axes) == 6, "6 axes (got %d)" % len(axes))
    if len(axes) != 6:
        return
    check(axes[0][0].startswith("prefill") and axes[3][0].startswith("decode"),
          "prefill row above the decode row (%s / %s)" % (axes[0][0], axes[3][0]))
    check(all(a[1] == "log" and a[2] == [2.0, 4.0, 8.0] for a in axes),
          "x: log, one tick per probed TP (2, 4, 8): the failed TP 1 point is left out")
    check(sorted(legend) == ["DGX-A100, 128", "DGX-A100, 2048", "DGX-H100, 128",
                             "DGX-H100, 2048"], "one legend entry per (system, seq): %s" % legend)
    want = {(p["stage"], p["system"], p["seq"]): [] for p in points if p["status"] == "ok"}
    for p in points:
        if p["status"] == "ok":
            want[(p["stage"], p["system"], p["seq"])].append(p)
    good = True
    for row, stage in ((0, "prefill"), (1, "decode")):
        for label, xs, ys in axes[3 * row][3]:
            system, seq = label.split(", ")
            pts = sorted(want[(stage, system, int(seq))], key=lambda p: p["parallel"]["tensor_parallel"])
            good &= xs == [2.0, 4.0, 8.0]
            good &= close(ys, [1e3 * p["makespan_s"] for p in pts])  # ms: every makespan < 1 s
            comm = [l for l in axes[3 * row + 1][3] if l[0] == label][0][2]
            good &= close(comm, [100 * p["parallel"]["communication_s"] / p["makespan_s"] for p in pts])
            energy = [l for l in axes[3 * row + 2][3] if l[0] == label][0][2]
            good &= close(energy, [p["parallel"]["group_energy_pj"] / 1e12 for p in pts])
    check(good, "latency (ms), communication share (%) and group energy (J) as stored")


def case_one_tp(tmp):
    points = [tp_point(s, "decode", 128, 4) for s in SYSTEMS]
    h5 = write_tp(os.path.join(tmp, "tp_one.h5"), points)
    seen = run(h5, "--out", os.path.join(tmp, "tp_one_plots"))
    check(seen.status == 0 and "tp_scaling.png" not in seen
          and "skip: tp_scaling.png: one tensor_parallel value (4)" in seen.stdout,
          "one tensor_parallel value: skipped with a note")


def case_old_format(tmp):
    points = [point(s, seq, 1e-3 * seq * k, 1e9 * seq, {"sequence_length": seq})
              for s, k in (("CPU/PHU", 1.0), ("GPU", 0.01)) for seq in (16, 64, 256)]
    h5 = write_results(os.path.join(tmp, "v6.h5"), points, version=6)
    out = os.path.join(tmp, "v6_plots")
    seen = run(h5, "--out", out)
    check(seen.status == 0 and "skip: tp_scaling.png: no tensor_parallel column" in seen.stdout,
          "format 6: tp_scaling.png skipped with a note")
    for name in ("hardware_comparison.png", "crossover.png"):
        check_png(os.path.join(out, name))


def report(*args):
    """tools/parallel_report.py's main in this process: (status, stdout)."""
    sys.path.insert(0, os.path.join(base.SRC, "tools"))
    import parallel_report
    buf = io.StringIO()
    with redirect_stdout(buf):
        code = parallel_report.main(list(args))
    return code, buf.getvalue()


def case_report(tmp):
    scaling = write_tp(os.path.join(tmp, "rep_scaling.h5"), seventy_b_points())
    decode = write_tp(os.path.join(tmp, "rep_decode.h5"), [
        tp_point(s, "decode", 512, tp, model=m) for m in ("llama-2-13b", "llama-2-7b")
        for s in SYSTEMS for tp in (1, 2, 4, 8)])
    code, md = report(scaling, decode)
    check(code == 0, "parallel_report: exit 0 (got %d)" % code)
    check(md.startswith("## Predictions: tensor parallelism (not validated here)"), "the heading")
    check("build/lightcode sweep scenarios/tp_scaling.yaml\nbuild/lightcode sweep "
          "scenarios/tp_decode.yaml" in md, "the regenerate commands")
    check("measurements that are not in this repository" in md, "the predictions sentence")
    # prefill, 128 tokens, TP 4: H100 2.56 ms x (0.6 + 0.8 / 4) = 2.048 ms, A100 1.8 times
    # that; communication 0.05 x 2 / 0.8 = 12.5 %; group energy 2.5 J x 4 x 1.2 = 12.0 J
    row = "| 128 | 4 | 2.048 | 12.5% | 12.0 | 3.686 | 12.5% | 12.0 |"
    check(row in md, "prefill 128 tokens TP 4 row: %s" % row)
    check("| 2048 | 8 |" in md and md.count("| 128 | 2 |") == 2,
          "a row per (tokens, TP) in the prefill and decode tables")
    check("Failed: llama-2-70b prefill 128 tokens, DGX H100 TP 1: does not fit" in md,
          "the failed point listed")
    i7, i13 = md.find("| llama-2-7b | 1 |"), md.find("| llama-2-13b | 1 |")
    check(0 < i7 < i13, "the 7B/13B table: 7B first, TP 1 included")
    from parallel_report import joules, ms
    check([ms(0.0067419), ms(0.035344), ms(0.65925)] == ["6.742", "35.34", "659.25"]
          and [joules(8.18e11), joules(1.4585e13), joules(4.8612e14), joules(1.83e15)]
          == ["0.818", "14.6", "486", "1830"], "ms with 2-3 decimals, J with 3 figures")
    old = write_tp(os.path.join(tmp, "rep_old.h5"), seventy_b_points(), version=10)
    p = subprocess.run([sys.executable, os.path.join(base.SRC, "tools", "parallel_report.py"),
                        scaling, old], capture_output=True, text=True)
    check(p.returncode == 2 and "format 11 or later" in p.stderr, "a format 10 file: exit 2")


def main():
    return run_cases((case_tp_scaling, case_one_tp, case_old_format, case_report),
                     "lc_plot_parallel_", "tensor-parallel plot and report")


if __name__ == "__main__":
    sys.exit(main())
