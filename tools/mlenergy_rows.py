"""ML.ENERGY v2 serving rows (../shared/reference/energy/mlenergy_v2_mistral7b_codellama.csv) and the
matching points of LightCode's calibration runs (scenarios/mlenergy_chat.yaml, mlenergy_code.yaml):
what tools/fit_serving_overheads.py fits and tools/energy_report.py reports.
A point matches a row by model, GPU and max_batch = max_num_seqs; only rows at tensor and pipeline
parallelism 1 are reproduced (several GPUs per replica: issue 26)."""
import csv
import math
import os

import h5py

from report_common import text

# ../shared beside the repository, wherever the tool is run from.
DEFAULT_CSV = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared",
                                            "reference", "energy", "mlenergy_v2_mistral7b_codellama.csv"))
# The file's model and GPU names -> LightCode's built-in model and system `name:`.
MODELS = {"mistralai/Mistral-7B-Instruct-v0.3": "mistral-7b", "codellama/CodeLlama-7b-hf": "codellama-7b",
          "codellama/CodeLlama-13b-hf": "codellama-13b", "codellama/CodeLlama-34b-hf": "codellama-34b",
          "codellama/CodeLlama-70b-hf": "codellama-70b"}
GPUS = {"NVIDIA A100-SXM4-40GB": "A100-SXM4-40GB", "NVIDIA H100 80GB HBM3": "H100-SXM"}


def measured_rows(path):
    """The rows at TP 1 and PP 1: dicts with model, system, max_batch, energy_per_token_j, power_w,
    throughput, avg_output_tokens."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("#")]
    rows = []
    for r in csv.DictReader(lines):
        if int(r["tensor_parallel"]) != 1 or int(r["pipeline_parallel"]) != 1:
            continue
        rows.append({"model": MODELS[r["model"]], "system": GPUS[r["gpu"]], "task": r["task"],
                     "max_batch": int(r["max_num_seqs"]),
                     "energy_per_token_j": float(r["energy_per_output_token_J_derived"]),
                     "power_w": float(r["avg_power_per_gpu_W_derived"]),
                     "throughput": float(r["token_throughput_tok_s"]),
                     "avg_batch": float(r["avg_batch_size"]),
                     "avg_output_tokens": float(r["avg_output_tokens"])})
    return rows


def simulated_points(paths):
    """(model, system, max_batch) -> the serve point's steady-state figures, from results files."""
    out = {}
    for path in paths:
        with h5py.File(path, "r") as f:
            for pid in sorted(f["points"]):
                p = f["points"][pid]
                s = p["summary"][0]
                if text(s["status"]) != "ok" or text(s["stage"]) != "serve":
                    raise ValueError(f"{path} {pid}: not a finished serve point")
                names = s.dtype.names
                if "param.batching.max_batch" not in names:
                    raise ValueError(f"{path}: no batching.max_batch axis")
                units = p["units"][:]
                static_j = sum(float(u["static_energy_pj"]) for u in units) * 1e-12
                n = int(s["steady_output_tokens"])
                t = float(s["steady_state_s"])
                if not n or math.isnan(t):
                    raise ValueError(f"{path} {pid}: no steady state")
                key = (text(s["model"]), text(s["system"]), int(s["param.batching.max_batch"]))
                out[key] = {"tokens": n, "time_s": t,
                            "energy_j": float(s["steady_energy_per_token_pj"]) * 1e-12 * n,
                            "iterations": int(s["steady_iterations"]),
                            "sequence_iterations": int(s["steady_sequence_iterations"]),
                            "static_w": static_j / float(s["makespan_s"]),
                            "preemptions": int(s["preemptions"]), "file": path, "point": pid}
    return out


def matched(rows, points):
    """(row, point) pairs; a ValueError names a row without its point."""
    pairs = []
    for r in rows:
        key = (r["model"], r["system"], r["max_batch"])
        if key not in points:
            raise ValueError(f"no simulated point for {key}")
        pairs.append((r, points[key]))
    return pairs
