#!/usr/bin/python3
"""The photonic section of docs/VALIDATION.md, from two HDF5 files and the published figures.

  /usr/bin/python3 tools/photonic_report.py DESIGNS.h5 WORKLOADS.h5 [--out SECTION.md]
                                            [--published designs.yaml] [--check]

DESIGNS.h5 is what `lightcode validate-photonic` writes (/designs, /breakdown: peak, power and
area of each device-built PHU with their breakdowns); WORKLOADS.h5 is the results file of
`lightcode run scenarios/photonic_workloads.yaml` (encoders on an H100 host with a DOTA-B PHU).
The published DOTA-B figures are read from ../shared/reference/photonic/designs.yaml (the
document with a `results:` table) at generation time; nothing of that file is copied here.
Every number in the section is computed from these three inputs; the same inputs give the
same bytes. tools/validation_report.py --photonic-designs/--photonic-workloads appends the
section to docs/VALIDATION.md. --check exits 1 unless DOTA-B's total area and 4-bit power are
within 5 % of the published values, every published breakdown component within 10 % and the
peak exact (the issue's must-show bounds). Needs h5py, numpy and PyYAML. Exit 2 on a bad file.
"""
import argparse
import os
import sys

import h5py
import yaml

from report_common import emit, text

DEFAULT_PUBLISHED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared",
                                 "reference", "photonic", "designs.yaml")
TOTAL_BOUND, PART_BOUND = 0.05, 0.10
# Published category (designs.yaml) -> our breakdown items (PhotonicCore::power_breakdown,
# area_breakdown) whose sum it is. The published "MZM_plus_MRR" power is the modulators and
# their rings' tuning; ours lists the two apart.
POWER_MAP = {"MZM_plus_MRR": ["modulators", "ring tuning"], "DAC": ["DAC"],
             "photodetector": ["photodetector"], "ADC": ["ADC"], "TIA": ["TIA"],
             "laser": ["laser"], "mem": ["memory"], "adder": ["adder"]}
AREA_MAP = {"DAC": ["DAC"], "mem": ["memory"], "photonic_core": ["photonic core"],
            "micro_comb": ["micro-comb"], "MZM_plus_MRR": ["modulators + rings"], "ADC": ["ADC"],
            "laser": ["laser"], "adder": ["adder"], "TIA": ["TIA"]}
# The workloads the section reports: (model, tokens), Lightening-Transformer's benchmarks.
WORKLOADS = [("deit-base", 197), ("bert-base", 128), ("bert-base", 384)]
PHU_PARTS = ["laser", "modulation", "detection", "memory"]  # dynamic, per product


def rows_of(ds):
    a = ds[:]
    return [{n: (text(r[n]) if a.dtype[n].kind in "SOU" else r[n].item()) for n in a.dtype.names}
            for r in a]


def load_designs(path):
    with h5py.File(path, "r") as f:
        if text(f.attrs.get("format", b"")) != "lightcode-photonic-designs":
            raise ValueError(f"{path}: not a `lightcode validate-photonic` file")
        designs = rows_of(f["designs"])
        breakdown = rows_of(f["breakdown"])
    items = {}
    for r in breakdown:
        items.setdefault((r["design"], r["quantity"]), []).append(r)
    return {d["design"]: d for d in designs}, items


def load_workloads(path):
    """{(system, model, tokens): {summary, units, energy}} for every ok point of a results
    file."""
    out = {}
    with h5py.File(path, "r") as f:
        if "summary" not in f or "points" not in f:
            raise ValueError(f"{path}: not a results file (no /summary or /points)")
        for s in rows_of(f["summary"]):
            if s["status"] != "ok":
                continue
            g = f["points"][s["id"]]
            out[(s["system"], s["model"], int(s["sequence_length"]))] = {
                "summary": s, "units": rows_of(g["units"]), "energy": rows_of(g["energy_breakdown"])}
    return out


def load_published(path):
    with open(path) as f:
        for doc in yaml.safe_load_all(f):
            if isinstance(doc, dict) and "results" in doc:
                return doc["results"]
    raise ValueError(f"{path}: no document with a `results:` table")


def pct(x):
    return f"{100 * x:+.2f}%"


def ours(items, names):
    return sum(r["value"] for r in items if r["item"] in names)


def comparison(published, items, mapping, scale, unit):
    """Rows (name, published, ours, error) for every published component, then ours alone."""
    rows = []
    used = set()
    for name, entry in published.items():
        names = mapping.get(name, [name])
        used.update(names)
        rows.append((name, float(entry["value"]), ours(items, names) * scale))
    extra = [(r["item"], r["value"] * scale) for r in items if r["item"] not in used]
    return rows, extra


