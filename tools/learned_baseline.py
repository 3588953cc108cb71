#!/usr/bin/env python3
"""A baseline learned cost model on a LightCode runtime dataset (docs/DATASET.md).

It shows what the dataset is for; it is not part of the simulator's pipeline.

  /usr/bin/python3 tools/learned_baseline.py results/dataset.h5
  /usr/bin/python3 tools/learned_baseline.py results/dataset.h5 --doc docs/DATASET.md
  /usr/bin/python3 tools/learned_baseline.py small.h5 --check

Model: scikit-learn's HistGradientBoostingRegressor, trained on the /ops records of the train
split's model families only. It learns an op's time per unit of work, log(1 + time_ps) -
log(1 + work) with work = FLOPs + operand and result bytes, rather than its time: trees cannot
extrapolate, and unseen families are larger than the seen ones, so a rate (which levels off for
large ops) carries over where a time would be capped at the largest op seen. Features are what is known about an op
once it is placed, before it is costed: its kind, dtype, fused-kernel class, the unit family
and algorithm it runs on, its arithmetic (FLOPs, MACs, product dimensions) and operand and
result sizes, and every numeric parameter of its unit (/hardware_parameters, joined by
hardware_id). Not features: anything the cost model computes (its bytes moved, its bound,
energy) and anything the schedule decides.

Graph makespan, composed from the predicted op times: every graph is replayed along its
recorded dependences (/edges, each with its transfer time from the transfer model) and its
recorded placement (the unit instance and the order each ran its tasks in): a task starts when
its inputs have arrived and its instance is free, and runs for its predicted time. With the
simulator's own op times this replay gives the recorded makespan exactly (checked: the
"oracle" row), so every error reported is the learned model's. For comparison, the makespan
also as the busiest unit instance's summed predicted time ("unit sum"), which ignores
dependences and transfers.

Errors are |predicted - simulated| / simulated graph makespan, per split, as they are: nothing
is tuned toward a figure. --check also verifies the splits are disjoint, the oracle replay is
exact and the fit deterministic. Exits 77 when scikit-learn (or numpy, pandas, h5py) is missing.
"""
import argparse
import os
import sys

# One thread: OpenMP spinning on a shared machine made a fit 8x slower, and a single thread
# makes the fit the same bit for bit on every machine. Set OMP_NUM_THREADS to override.
os.environ.setdefault("OMP_NUM_THREADS", "1")

try:
    import h5py
    import numpy as np
    import pandas as pd
    import sklearn
    from sklearn.ensemble import HistGradientBoostingRegressor
except ImportError as missing:  # Debian: apt-get install python3-sklearn python3-h5py python3-pandas
    print(f"SKIP: {missing} (apt-get install python3-sklearn python3-h5py python3-pandas)")
    sys.exit(77)

CATEGORICAL = ["kind", "dtype", "kernel_class", "fusion_rule", "hardware_family", "algorithm"]
NUMERIC = ["flops", "macs", "batch", "m", "n", "k", "inputs", "covers", "fused",
           "input_elements", "output_elements", "input_bytes", "output_bytes"]
SPLITS = ["train", "validation", "test"]
BEGIN, END = "<!-- learned-baseline:begin -->", "<!-- learned-baseline:end -->"


def text(frame):
    """Decodes the fixed-width text columns h5py reads as bytes."""
    for c in frame.columns:
        if frame[c].dtype == object:
            frame[c] = frame[c].str.decode("utf-8")
    return frame


def table(f, name, columns=None):
    data = f[name].fields(columns)[:] if columns else f[name][:]
    return text(pd.DataFrame(data))


def load(path):
    with h5py.File(path, "r") as f:
        if f.attrs.get("format") != "lightcode-dataset":
            sys.exit(f"{path}: not a LightCode dataset")
        attrs = {k: f.attrs[k] for k in f.attrs}
        ops = table(f, "ops", ["graph_id", "task", "hardware", "hardware_id", "instance", "time_ps", "start_ps",
                               "end_ps", "off_unit", "family", "split"] + CATEGORICAL + NUMERIC)
        edges = table(f, "edges", ["graph_id", "src", "dst", "transfer_ps"])
        graphs = table(f, "graphs", ["graph_id", "model", "family", "split", "stage", "system", "makespan_ps"])
        hardware = table(f, "hardware_parameters")
        families = table(f, "families")
    return attrs, ops, edges, graphs, hardware, families


