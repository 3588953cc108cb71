"""Synthetic LightCode results files for the tools tests, written with h5py in the layout of
sim/results/hdf5_file.hpp, in either format:

  version 1   every sweep parameter a string: /summary column "param.<name>" (variable-
              length, "" where a point lacks it), string attributes on /points/<id>
  version 2   parameters typed: a column is int64 when every point's value is an int, float64
              when every present value is a number (NaN where a point lacks it), else a
              variable-length string ("" where missing); attributes int64 / float64 / string
              by each point's own value

Other strings: variable-length in /summary (fixed-width with fixed_strings=True, which the
readers must accept too), fixed-width NUL-padded in the per-point tables; h5py reads both
as bytes. A point is a dict made by point(); its tables are small but well-formed (failed
points get empty tables, as the C++ writer gives them).
"""
import math

import h5py
import numpy as np

# The /summary fields before the parameters (a prefix of PointSummary's, in file order).
SUMMARY_FIELDS = [("id", "s"), ("status", "s"), ("error", "s"), ("model", "s"), ("stage", "s"),
                  ("sequence_length", "<i8"), ("system", "s"), ("objective", "s"),
                  ("profile", "s"), ("fidelity", "s"), ("makespan_ps", "<i8"),
                  ("analytical_makespan_ps", "<i8"), ("makespan_s", "<f8"),
                  ("energy_pj", "<f8"), ("nodes", "<i8")]


def point(system, seq, makespan_s, energy_pj, params=None, status="ok", error="",
          objective="time", model="gpt2"):
    """One point's summary; `params` {name: int | float | str} in sweep-axis order."""
    return dict(system=system, seq=seq, makespan_s=makespan_s, energy_pj=energy_pj,
                params=dict(params or {}), status=status, error=error, objective=objective,
                model=model)


def is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def is_number(v):
    return is_int(v) or isinstance(v, (float, np.floating))


def param_kind(values, version):
    """"int", "float" or "str": how a parameter column is stored (None = point lacks it)."""
    if version < 2:
        return "str"
    present = [v for v in values if v is not None]
    if present and len(present) == len(values) and all(is_int(v) for v in present):
        return "int"
    if present and all(is_number(v) for v in present):
        return "float"
    return "str"


def param_cell(v, kind):
    if kind == "int":
        return int(v)
    if kind == "float":
        return float(v) if v is not None else math.nan
    return "" if v is None else str(v)


def parameter_names(points):
    names = []
    for p in points:
        names += [k for k in p["params"] if k not in names]
    return names


def summary_array(points, version, fixed_strings):
    """The /summary rows as a numpy structured array."""
    s = np.dtype("S64") if fixed_strings else h5py.string_dtype("utf-8")
    enc = (lambda v: str(v).encode()) if fixed_strings else str
    names = parameter_names(points)
    kinds = {n: param_kind([p["params"].get(n) for p in points], version) for n in names}
    dtype = [(f, s if t == "s" else t) for f, t in SUMMARY_FIELDS]
    dtype += [("param." + n, {"int": "<i8", "float": "<f8", "str": s}[kinds[n]]) for n in names]
    rows = []
    for i, p in enumerate(points):
        ps = int(round(p["makespan_s"] * 1e12))
        row = (enc(point_id(i)), enc(p["status"]), enc(p["error"]), enc(p["model"]),
               enc("prefill"), p["seq"], enc(p["system"]), enc(p["objective"]),
               enc("lightcode"), enc("analytical"), ps, ps, p["makespan_s"], p["energy_pj"],
               1108)
        cells = [param_cell(p["params"].get(n), kinds[n]) for n in names]
        row += tuple(enc(c) if kinds[n] == "str" else c for n, c in zip(names, cells))
        rows.append(row)
    return np.array(rows, dtype=np.dtype(dtype))


def point_id(i):
    return "p%04d" % i


TASK_DTYPE = np.dtype([("id", "<i8"), ("name", "S16"), ("op", "S10"), ("hardware", "S5"),
                       ("unit", "<i4"), ("node", "<i8"), ("subgraph", "<i4"),
                       ("start_ps", "<i8"), ("end_ps", "<i8"), ("energy_pj", "<f8"),
                       ("inputs", "S8"), ("outputs", "S12")])
