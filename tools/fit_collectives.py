#!/usr/bin/python3
"""Fit the collective cost model's constants (hw_models/interconnect/interconnect_fit.hpp) to
measured NCCL times.

  /usr/bin/python3 tools/fit_collectives.py [--reference CSV] [--hardware configs/hardware]

A transcription of hw_models/interconnect/collective_cost.cpp (and the algorithms and protocols
of collective_algorithms.cpp) over every row of the reference
(../shared/reference/network/vidur_h100_collectives.csv): each row's time is the least over the
algorithms that run it and the three protocols of
  base[alg] + steps x (latency + step_overhead[transport] + step[protocol])
  + bytes x traffic / (bandwidth x fraction[transport] x fraction[alg] x wire[protocol] x throughput[protocol]).
The hardware keys (bandwidth, latency, topology, transport, in_network_reduction) are read from
the interconnect files the validation uses for each configuration. The objective is the mean
|relative error| with each configuration weighted equally; fractions are kept in (0, 1) and
times positive; Powell, then Nelder-Mead, three rounds from a fixed start (deterministic).
Prints the constants and the per-configuration mean |error| from 1 MB up and below. The shipped
constants are these, rounded to three figures; `lightcode validate-collectives` measures the
C++ model's errors with them. Needs numpy, scipy, pandas and PyYAML (Debian packages).
"""
import argparse
import math
import os
import re

import numpy as np
import pandas as pd
import yaml
from scipy.optimize import minimize

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_REFERENCE = os.path.join(HERE, "..", "..", "shared", "reference", "network", "vidur_h100_collectives.csv")
WIRE = np.array([0.5, 120.0 / 128.0, 1.0])  # LL, LL128, Simple (collective_algorithms.hpp)
TRANSPORTS = ["nvlink", "pcie", "network"]
RING, TREE, NVLS, P2P = range(4)
UNITS = {"GB/s": 1e9, "Gb/s": 1e9 / 8, "MB/s": 1e6, "us": 1e-6, "ns": 1e-9, "ms": 1e-3, "s": 1.0}
# Fitted constants, in order; fractions are in (0, 1), the rest positive times.
NAMES = ["ll_throughput", "ll128_throughput", "ring_base", "nvls_base", "p2p_base", "ll_step", "ll128_step_extra",
         "simple_step_extra", "pcie_overhead", "network_overhead", "nvlink_fraction", "pcie_fraction",
         "network_fraction", "ring_fraction", "nvls_fraction"]
FRACTIONS = {"ll_throughput", "ll128_throughput", "nvlink_fraction", "pcie_fraction", "network_fraction",
             "ring_fraction", "nvls_fraction"}
START = [0.3, 0.9, 20e-6, 20e-6, 5e-6, 0.3e-6, 0.5e-6, 1e-6, 2e-6, 10e-6, 0.8, 0.8, 0.7, 0.9, 0.7]


def quantity(text):
    m = re.fullmatch(r"\s*([0-9.eE+-]+)\s*(\S+)\s*", str(text))
    return float(m.group(1)) * UNITS[m.group(2)]


def hardware_of(row):
    """The interconnect file of a reference row: as sim/validate/collective_validation.cpp."""
    if row.topology == "dgx":
        return "infiniband_ndr" if row.scope == "inter-node" else "nvlink4_nvswitch"
    return "nvlink4_pairwise_bridge" if row.num_workers == 2 else "pcie5_x16"


def candidates(kind, n, spec):
    """(algorithm, steps, traffic per byte) of the algorithms that run `kind` on `spec`."""
    if kind == "send_recv":
        return [(P2P, 1, 1.0)]
    out = [(RING, 2 * (n - 1), 2.0 * (n - 1) / n)]
    if spec["topology"] != "ring":
        out.append((TREE, 2 * math.ceil(math.log2(n)), 2.0))
    if spec["topology"] == "switch" and spec.get("in_network_reduction", False):
        out.append((NVLS, 2, (n + 1.0) / n))
    return out


