#!/usr/bin/python3
"""The tensor-parallelism section of docs/VALIDATION.md: predictions, not validated here, from
the results of scenarios/tp_scaling.yaml and scenarios/tp_decode.yaml (HDF5 format 11 or later).

  /usr/bin/python3 tools/parallel_report.py TP_SCALING.h5 TP_DECODE.h5 [--out FILE]

Three tables, one column group per system (latency in ms, communication share in %, energy of
the whole group in J): Llama-2-70B time to first token (prefill) and time per output token
(decode, batch 1) at 128 and 2048 tokens on TP 2/4/8, and Llama-2-7B/13B batch-1 decode at
TP 1/2/4/8. Latency is the point's makespan_s, the communication share communication_s /
makespan_s (the time the simulated device spends in collectives), the energy group_energy_pj.
Failed points are listed below their table. No measurement of these is in this repository.
Needs h5py and numpy (Debian: python3-h5py). Exit 2 on a bad file.
"""
import argparse
import math
import re
import sys

import h5py

from report_common import commands_block, emit, table_rows, text

COMMANDS = ["build/lightcode sweep scenarios/tp_scaling.yaml",
            "build/lightcode sweep scenarios/tp_decode.yaml"]
MIN_FORMAT = 11
NEEDED = ("tensor_parallel", "communication_s", "group_energy_pj", "makespan_s")


def load(path):
    """The /summary rows of a results file of format 11 or later, as dicts."""
    with h5py.File(path, "r") as f:
        version = f.attrs.get("format_version")
        if "summary" not in f or version is None or int(version) < MIN_FORMAT:
            raise ValueError(f"{path}: not a LightCode results file of format {MIN_FORMAT} or later "
                             f"(format {text(version) if version is not None else 'none'})")
        rows = table_rows(f["summary"][:])
    missing = [c for c in NEEDED if rows and c not in rows[0]]
    if missing:
        raise ValueError(f"{path}: /summary lacks {', '.join(missing)}")
    return rows


# ----------------------------------------------------------------------------- formatting

def finite(v):
    return v is not None and isinstance(v, (int, float)) and math.isfinite(v)


def ms(seconds):
    """Milliseconds: 3 decimals below 10 ms, 2 above (6.742, 35.34, 659.25)."""
    if not finite(seconds):
        return "—"
    v = 1e3 * seconds
    return f"{v:.3f}" if v < 10 else f"{v:.2f}"


def share(row):
    """communication_s / makespan_s in %, 1 decimal."""
    c, m = row.get("communication_s"), row.get("makespan_s")
    return f"{100 * c / m:.1f}%" if finite(c) and finite(m) and m > 0 else "—"


def joules(pj):
    """pJ as J with 3 significant figures, never in exponent form (0.818, 14.6, 486, 1830)."""
    if not finite(pj):
        return "—"
    v = pj / 1e12
    if v == 0:
        return "0"
    decimals = max(0, 2 - math.floor(math.log10(abs(v))))
    return f"{v:.{decimals}f}"


def cell(v):
    """A key cell: an integral float without ".0" (a sequence length stored as float64)."""
    return str(int(v)) if isinstance(v, float) and v.is_integer() else str(v)


def system_name(s):
    return s.replace("-", " ")


# ----------------------------------------------------------------------------- tables

def pick(rows, stage, models):
    return [r for r in rows if r["stage"] == stage and r["model"] in models]


