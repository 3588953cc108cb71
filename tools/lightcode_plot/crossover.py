"""The crossover figures: where the best system changes with the sequence length.

crossover.png (from a results file's model points): makespan and energy vs sequence length
per system; where the best system (compared within one configuration: model, objective, ...)
changes between two probed lengths, that bracket is shaded and labelled "between A and B":
nothing in between was evaluated, so no crossing point is interpolated. Drawn when >= 2
systems share >= 3 sequence lengths; each bracket is printed ("crossover makespan: A -> B
between 64 and 256 tokens").

crossover_<objective>.png (from a `lightcode crossover` dispatch table, JSON): the metric the
tool evaluated vs sequence length, one line per system (above), the same relative to the
best system at each length (below), each dispatch range shaded in its system's colour and
the switch lengths (the "from" of every range after the first) marked exactly as the tool
reported them, nothing recomputed; also printed as "crossover <objective>: switches at 54".
"""
import json
import re

from matplotlib.patches import Patch
from matplotlib.ticker import FuncFormatter

from .common import (METRICS, fmt_value, label_of, label_probed, maybe_log, note, number,
                     other_config, plt, seq_len, sort_key)

NAME = "crossover.png"


def crossover_series(ok, other):
    """Series of the sweep: {(system, other values...): {system, group, name, pts}} with
    pts {sequence length: row} (first point wins on duplicates). `group` is the key of the
    other varying fields: systems are compared only within a group (same model, objective,
    ...), never a system of one configuration against another configuration."""
    series = {}
    for r in ok:
        group = tuple(sort_key(r.get(f, "")) for f in other)
        s = series.setdefault((sort_key(r["system"]),) + group, {
            "system": r["system"], "group": group, "label": label_of(r, other), "pts": {}})
        s["pts"].setdefault(seq_len(r), r)
    for s in series.values():
        s["name"] = s["system"] + (" (%s)" % s["label"] if s["label"] else "")
    return series


def winners(series, keys, get):
    """[(length, key of the best series)] at each length where >= 2 of `keys` have a value,
    ascending; ties go to the series sorted first."""
    lengths = sorted({x for k in keys for x in series[k]["pts"]})
    out = []
    for x in lengths:
        cands = [(get(series[k]["pts"][x]), i, k) for i, k in enumerate(keys)
                 if x in series[k]["pts"] and get(series[k]["pts"][x]) is not None]
        if len(cands) >= 2:
            out.append((x, min(cands)[2]))
    return out


def brackets(best):
    """[(x0, old key, x1, new key)] for each change of winner between consecutive probed
    lengths: the switch lies somewhere in (x0, x1]; nothing in between was evaluated."""
    return [(x0, k0, x1, k1) for (x0, k0), (x1, k1) in zip(best, best[1:]) if k0 != k1]


def plot_crossover(summary, out):
    """crossover.png as the module says."""
    ok = [r for r in summary.model_points()
          if r.get("system", "") != "" and seq_len(r) is not None]
    other = other_config(
        ok, exclude={"system", "param.system", "sequence_length", "param.sequence_length"})
    series = crossover_series(ok, other)
    # sequence lengths shared by >= 2 distinct systems
    systems_at = {}
    for s in series.values():
        for x in s["pts"]:
            systems_at.setdefault(x, set()).add(s["system"])
    shared = sorted(x for x, syss in systems_at.items() if len(syss) >= 2)
    if len(shared) < 3:
        note(NAME + ": fewer than 2 systems share 3 or more sequence lengths")
        return
    keys = [k for k in sorted(series) if len(set(series[k]["pts"]) & set(shared)) >= 2]
    groups = sorted({series[k]["group"] for k in keys})
    cmap = plt.get_cmap("tab10" if len(keys) <= 10 else "tab20")
    colour = {k: cmap(i % cmap.N) for i, k in enumerate(keys)}
    fig, axes = plt.subplots(1, 2, figsize=(14, 5.5))
    summary_lines = []
    for ax, (mname, ylabel, get) in zip(axes, METRICS):
        allv = []
        for k in keys:
            pts = sorted((x, get(r)) for x, r in series[k]["pts"].items() if get(r) is not None)
            if not pts:
                continue
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", color=colour[k],
                    label=series[k]["name"])
            allv += [p[1] for p in pts]
        marks, constant = [], []
        for g in groups:
            best = winners(series, [k for k in keys if series[k]["group"] == g], get)
            marks += brackets(best)
            if best and not brackets(best):
                constant.append(best[0][1])
        for i, (x0, k0, x1, k1) in enumerate(marks):
            mark_bracket(ax, i, x0, series[k0], x1, series[k1], len(groups) > 1)
            summary_lines.append("%s: %s -> %s between %s and %s tokens" % (
                mname, series[k0]["name"], series[k1]["name"], fmt_value(x0), fmt_value(x1)))
        if min(shared) > 0:
            ax.set_xscale("log")
            xs = sorted({x for k in keys for x in series[k]["pts"]})
            if len(xs) <= 12:
                label_probed(ax, xs)
        log = maybe_log(ax, allv)
        ax.set_xlabel("Sequence length [tokens]")
        ax.set_ylabel(ylabel + (" (log)" if log else ""))
        sub = "" if marks else " (no crossover in range)"
        if len(groups) == 1 and constant and not marks:
            sub = " (%s best throughout)" % series[constant[0]]["system"]
        ax.set_title("%s vs sequence length%s" % (mname.capitalize(), sub), fontsize="medium")
        ax.grid(alpha=0.3, which="both")
    axes[0].legend(fontsize="small", title="System", loc="best")
    fig.suptitle("Crossover — %s" % summary.title)
    out.save(fig, NAME)
    for s in summary_lines:
        print("  crossover %s" % s)


