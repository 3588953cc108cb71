"""Synthetic LightCode results files for the tools tests, written with h5py in the layout of
sim/results/hdf5_file.hpp, in either format:

  version 1   every sweep parameter a string: /summary column "param.<name>" (variable-
              length, "" where a point lacks it), string attributes on /points/<id>
  version 2   parameters typed: a column is int64 when every point's value is an int, float64
              when every present value is a number (NaN where a point lacks it), else a
              variable-length string ("" where missing); attributes int64 / float64 / string
              by each point's own value

  version 5   as 2, plus energy_per_token_pj and stage serve's summary fields (requests ..
              preemptions; zero or "" on other stages' points) and, for a serve point
              (serve_point()), its `requests` and `serve_series` tables
  version 6   as 5, but the numeric summary fields that do not apply to a point's stage are
              float64 and NaN there (not_applicable()): a serve point's sequence_length and
              nodes, another stage's energy_per_token_pj and serve figures (dispatch, a
              string, stays "")

Other strings: variable-length in /summary (fixed-width with fixed_strings=True, which the
readers must accept too), fixed-width NUL-padded in the per-point tables; h5py reads both
as bytes. A point is a dict made by point(); its tables are small but well-formed (failed
points get empty tables, as the C++ writer gives them).
"""
import heapq
import math
import random

import h5py
import numpy as np

# The /summary fields before the parameters (a prefix of PointSummary's, in file order).
SUMMARY_FIELDS = [("id", "s"), ("status", "s"), ("error", "s"), ("model", "s"), ("stage", "s"),
                  ("sequence_length", "<i8"), ("system", "s"), ("objective", "s"),
                  ("profile", "s"), ("fidelity", "s"), ("makespan_ps", "<i8"),
                  ("analytical_makespan_ps", "<i8"), ("makespan_s", "<f8"),
                  ("energy_pj", "<f8"), ("nodes", "<i8")]
# Format 5's fields of stage serve, written after those (the C++ writer has others between).
SERVE_FIELDS = [("energy_per_token_pj", "<f8"), ("requests", "<i8"), ("replicas", "<i8"),
                ("dispatch", "s"), ("arrival_rate_per_s", "<f8"), ("iterations", "<i8"),
                ("iteration_graphs", "<i8"),
                ("output_tokens", "<i8"), ("ttft_p50_s", "<f8"), ("ttft_p90_s", "<f8"),
                ("ttft_p99_s", "<f8"), ("tpot_p50_s", "<f8"), ("tpot_p90_s", "<f8"),
                ("tpot_p99_s", "<f8"), ("latency_p50_s", "<f8"), ("latency_p90_s", "<f8"),
                ("latency_p99_s", "<f8"), ("throughput_tokens_per_s", "<f8"),
                ("goodput_requests_per_s", "<f8"), ("preemptions", "<i8")]


# Format 6: the fields that do not apply to a stage (NaN there), the rest apply everywhere.
MODEL_PASS_FIELDS = {"sequence_length", "nodes"}  # one model pass: not a serve point's
SERVE_ONLY_FIELDS = {f for f, t in SERVE_FIELDS if t != "s"}  # serve figures, per token energy


def not_applicable(field, stage):
    """True when the summary field does not apply to a point of `stage` (format 6: NaN)."""
    if stage == "serve":
        return field in MODEL_PASS_FIELDS
    return field in SERVE_ONLY_FIELDS