def checks(designs, items, pub):
    """[(what, published, ours, error, bound)] of the must-show bounds."""
    b = designs["phu_dota_b"]
    out = [("peak TOPS", float(pub["peak_DOTA_B"]["tops"]["value"]), b["peak_ops_per_s"] / 1e12,
            0.0),
           ("total area mm2", float(pub["area_total_DOTA_B"]["value"]), b["area_m2"] * 1e6,
            TOTAL_BOUND),
           ("total 4-bit power mW", float(pub["power_total_DOTA_B_4b"]["value"]), b["power_w"] * 1e3,
            TOTAL_BOUND)]
    for name, p, o in comparison(pub["area_breakdown_DOTA_B"], items[("phu_dota_b", "area")],
                                 AREA_MAP, 1e6, "mm2")[0]:
        out.append((f"area {name} mm2", p, o, PART_BOUND))
    for name, p, o in comparison(pub["power_breakdown_DOTA_B_4b"], items[("phu_dota_b", "power")],
                                 POWER_MAP, 1e3, "mW")[0]:
        out.append((f"power {name} mW", p, o, PART_BOUND))
    return [(w, p, o, o / p - 1.0, bound) for w, p, o, bound in out]


def holds(err, bound):
    return abs(err) <= bound if bound > 0 else abs(err) < 1e-9