def mark_bracket(ax, i, x0, s0, x1, s1, show_group):
    """Shade (x0, x1), the interval that holds the switch from s0's system to s1's, and
    label it "A → B / between x0 and x1"; labels stack down from the top (i-th mark)."""
    ax.axvspan(x0, x1, color="0.55", alpha=0.18, linewidth=0)
    label = "%s → %s\nbetween %s and %s" % (s0["system"], s1["system"], fmt_value(x0),
                                            fmt_value(x1))
    if show_group and s1["label"]:
        label += "\n(%s)" % s1["label"]
    ax.annotate(label, xy=(x0, 0.97 - 0.14 * (i % 4)), xycoords=("data", "axes fraction"),
                ha="left", va="top", fontsize="small", xytext=(4, 0), textcoords="offset points",
                bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="0.6", alpha=0.85))


OBJECTIVE_NAMES = {"time": "Makespan", "energy": "Energy", "edp": "Energy-delay product"}


def load_crossover_json(path):
    """The crossover dispatch table at `path` as a dict. ValueError naming the path when it
    is not JSON or has no "dispatch" object (what every `lightcode crossover` table has)."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError("%s: not a JSON file (%s)" % (path, e)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("dispatch"), dict):
        raise ValueError('%s: not a LightCode crossover table (no "dispatch" object)' % path)
    return doc


def switches(dispatch):
    """[(length, old system, new system)]: the "from" of every dispatch range after the
    first, exactly as the tool reported it (nothing is recomputed or interpolated)."""
    ranges = (dispatch or {}).get("ranges") or []
    return [(r["from"], p.get("system", "?"), r.get("system", "?"))
            for p, r in zip(ranges, ranges[1:])]


def switch_line(objective, dispatch):
    """The one-line summary printed per objective: "crossover energy: switches at 54"."""
    sw = switches(dispatch)
    if sw:
        return "crossover %s: switches at %s" % (objective, ", ".join(str(x) for x, _, _ in sw))
    ranges = (dispatch or {}).get("ranges") or []
    if ranges:
        return "crossover %s: no switch (%s best from %s to %s)" % (
            objective, ranges[0].get("system", "?"), ranges[0].get("from"), ranges[-1].get("to"))
    return "crossover %s: no dispatch ranges" % objective


def curve_problem(curves):
    """Why `curves` (one objective's {"unit", "lengths", "systems"}) cannot be drawn, or None."""
    if not isinstance(curves, dict):
        return "no curves (a table from an older lightcode crossover?)"
    lengths, systems = curves.get("lengths"), curves.get("systems")
    if not isinstance(lengths, list) or not lengths or not isinstance(systems, dict) or not systems:
        return "its curves have no lengths or no systems"
    bad = [s for s, v in systems.items() if not isinstance(v, list) or len(v) != len(lengths)]
    if bad:
        return "curve(s) %s do not have one value per length" % ", ".join(bad)
    return None


def system_colours(doc, objective):
    """A colour per system name, in the table's system order (the same in every figure)."""
    names = [s.get("name") for s in doc.get("systems") or [] if isinstance(s, dict)]
    for c in (doc.get("curves") or {}).values():
        names += list((c or {}).get("systems") or {})
    names += [r.get("system") for r in (doc["dispatch"].get(objective) or {}).get("ranges", [])]
    names = list(dict.fromkeys(n for n in names if n))
    cmap = plt.get_cmap("tab10")
    return {n: cmap(i % cmap.N) for i, n in enumerate(names)}


def shade_dispatch(ax, dispatch, colour):
    """Each dispatch range shaded in its system's colour; legend patches for them."""
    ranges = (dispatch or {}).get("ranges") or []
    handles = []
    for r, nxt in zip(ranges, ranges[1:] + [None]):
        # up to the next range's start, so that the shading has no gap at the switch
        hi = nxt["from"] if nxt else r["to"]
        c = colour.get(r.get("system"), "0.5")
        ax.axvspan(r["from"], hi, color=c, alpha=0.10, linewidth=0)
        handles.append(Patch(color=c, alpha=0.25, label="best: %s (%s–%s)" % (
            r.get("system", "?"), r["from"], r["to"])))
    return handles


def mark_switches(ax, sw):
    """A dashed line at each switch length, labelled with the length above the axes (so that
    the label covers no curve); close labels alternate between two heights."""
    prev = None
    level = 0
    for x, _, _ in sw:
        level = (level + 1) % 2 if prev and x / prev < 1.6 else 0
        ax.axvline(x, color="0.2", linestyle="--", linewidth=1.1)
        ax.annotate(str(x), xy=(x, 1.0), xycoords=("data", "axes fraction"), ha="center",
                    va="bottom", xytext=(0, 2 + 11 * level), textcoords="offset points",
                    fontsize="small", fontweight="bold")
        prev = x


def curve_points(curves):
    """{system: [(length, value)]} of one objective's curves, null (not evaluated) left out."""
    return {system: [(x, v) for x, v in zip(curves["lengths"], vals) if number(v) is not None]
            for system, vals in curves["systems"].items()}


def relative_to_best(points):
    """{system: [(length, value / best value at that length)]} at the lengths where >= 2
    systems were evaluated: the winner reads 1, so that near-equal curves stay apart."""
    at = {}
    for system, pts in points.items():
        for x, v in pts:
            at.setdefault(x, {})[system] = v
    out = {}
    for x in sorted(at):
        vals = at[x]
        best = min(vals.values())
        if len(vals) < 2 or best <= 0:
            continue
        for system, v in vals.items():
            out.setdefault(system, []).append((x, v / best))
    return out


def draw_curves(ax, points, colour, markersize=3.5):
    """One line with markers per system; returns every value drawn."""
    allv = []
    for system, pts in points.items():
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=markersize,
                color=colour.get(system), label=system)
        allv += [p[1] for p in pts]
    return allv


