#!/usr/bin/python3
"""Fits a serving engine's host time and the GPU's power during it to ML.ENERGY's measurements.

  /usr/bin/python3 tools/fit_serving_overheads.py CHAT.h5 CODE.h5 [--csv FILE]

CHAT.h5 and CODE.h5 are scenarios/mlenergy_chat.yaml and mlenergy_code.yaml run with
iteration_overhead and sequence_overhead 0 s and no overhead_power. With every request at time 0,
which sequences an iteration holds does not depend on how long iterations take, so the steady
state's time is exactly T0 + a * iterations + b * sequence-iterations for overheads a and b, and
its energy E0 + P * (a * iterations + b * sequence-iterations) for the power P drawn meanwhile.
This fits a and b (least squares on the relative error of time per output token, both >= 0) for
each GPU and task (each GPU ran on its own host, AWS p4d and p5; the tasks reach vLLM by
different APIs and sample differently: chat at temperature 0.8 and top-p 0.95, code greedily),
then P for each GPU (least squares on the relative error of energy per output token), and
prints them with the errors they give. Put the printed values into the two scenarios. Needs
numpy and h5py.
"""
import argparse
import sys

import numpy as np

from mlenergy_rows import DEFAULT_CSV, matched, measured_rows, simulated_points


def fit(pairs):
    """(a, b) >= 0 minimising the relative error of time per token."""
    A = np.array([[p["iterations"] / p["tokens"] * r["throughput"],
                   p["sequence_iterations"] / p["tokens"] * r["throughput"]] for r, p in pairs])
    y = np.array([1.0 - p["time_s"] / p["tokens"] * r["throughput"] for r, p in pairs])
    best = None
    for cols in ([0, 1], [0], [1]):
        x, *_ = np.linalg.lstsq(A[:, cols], y, rcond=None)
        if (x < 0).any():
            continue
        full = np.zeros(2)
        full[cols] = x
        err = float(((A @ full - y) ** 2).sum())
        if best is None or err < best[1]:
            best = (full, err)
    return best[0] if best else np.zeros(2)


def predict(r, p, a, b, power):
    extra = a * p["iterations"] + b * p["sequence_iterations"]
    t = p["time_s"] + extra
    e = p["energy_j"] + power * extra
    return {"time_per_token": t / p["tokens"], "energy_per_token": e / p["tokens"], "power": e / t}


def fit_power(items):
    """P >= static minimising the relative error of energy per token; items: (row, point, a, b)."""
    A = np.array([(a * p["iterations"] + b * p["sequence_iterations"]) / p["tokens"] / r["energy_per_token_j"]
                  for r, p, a, b in items])
    y = np.array([1.0 - p["energy_j"] / p["tokens"] / r["energy_per_token_j"] for r, p, a, b in items])
    extra = float(A @ y / (A @ A)) if (A @ A) > 0 else 0.0  # power above the static, fitted
    static = items[0][1]["static_w"]
    return static + max(0.0, extra - static)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--csv", default=DEFAULT_CSV)
    a = ap.parse_args(argv)
    pairs = matched(measured_rows(a.csv), simulated_points(a.files))
    for system in sorted({r["system"] for r, _ in pairs}):
        items = []
        for task in sorted({r["task"] for r, _ in pairs}):
            mine = [(r, p) for r, p in pairs if r["system"] == system and r["task"] == task]
            if not mine:
                continue
            ia, ib = fit(mine)
            print(f"{system} {task}: iteration_overhead {ia * 1e3:.3f} ms, sequence_overhead {ib * 1e6:.1f} us "
                  f"({len(mine)} rows)")
            items += [(r, p, ia, ib) for r, p in mine]
        power = fit_power(items)
        print(f"{system}: overhead_power {power:.1f} W (static {items[0][1]['static_w']:.1f} W)")
        for r, p, ia, ib in items:
            q = predict(r, p, ia, ib, power)
            et = q["time_per_token"] * r["throughput"] - 1
            ee = q["energy_per_token"] / r["energy_per_token_j"] - 1
            ep = q["power"] / r["power_w"] - 1
            print(f"  {r['model']:14s} {r['max_batch']:5d}  time/token {100 * et:+6.1f} %  energy/token "
                  f"{100 * ee:+6.1f} %  power {100 * ep:+6.1f} %  ({q['power']:.0f} W vs {r['power_w']:.0f} W)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