def features(ops, hardware):
    """The feature matrix: categorical codes, log-scaled numbers and the units' parameters."""
    x = pd.DataFrame(index=ops.index)
    for c in CATEGORICAL:
        x[c] = pd.Categorical(ops[c], categories=sorted(ops[c].unique())).codes.astype(float)
    for c in NUMERIC:
        x[c] = np.log1p(ops[c].astype(float).clip(lower=0))
    numeric = hardware[np.isfinite(hardware["value"])]
    wide = numeric.pivot_table(index="hardware_id", columns="parameter", values="value", aggfunc="first")
    wide = np.sign(wide) * np.log1p(wide.abs())
    wide.columns = ["hw:" + c for c in wide.columns]
    x = x.join(ops[["hardware_id"]].join(wide, on="hardware_id").drop(columns="hardware_id"))
    return x, [c in CATEGORICAL for c in x.columns]


def work(ops):
    return (ops["flops"].astype(float) + ops["input_bytes"].astype(float) + ops["output_bytes"].astype(float)).to_numpy()


def target(ops):
    """What the model learns: log time per unit of work (see above)."""
    return np.log1p(ops["time_ps"].astype(float).to_numpy()) - np.log1p(work(ops))


def times(ops, predicted_target):
    return np.expm1(predicted_target + np.log1p(work(ops))).clip(min=0)


def fit(x, y, categorical):
    model = HistGradientBoostingRegressor(max_iter=200, categorical_features=np.array(categorical),
                                          early_stopping=False, random_state=0)
    return model.fit(x, y)


def replay(ops, edges, times):
    """Each graph's makespan with `times` (ps, per op row) along its recorded dependences,
    transfers and placement (instance and order); and its busiest instance's summed time."""
    ops = ops.assign(t=times)
    inputs = {g: e for g, e in edges.groupby("graph_id")}
    replayed, unit_sum = {}, {}
    for g, o in ops.groupby("graph_id"):
        n = len(o)
        t = o["t"].to_numpy(dtype=float)
        task = o["task"].to_numpy()
        # The recorded order: by start, then end (a zero-length task at t ran before the task
        # that started on its instance at t), then id.
        order = np.lexsort((task, o["end_ps"].to_numpy(), o["start_ps"].to_numpy()))
        arrivals = [[] for _ in range(n)]
        e = inputs.get(g)
        if e is not None:
            for s, d, tp in zip(e["src"].to_numpy(), e["dst"].to_numpy(), e["transfer_ps"].to_numpy(dtype=float)):
                arrivals[d].append((s, tp))
        units = list(zip(o["hardware"], o["instance"]))
        off = o["off_unit"].to_numpy()
        end = np.zeros(n)
        free, busy = {}, {}
        for i in order:
            ready = max((end[s] + tp for s, tp in arrivals[i]), default=0.0)
            start = ready if off[i] else max(ready, free.get(units[i], 0.0))
            end[i] = start + t[i]
            if not off[i]:
                free[units[i]] = end[i]
                busy[units[i]] = busy.get(units[i], 0.0) + t[i]
        replayed[g] = end.max() if n else 0.0
        unit_sum[g] = max(busy.values(), default=0.0)
    return pd.Series(replayed), pd.Series(unit_sum)


def relative(predicted, graphs):
    truth = graphs.set_index("graph_id")["makespan_ps"].astype(float)
    return (predicted.reindex(truth.index) - truth).abs() / truth


def evaluate(path):
    attrs, ops, edges, graphs, hardware, families = load(path)
    x, categorical = features(ops, hardware)
    y = target(ops)
    train = (ops["split"] == "train").to_numpy()
    if not train.any():
        sys.exit(f"{path}: no op record of a train family; nothing to learn from")
    model = fit(x[train], y[train], categorical)
    predicted = times(ops, model.predict(x))
    composed, unit_sum = replay(ops, edges, predicted)
    oracle, _ = replay(ops, edges, ops["time_ps"].astype(float).to_numpy())
    g = graphs.assign(error=relative(composed, graphs).to_numpy(), unit_sum_error=relative(unit_sum, graphs).to_numpy(),
                      oracle_error=relative(oracle, graphs).to_numpy())
    timed = ops["time_ps"] >= 1000  # ops of 1 ns or more: relative errors of free views mean nothing
    op_error = pd.Series(np.abs(predicted - ops["time_ps"]) / ops["time_ps"].clip(lower=1), index=ops.index)
    rows = []
    for split in SPLITS:
        sg = g[g["split"] == split]
        so = (ops["split"] == split) & timed
        rows.append({
            "split": split,
            "families": ", ".join(sorted(families.loc[families["split"] == split, "family"])) or "none",
            "graphs": len(sg),
            "ops": int((ops["split"] == split).sum()),
            "op_median": op_error[so].median() if so.any() else np.nan,
            "mean": sg["error"].mean() if len(sg) else np.nan,
            "median": sg["error"].median() if len(sg) else np.nan,
            "unit_sum_mean": sg["unit_sum_error"].mean() if len(sg) else np.nan,
            "oracle_max": sg["oracle_error"].max() if len(sg) else np.nan,
        })
    by_family = g.groupby(["split", "family", "system"])["error"].agg(["count", "mean", "median"]).reset_index()
    return dict(attrs=attrs, ops=ops, graphs=g, rows=rows, by_family=by_family, model=model, x=x, train=train,
                categorical=categorical, predicted=predicted, families=families)