UNIT_DTYPE = np.dtype([("name", "S9"), ("kind", "S4"), ("index", "<i4"), ("busy_ps", "<i8"),
                       ("utilisation", "<f8"), ("energy_pj", "<f8"),
                       ("static_energy_pj", "<f8"), ("tasks", "<i8"), ("bytes", "<i8"),
                       ("queue_delay_ps", "<i8"), ("conversion_ps", "<i8")])
ENERGY_DTYPE = np.dtype([("hardware", "S10"), ("category", "S13"), ("energy_pj", "<f8")])
MEMORY_DTYPE = np.dtype([("time_ps", "<i8"), ("sram_bytes", "<i8"), ("hbm_bytes", "<i8")])


def tasks_array(n_tasks=400):
    """A start node then n_tasks tasks over 2 CPU cores, a PHU and HBM, overlapping."""
    ops = [b"dense", b"matmul", b"softmax", b"add", b"memory"]
    hw = [(b"cpu", 0), (b"cpu", 1), (b"phu", 0), (b"hbm", 0)]
    rows, t = [(0, b"start0", b"start", b"start", 0, -1, 0, 0, 0, 0.0, b"", b"[]")], 0
    for k in range(n_tasks):
        h, u = hw[k % len(hw)]
        dur = 1000 + 37 * (k % 11)
        rows.append((k + 1, b"n%d" % k, ops[k % len(ops)], h, u, k, 0, t, t + dur, 1.0,
                     b"", b"[1, 8]"))
        t += dur // 3
    return np.array(rows, dtype=TASK_DTYPE)


def units_array():
    return np.array([(b"cpu", b"unit", 0, 5000, 0.5, 3e9, 0.0, 100, 0, 0, 0),
                     (b"phu", b"unit", 0, 7000, 0.7, 1e9, 5e8, 50, 0, 0, 2000),
                     (b"sram->cpu", b"link", 0, 300, 0.03, 2e8, 0.0, 80, 4096, 120, 0)],
                    dtype=UNIT_DTYPE)


def energy_array():
    return np.array([(b"cpu", b"compute", 3e9), (b"phu", b"compute", 1e9),
                     (b"phu", b"conversion", 2e9), (b"hbm", b"memory", 4e9),
                     (b"hbm->sram", b"data_movement", 1.5e9), (b"phu", b"static", 5e8)],
                    dtype=ENERGY_DTYPE)


def attribute(v, version):
    """A parameter attribute: format 2 keeps ints and floats numeric, format 1 writes text."""
    if version >= 2 and is_int(v):
        return np.int64(v)
    if version >= 2 and is_number(v):
        return np.float64(v)
    return str(v)


def write_points(f, points, summary, version):
    """/points/<id> for every point: attributes, a 1-row summary and the four tables."""
    for i, p in enumerate(points):
        g = f.create_group("points/" + point_id(i))
        g.attrs["status"] = p["status"]
        g.attrs["error"] = p["error"]
        for k, v in p["params"].items():
            g.attrs[k] = attribute(v, version)
        g.create_dataset("summary", data=summary[i:i + 1])
        ok = p["status"] == "ok"
        g.create_dataset("tasks", data=tasks_array() if ok else np.zeros(0, TASK_DTYPE))
        g.create_dataset("units", data=units_array() if ok else np.zeros(0, UNIT_DTYPE))
        g.create_dataset("energy_breakdown",
                         data=energy_array() if ok else np.zeros(0, ENERGY_DTYPE))
        g.create_dataset("memory_profile",
                         data=np.array([(0, 10, 20), (1000, 30, 20)], dtype=MEMORY_DTYPE))


def write_results(path, points, version=2, fixed_strings=False, point_tables=True):
    """A results file at `path` with `points` (from point()) in order, ids p0000, p0001, ...
    version None writes no format_version attribute (as files from before it existed)."""
    summary = summary_array(points, version or 1, fixed_strings)
    with h5py.File(path, "w") as f:
        if version is not None:
            f.attrs["format_version"] = np.int64(version)
        f.attrs["tool_version"] = "lightcode synthetic"
        f.create_dataset("summary", data=summary)
        if point_tables:
            write_points(f, points, summary, version or 1)
    return path