def point(system, seq, makespan_s, energy_pj, params=None, status="ok", error="",
          objective="time", model="gpt2", stage="prefill", serve=None, tables=None):
    """One point's summary; `params` {name: int | float | str} in sweep-axis order; `serve`
    {SERVE_FIELDS name: value}, `tables` a serve point's {"requests", "serve_series": array}."""
    return dict(system=system, seq=seq, makespan_s=makespan_s, energy_pj=energy_pj,
                params=dict(params or {}), status=status, error=error, objective=objective,
                model=model, stage=stage, serve=dict(serve or {}), tables=dict(tables or {}))


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
    serve_fields = SERVE_FIELDS if version >= 5 else []
    nan_fields = MODEL_PASS_FIELDS | SERVE_ONLY_FIELDS if version >= 6 else set()
    dtype = [(f, s if t == "s" else "<f8" if f in nan_fields else t)
             for f, t in SUMMARY_FIELDS + serve_fields]
    dtype += [("param." + n, {"int": "<i8", "float": "<f8", "str": s}[kinds[n]]) for n in names]
    rows = []
    for i, p in enumerate(points):
        ps = int(round(p["makespan_s"] * 1e12))
        row = (enc(point_id(i)), enc(p["status"]), enc(p["error"]), enc(p["model"]),
               enc(p["stage"]), p["seq"], enc(p["system"]), enc(p["objective"]),
               enc("lightcode"), enc("analytical"), ps, ps, p["makespan_s"], p["energy_pj"],
               1108)
        row += tuple(enc(p["serve"].get(f, "")) if t == "s" else p["serve"].get(f, 0)
                     for f, t in serve_fields)
        if nan_fields:
            row = tuple(math.nan if f in nan_fields and not_applicable(f, p["stage"]) else v
                        for (f, _), v in zip(SUMMARY_FIELDS + serve_fields, row))
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


REQUEST_DTYPE = np.dtype([("id", "<i8"), ("replica", "<i4"), ("prompt_tokens", "<i8"),
                          ("output_tokens", "<i8"), ("arrival_ps", "<i8"),
                          ("first_service_ps", "<i8"), ("first_token_ps", "<i8"),
                          ("finish_ps", "<i8"), ("ttft_s", "<f8"), ("tpot_s", "<f8"),
                          ("latency_s", "<f8"), ("preemptions", "<i8")])
SERVE_SAMPLE_DTYPE = np.dtype([("replica", "<i4"), ("time_ps", "<i8"), ("queue", "<i8"),
                               ("running", "<i8")])

# The synthetic serving model: each replica runs up to BATCH sequences at once, admitted in
# arrival order; a prefill costs PREFILL_S per prompt token, then each output token TPOT_S
# times (1 + TPOT_LOAD per other running sequence). Power: STATIC_W per replica over the
# run, plus dynamic energy per prompt and output token.
BATCH, PREFILL_S, TPOT_S, TPOT_LOAD = 32, 2e-5, 0.012, 0.03
STATIC_W, PROMPT_J, OUTPUT_J = 300.0, 0.005, 0.1
SLO_TTFT_S, SLO_TPOT_S = 0.5, 0.03
SERVE_SEED = 20261203


def arrivals(rate, n, seed):
    """n requests (arrival s, prompt tokens, output tokens): Poisson arrivals at `rate` per
    second, lognormal lengths (median 256 prompt, 96 output tokens), from random.Random(seed)
    (the same gaps, scaled, and the same lengths at every rate)."""
    rng = random.Random(seed)
    t, out = 0.0, []
    for _ in range(n):
        t += rng.expovariate(1.0) / rate
        prompt = min(4096, max(8, int(round(rng.lognormvariate(math.log(256), 0.8)))))
        output = min(1024, max(1, int(round(rng.lognormvariate(math.log(96), 0.9)))))
        out.append((t, prompt, output))
    return out


def choose_replica(policy, i, prompt, outstanding, replicas):
    """The replica a request goes to: round_robin in turn, least_outstanding_tokens the one
    with the fewest unfinished tokens (ties: lowest), prompt_length 0 up to 512 tokens, else 1."""
    if policy == "round_robin":
        return i % replicas
    if policy == "least_outstanding_tokens":
        return min(range(replicas), key=lambda r: (outstanding[r], r))
    return 0 if prompt <= 512 else 1 % replicas


def ps(seconds):
    return int(round(seconds * 1e12))