def pct(v):
    return "n/a" if v != v else f"{100 * v:.1f} %"


def markdown(r, path):
    a = r["attrs"]
    lines = [
        f"Generated by `tools/learned_baseline.py` from `{path}` (scenario `{a['scenario_name']}`, digest "
        f"`{str(a['scenario_digest'])[:16]}`, {len(r['ops'])} op records, {len(r['graphs'])} graphs; "
        f"scikit-learn {sklearn.__version__}). The model is trained on the train split's op records only; "
        "errors are |predicted - simulated| / simulated graph makespan.",
        "",
        "| split | families | graphs | op records | op time, median error | makespan, mean error | makespan, median error | unit-sum makespan, mean error | oracle replay, max error |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in r["rows"]:
        lines.append(f"| {row['split']} | {row['families']} | {row['graphs']} | {row['ops']} | {pct(row['op_median'])} | "
                     f"{pct(row['mean'])} | {pct(row['median'])} | {pct(row['unit_sum_mean'])} | {pct(row['oracle_max'])} |")
    lines += ["", "Per family and system (replayed makespan):", "",
              "| split | family | system | graphs | mean error | median error |", "| --- | --- | --- | --- | --- | --- |"]
    order = {s: i for i, s in enumerate(SPLITS)}
    for _, f in sorted(r["by_family"].iterrows(),
                       key=lambda kv: (order.get(kv[1]["split"], 9), kv[1]["family"], kv[1]["system"])):
        lines.append(f"| {f['split']} | {f['family']} | {f['system']} | {int(f['count'])} | {pct(f['mean'])} | "
                     f"{pct(f['median'])} |")
    return "\n".join(lines) + "\n"


def replace_section(doc, body):
    with open(doc) as f:
        content = f.read()
    if BEGIN not in content or END not in content:
        sys.exit(f"{doc}: no {BEGIN} ... {END} section to replace")
    head, rest = content.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(doc, "w") as f:
        f.write(head + BEGIN + "\n" + body + END + tail)


def check(r):
    """The properties the test asks for; returns the problems."""
    problems = []
    fam = r["families"]
    if fam["family"].duplicated().any():
        problems.append("a family has two rows in /families")
    ops = r["ops"]
    per_family = ops.groupby("family")["split"].nunique()
    if (per_family > 1).any():
        problems.append(f"families in several splits: {list(per_family[per_family > 1].index)}")
    train_families = set(ops.loc[ops["split"] == "train", "family"])
    test_families = set(ops.loc[ops["split"] == "test", "family"])
    if train_families & test_families:
        problems.append(f"test families seen in training: {sorted(train_families & test_families)}")
    if not test_families:
        problems.append("no test family")
    oracle = max((row["oracle_max"] for row in r["rows"] if row["graphs"]), default=0.0)
    if not oracle <= 1e-9:
        problems.append(f"the replay with the simulator's op times is off by {oracle} (it should be exact)")
    again = times(ops, fit(r["x"][r["train"]], target(ops)[r["train"]], r["categorical"]).predict(r["x"]))
    if not np.array_equal(again, r["predicted"]):
        problems.append("two fits on the same data predict differently")
    for row in r["rows"]:
        if row["graphs"] and not np.isfinite(row["mean"]):
            problems.append(f"split {row['split']}: no finite error")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset", help="a dataset file (lightcode dataset ... --out FILE.h5)")
    parser.add_argument("--doc", help="replace the learned-baseline section of this Markdown file (docs/DATASET.md)")
    parser.add_argument("--markdown", help="write the section to this file")
    parser.add_argument("--check", action="store_true", help="verify splits, the exact replay and a deterministic fit")
    args = parser.parse_args()
    r = evaluate(args.dataset)
    md = markdown(r, args.dataset)
    print(md)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(md)
    if args.doc:
        replace_section(args.doc, md)
    if args.check:
        problems = check(r)
        for p in problems:
            print("FAIL:", p)
        if problems:
            return 1
        print("check: splits disjoint by family, replay exact, fit deterministic")
    return 0


if __name__ == "__main__":
    sys.exit(main())