def section(designs, items, work, pub, commands):
    out = []
    w = out.append
    w("# Validation of the photonic model")
    w("")
    w("Generated by `tools/photonic_report.py` (called by `tools/validation_report.py`) from the")
    w("HDF5 files below and the published figures in `../shared/reference/photonic/designs.yaml`")
    w("(read at generation time) — do not edit by hand. Regenerate:")
    w("")
    w("```")
    for c in commands:
        w(c)
    w("```")
    w("")
    w("then `tools/validation_report.py` with `--photonic-designs` and `--photonic-workloads` as at")
    w("the top of this page (or `tools/photonic_report.py DESIGNS.h5 WORKLOADS.h5` for this section).")
    w("")
    w("The PHU is built from devices (configs/hardware/phu_dota_*.yaml, configs/devices/: the")
    w("published device and architecture parameters, each with its source); its peak, power and")
    w("area are computed from them. The targets are Lightening-Transformer's DOTA-B figures,")
    w("obtained by running its own simulator (designs.yaml, `results:`).")
    w("")
    cs = checks(designs, items, pub)
    w("## DOTA-B: published vs ours")
    w("")
    w("Bounds: total area and 4-bit power within 5 %, every component within 10 %, peak exact")
    w("(ctest `validation:photonic`).")
    w("")
    w("| quantity | published | ours | error | bound | holds |")
    w("|---|---|---|---|---|---|")
    for what, p, o, err, bound in cs:
        w(f"| {what} | {p:.6g} | {o:.6g} | {pct(err)} | "
          f"{'exact' if bound == 0 else f'{100 * bound:.0f}%'} | {'yes' if holds(err, bound) else 'NO'} |")
    for q, mapping, scale, unit in (("power", POWER_MAP, 1e3, "mW"), ("area", AREA_MAP, 1e6, "mm2")):
        key = "power_breakdown_DOTA_B_4b" if q == "power" else "area_breakdown_DOTA_B"
        extra = comparison(pub[key], items[("phu_dota_b", q)], mapping, scale, unit)[1]
        if extra:
            w("")
            w(f"Ours without a published {q} counterpart: " +
              ", ".join(f"{n} {v:.4g} {unit}" for n, v in extra) + ".")
    w("")
    w("Published `MZM_plus_MRR` power is our modulators plus ring tuning; our static power is ring")
    w("tuning, buffers (`memory`) and phase shifters.")
    w("")
    w("## Predictions: every shipped design (no published target except DOTA-B 4-bit above)")
    w("")
    w("Power is every device at the clock with no activity factor, as the published figures are.")
    w("")
    w("| design | tiles x cores x H x W x N | bits in/w/out | clock GHz | peak TOPS | power W | static W | area mm2 | TOPS/W | TOPS/mm2 |")
    w("|---|---|---|---|---|---|---|---|---|---|")
    names = sorted(designs)
    for n in names:
        d = designs[n]
        tops = d["peak_ops_per_s"] / 1e12
        w(f"| {n} | {d['tiles']} x {d['cores_per_tile']} x {d['height']} x {d['width']} x "
          f"{d['wavelengths']} | {d['input_bits']}/{d['weight_bits']}/{d['output_bits']} | "
          f"{d['clock_hz'] / 1e9:.3g} | {tops:.2f} | {d['power_w']:.3f} | {d['static_power_w']:.3f} | "
          f"{d['area_m2'] * 1e6:.2f} | {tops / d['power_w']:.3g} | {tops / (d['area_m2'] * 1e6):.3g} |")
    for q, unit, scale in (("power", "mW", 1e3), ("area", "mm2", 1e6)):
        w("")
        w(f"{q.capitalize()} breakdown ({unit}):")
        w("")
        order = [r["item"] for r in items[(names[0], q)]]
        w("| item | " + " | ".join(names) + " |")
        w("|---|" + "---|" * len(names))
        for item in order:
            vals = [ours(items.get((n, q), []), [item]) * scale for n in names]
            w(f"| {item} | " + " | ".join(f"{v:.4g}" for v in vals) + " |")
    w("")
    w("## DOTA-B 4-bit on its published workloads (predictions, no targets)")
    w("")
    systems = sorted({k[0] for k in work})
    first = next(iter(work.values()))["summary"] if work else {}
    w(f"`scenarios/photonic_workloads.yaml`: prefill, batch 1, default profile, "
      f"`{first.get('objective', '?')}` objective")
    w(f"(each op where the point's total energy is lowest), {first.get('fidelity', '?')} fidelity, "
      "on two systems:")
    w("`Xeon/DOTA-B` (configs/systems/cpu_dota_b.yaml: a Xeon 8480 host, no GPU, so the PHU runs")
    w("every matrix product: the PHU-for-products figures) and `H100-SXM/DOTA-B`")
    w("(configs/systems/gpu_dota_b.yaml: the selector splits the products between the PHU and the")
    w("H100; column *products on PHU*). PHU energy by category is what its products charge")
    w("(dynamic); *static, busy* is the PHU's static power (ring tuning, buffers; /designs) over")
    w("its busy time, while the report charges static power over the whole makespan (last but one")
    w("column), which the host's work sets. Energies in µJ, times in µs.")
    for system in systems:
        w("")
        w(f"### {system}")
        w("")
        w("| model | tokens | products on PHU | PHU busy µs | makespan µs | " +
          " | ".join(PHU_PARTS) + " | PHU dynamic | static, busy | static, makespan | point total |")
        w("|---|---|---|---|---|" + "---|" * (len(PHU_PARTS) + 4))
        for model, tokens in WORKLOADS:
            r = work.get((system, model, tokens))
            if r is None:
                w(f"| {model} | {tokens} | (not in the results file) |" + " |" * (len(PHU_PARTS) + 6))
                continue
            s = r["summary"]
            phu_units = [u for u in r["units"] if u["name"] == "phu" and u["kind"] == "unit"]
            busy_us = sum(u["busy_ps"] for u in phu_units) / 1e6
            parts = {c: sum(e["energy_pj"] for e in r["energy"]
                            if e["hardware"] == "phu" and e["category"] == c) / 1e6
                     for c in PHU_PARTS + ["static"]}
            dynamic = sum(parts[c] for c in PHU_PARTS)
            static_busy = designs["phu_dota_b"]["static_power_w"] * busy_us  # W x µs = µJ
            w(f"| {model} | {tokens} | {s['photonic_selected']} of {s['photonic_possible']} | "
              f"{busy_us:.2f} | {s['makespan_ps'] / 1e6:.1f} | " +
              " | ".join(f"{parts[c]:.1f}" for c in PHU_PARTS) +
              f" | {dynamic:.1f} | {static_busy:.1f} | {parts['static']:.1f} | "
              f"{s['energy_pj'] / 1e6:.1f} |")
    w("")
    w("Categories: laser per core-cycle; modulation = DACs + modulators; detection =")
    w("photodetectors, TIAs, ADCs, adders; memory = the operands' and outputs' accesses (LT's")
    w("access energies; the access counts are ours).")
    w("Data movement to and from the PHU is in the `sram->phu` and `phu->sram` rows of each point's")
    w("energy breakdown, not here.")
    w("")
    return "\n".join(out)


COMMANDS = [
    "build/lightcode validate-photonic --out results/photonic_designs.h5",
    "build/lightcode run scenarios/photonic_workloads.yaml --out results/photonic_workloads.h5",
]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("designs")
    p.add_argument("workloads")
    p.add_argument("--out")
    p.add_argument("--published", default=DEFAULT_PUBLISHED)
    p.add_argument("--check", action="store_true")
    a = p.parse_args(argv)
    try:
        designs, items = load_designs(a.designs)
        work = load_workloads(a.workloads)
        pub = load_published(a.published)
        if "phu_dota_b" not in designs:
            raise ValueError(f"{a.designs}: no phu_dota_b design")
    except (OSError, ValueError, KeyError) as e:
        print(f"photonic_report: {e}", file=sys.stderr)
        return 2
    if a.check:
        bad = [c for c in checks(designs, items, pub) if not holds(c[3], c[4])]
        for what, pv, o, err, bound in bad:
            print(f"FAILS {what}: published {pv:.4g}, ours {o:.4g} ({pct(err)})")
        print(f"photonic: {'all bounds hold' if not bad else f'{len(bad)} bound(s) fail'}")
        return 1 if bad else 0
    text_out = section(designs, items, work, pub, COMMANDS)
    emit(text_out, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