def plot_crossover_objective(doc, objective, out):
    """crossover_<objective>.png: above, the evaluated curves (metric vs length, one line
    with markers per system; null values, i.e. lengths not evaluated for that system, left
    out); below, the same values relative to the best system at each length. The dispatch
    ranges are shaded in their system's colour and the switch lengths marked, as the table
    gives them. Prints switch_line after the "wrote" line."""
    name = "crossover_%s.png" % re.sub(r"[^A-Za-z0-9_.-]", "_", objective)
    dispatch = doc["dispatch"].get(objective)
    curves = (doc.get("curves") or {}).get(objective)
    problem = curve_problem(curves)
    if problem:
        note("%s: %s" % (name, problem))
        print("  " + switch_line(objective, dispatch))
        return
    colour = system_colours(doc, objective)
    points = curve_points(curves)
    sw = switches(dispatch)
    fig, (ax, rel) = plt.subplots(2, 1, figsize=(11, 7.5), sharex=True, layout="constrained",
                                  gridspec_kw={"height_ratios": [3, 2]})
    allv = draw_curves(ax, points, colour)
    relv = draw_curves(rel, relative_to_best(points), colour, markersize=3)
    handles = shade_dispatch(ax, dispatch, colour)
    shade_dispatch(rel, dispatch, colour)
    mark_switches(ax, sw)
    for x, _, _ in sw:
        rel.axvline(x, color="0.2", linestyle="--", linewidth=1.1)
    if min(curves["lengths"]) > 0:
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))
    unit = curves.get("unit") or (dispatch or {}).get("unit") or ""
    log = maybe_log(ax, allv)
    ax.set_ylabel("%s%s%s" % (OBJECTIVE_NAMES.get(objective, objective),
                              " [%s]" % unit if unit else "", " (log)" if log else ""))
    rel_log = maybe_log(rel, relv)
    rel.set_ylabel("relative to the best (1 = best)" + (" (log)" if rel_log else ""))
    rel.set_xlabel("Sequence length [tokens]")
    for a, lg in ((ax, log), (rel, rel_log)):
        a.grid(alpha=0.3, which="both" if lg else "major")
    lines, labels = ax.get_legend_handles_labels()
    ax.legend(lines + handles, labels + [h.get_label() for h in handles], fontsize="small",
              title="System (line) / dispatch", loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_title(crossover_title(doc, objective, dispatch, sw), fontsize="medium",
                 pad=26 if len(sw) > 1 else 16)
    out.save(fig, name)
    print("  " + switch_line(objective, dispatch))


def crossover_title(doc, objective, dispatch, sw):
    what = " ".join(str(doc[k]) for k in ("model", "stage") if doc.get(k))
    if doc.get("profile"):
        what += ", %s profile" % doc["profile"]
    how = ""
    if dispatch and dispatch.get("evaluations") is not None:
        how = " — %s evaluations at %s lengths" % (dispatch["evaluations"],
                                                   dispatch.get("lengths_probed", "?"))
    marks = "no switch"
    if sw:
        marks = "switch%s at %s" % ("es" if len(sw) > 1 else "",
                                    ", ".join(str(x) for x, _, _ in sw))
    return "Crossover, %s objective: %s\n%s%s" % (objective, marks, what, how)