def serve_run(policy, rate, n, replicas, seed, speed=1.0):
    """The requests (REQUEST_DTYPE) and serve_series (SERVE_SAMPLE_DTYPE) of one run on
    replicas `speed` times as fast as the model's (prefill and token times divided by it)."""
    slots = [[0] * BATCH for _ in range(replicas)]  # heaps of the times (ps) slots free up
    dispatched = [[] for _ in range(replicas)]  # (finish ps, tokens) per replica
    rows, events = [], [[] for _ in range(replicas)]
    for i, (arrival_s, prompt, output) in enumerate(arrivals(rate, n, seed)):
        arrival = ps(arrival_s)
        outstanding = [sum(k for fin, k in d if fin > arrival) for d in dispatched]
        r = choose_replica(policy, i, prompt, outstanding, replicas)
        start = max(arrival, heapq.heappop(slots[r]))
        running = sum(1 for free in slots[r] if free > start)
        first_token = start + ps((PREFILL_S * prompt + TPOT_S) / speed)
        tpot = TPOT_S / speed * (1 + TPOT_LOAD * running)
        finish = first_token + ps(tpot * (output - 1))
        heapq.heappush(slots[r], finish)
        dispatched[r].append((finish, prompt + output))
        events[r] += [(arrival, 1, 0), (start, -1, 1), (finish, 0, -1)]
        tpot_s = (finish - first_token) / 1e12 / (output - 1) if output > 1 else 0.0
        rows.append((i, r, prompt, output, arrival, start, first_token, finish,
                     (first_token - arrival) / 1e12, tpot_s, (finish - arrival) / 1e12, 0))
    samples = []
    for r, evs in enumerate(events):
        queue = run = 0
        evs.sort()
        for k, (t, dq, dr) in enumerate(evs):
            queue, run = queue + dq, run + dr
            last = samples[-1][2:] if samples and samples[-1][0] == r else (0, 0)
            # one sample per time at which the replica's counts changed
            if (k + 1 == len(evs) or evs[k + 1][0] != t) and (queue, run) != last:
                samples.append((r, t, queue, run))
    return np.array(rows, dtype=REQUEST_DTYPE), np.array(samples, dtype=SERVE_SAMPLE_DTYPE)


def nearest_rank(values, p):
    """The ceil(p/100 n)-th smallest value (the simulator's percentiles)."""
    xs = sorted(values)
    return xs[max(1, math.ceil(p / 100.0 * len(xs))) - 1]


def serve_point(dispatch, rate, system="H100", model="llama-2-7b", params=None, n=200,
                replicas=2, seed=SERVE_SEED, speed=1.0):
    """A serve point: n requests at `rate` per second on `replicas` replicas dispatched by
    `dispatch`, run through the synthetic serving model (`speed` as in serve_run: another
    system), its summary figures derived from its requests as the simulator derives them
    (but `iterations`, a stand-in: the model has no iterations). `params` default: dispatch
    and arrival_rate."""
    requests, series = serve_run(dispatch, rate, n, replicas, seed, speed)
    run_s = int(requests["finish_ps"].max()) / 1e12
    tokens = int(requests["output_tokens"].sum())
    energy = 1e12 * (STATIC_W * replicas * run_s + OUTPUT_J * tokens
                     + PROMPT_J * int(requests["prompt_tokens"].sum()))
    good = int(np.sum((requests["ttft_s"] <= SLO_TTFT_S) & (requests["tpot_s"] <= SLO_TPOT_S)))
    serve = dict(energy_per_token_pj=energy / tokens, requests=n, replicas=replicas,
                 dispatch=dispatch, arrival_rate_per_s=float(rate),
                 iterations=int(tokens / BATCH * 1.5), iteration_graphs=0, output_tokens=tokens,
                 throughput_tokens_per_s=tokens / run_s, goodput_requests_per_s=good / run_s,
                 preemptions=0)
    for m in ("ttft", "tpot", "latency"):
        for q in (50, 90, 99):
            serve["%s_p%d_s" % (m, q)] = nearest_rank(requests["%s_s" % m].tolist(), q)
    return point(system, 0, run_s, energy, params if params is not None else
                 {"dispatch": dispatch, "arrival_rate": rate}, model=model, stage="serve",
                 serve=serve, tables={"requests": requests, "serve_series": series})


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
        if p["stage"] == "serve":  # as the C++ writer: a failed serve point's are empty
            for name, dtype in (("requests", REQUEST_DTYPE), ("serve_series", SERVE_SAMPLE_DTYPE)):
                g.create_dataset(name, data=p["tables"].get(name, np.zeros(0, dtype)))


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