class Data:
    def __init__(self, reference, hardware):
        d = pd.read_csv(reference, comment="#")
        specs = {}
        for stem in {hardware_of(r) for r in d.itertuples()}:
            with open(os.path.join(hardware, stem + ".yaml")) as f:
                specs[stem] = yaml.safe_load(f)
        n = len(d)
        self.alg = np.full((n, 3), -1)
        self.steps = np.zeros((n, 3))
        self.traffic = np.ones((n, 3))
        self.bandwidth = np.zeros(n)
        self.latency = np.zeros(n)
        self.transport = np.zeros(n, int)
        for i, r in enumerate(d.itertuples()):
            spec = specs[hardware_of(r)]
            self.bandwidth[i] = quantity(spec["bandwidth"])
            self.latency[i] = quantity(spec["latency"])
            self.transport[i] = TRANSPORTS.index(spec["transport"])
            for j, (a, s, t) in enumerate(candidates(r.collective, r.num_workers, spec)):
                self.alg[i, j], self.steps[i, j], self.traffic[i, j] = a, s, t
        self.size = d.size_bytes.values.astype(float)
        self.measured = d.time_ms_median.values * 1e-3
        keys = list(zip(d.topology, d.collective, d.num_workers, d.scope))
        self.configurations = sorted(set(keys))
        self.config = np.array([self.configurations.index(k) for k in keys])
        counts = np.bincount(self.config)
        self.weight = 1.0 / counts[self.config] / len(counts)

    def predict(self, p):
        step = np.array([p["ll_step"], p["ll_step"] + p["ll128_step_extra"],
                         p["ll_step"] + p["ll128_step_extra"] + p["simple_step_extra"]])
        rate = WIRE * np.array([p["ll_throughput"], p["ll128_throughput"], 1.0])
        overhead = np.array([0.0, p["pcie_overhead"], p["network_overhead"]])[self.transport]
        transport = np.array([p["nvlink_fraction"], p["pcie_fraction"], p["network_fraction"]])[self.transport]
        base = np.array([p["ring_base"], p["ring_base"], p["nvls_base"], p["p2p_base"]])  # tree = ring
        fraction = np.array([p["ring_fraction"], p["ring_fraction"], p["nvls_fraction"], 1.0])
        best = np.full(len(self.size), np.inf)
        for j in range(3):
            valid = self.alg[:, j] >= 0
            a = np.where(valid, self.alg[:, j], 0)
            for k in range(3):
                t = (base[a] + self.steps[:, j] * (self.latency + overhead + step[k]) +
                     self.size * self.traffic[:, j] / (self.bandwidth * transport * fraction[a] * rate[k]))
                best = np.minimum(best, np.where(valid, t, np.inf))
        return best


def to_params(z):
    return {n: (1.0 / (1.0 + math.exp(-v)) if n in FRACTIONS else math.exp(v)) for n, v in zip(NAMES, z)}


def from_params(values):
    return np.array([math.log(v / (1.0 - v)) if n in FRACTIONS else math.log(v) for n, v in zip(NAMES, values)])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reference", default=DEFAULT_REFERENCE)
    ap.add_argument("--hardware", default=os.path.join(HERE, "..", "configs", "hardware"))
    a = ap.parse_args()
    data = Data(a.reference, a.hardware)

    def objective(z):
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            e = np.abs(data.predict(to_params(z)) / data.measured - 1.0)
        return float(np.sum(data.weight * np.nan_to_num(e, nan=1e9, posinf=1e9)))

    z = from_params(START)
    for _ in range(3):
        z = minimize(objective, z, method="Powell", options={"maxiter": 50000, "xtol": 1e-5, "ftol": 1e-9}).x
        z = minimize(objective, z, method="Nelder-Mead",
                     options={"maxiter": 50000, "maxfev": 50000, "xatol": 1e-5, "fatol": 1e-10}).x
    p = to_params(z)
    for n in NAMES:
        print(f"{n:20s} {p[n]:.4g}")
    e = np.abs(data.predict(p) / data.measured - 1.0)
    large = data.size >= 1 << 20
    print(f"weighted mean |error| {objective(z):.4f}")
    for i, c in enumerate(data.configurations):
        m = data.config == i
        print(f"{' '.join(map(str, c)):40s} >= 1 MB {100 * e[m & large].mean():5.1f}%   < 1 MB {100 * e[m & ~large].mean():5.1f}%")


if __name__ == "__main__":
    main()