def natural(v):
    """A cell's sort key, digits compared as numbers (llama-2-7b before llama-2-13b)."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                 for p in re.split(r"(\d+)", str(v)) if p)


def table(rows, lead):
    """Markdown lines: one row per (lead fields..., TP), one column group per system (in the
    file's order), then a line per failed point. `lead` [(field, header)] are the fields
    that tell the rows apart besides TP."""
    ok = [r for r in rows if r["status"] == "ok"]
    systems = list(dict.fromkeys(r["system"] for r in rows))
    cells = {}
    for r in ok:
        cells.setdefault(tuple(r[f] for f, _ in lead) + (r["tensor_parallel"],), {}) \
            .setdefault(r["system"], r)
    out = ["| " + " | ".join([h for _, h in lead] + ["TP"] + [
        f"{system_name(s)} {h}" for s in systems for h in ("ms", "comm.", "J")]) + " |",
        "|" + "---|" * (len(lead) + 1 + 3 * len(systems))]
    for key in sorted(cells, key=lambda k: tuple(natural(v) for v in k)):
        line = [cell(k) for k in key]
        for s in systems:
            r = cells[key].get(s)
            line += [ms(r["makespan_s"]), share(r), joules(r["group_energy_pj"])] if r else ["—"] * 3
        out.append("| " + " | ".join(line) + " |")
    for r in rows:
        if r["status"] != "ok":
            out.append("")
            out.append(f"Failed: {r['model']} {r['stage']} {cell(r['sequence_length'])} tokens, "
                       f"{system_name(r['system'])} TP {cell(r['tensor_parallel'])}: {r['error']}")
    return out


def section(scaling_rows, decode_rows):
    """The section's markdown text: tables from tp_scaling.h5's and tp_decode.h5's rows."""
    out = []
    w = out.append
    out += ["## Predictions: tensor parallelism (not validated here)", ""] + commands_block(COMMANDS)
    w("Each point runs rank 0's share of the model (Megatron-LM's split, as vLLM runs it:")
    w("column-parallel QKV and gate/up, row-parallel o_proj and down, heads and KV heads split)")
    w("with its all-reduces on the system's NVLink fabric (DGX H100: NVLink 4 + NVSwitch; DGX A100")
    w("80 GB: NVLink 3 + NVSwitch, predicted from its datasheet with the collective model's")
    fidelity = "/".join(sorted({r["fidelity"] for r in scaling_rows + decode_rows if r["status"] == "ok"}))
    w(f"constants fitted on H100), at {fidelity or 'their'} fidelity. **ms** is the latency (the point's makespan:")
    w("time to first token for a prefill, time per output token at batch 1 for a decode step),")
    w("**comm.** the share of it the device spends in collectives, **J** the energy of every GPU")
    w("of the group. These are predictions of this model: they are to be checked against")
    w("measurements that are not in this repository, and nothing in this section is validated.")
    w("")
    big = [r for r in scaling_rows if r["model"] == "llama-2-70b"]
    for stage, what, tokens in (
            ("prefill", "time to first token (prefill of a prompt of the given tokens)", "prompt tokens"),
            ("decode", "time per output token (one decode step, batch 1, against a KV cache of the given tokens)",
             "KV cache tokens")):
        rows = pick(big, stage, {"llama-2-70b"})
        if not rows:
            continue
        w(f"Llama-2-70B, {what}:")
        w("")
        out += table(rows, [("sequence_length", tokens)])
        w("")
    small = [r for r in decode_rows if r["stage"] == "decode"]
    if small:
        contexts = sorted({r["sequence_length"] for r in small})
        w("Llama-2-7B and Llama-2-13B, time per output token (one decode step, batch 1, KV cache of "
          f"{', '.join(cell(c) for c in contexts)} tokens):")
        w("")
        out += table(small, [("model", "model")] + ([("sequence_length", "KV cache tokens")] if len(contexts) > 1 else []))
        w("")
    w("Every point is in the files' `/summary` tables (`makespan_s`, `communication_s`,")
    w("`group_energy_pj`); `tools/plot.py results/tp_scaling.h5` draws them (tp_scaling.png).")
    w("")
    return "\n".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("tp_scaling", help="results of scenarios/tp_scaling.yaml")
    p.add_argument("tp_decode", help="results of scenarios/tp_decode.yaml")
    p.add_argument("--out", default="", help="Markdown file to write (default: stdout)")
    a = p.parse_args(argv)
    try:
        scaling, decode = load(a.tp_scaling), load(a.tp_decode)
    except (OSError, ValueError, KeyError) as e:
        print(f"parallel_report: {e}", file=sys.stderr)
        return 2
    emit(section(scaling, decode), a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
