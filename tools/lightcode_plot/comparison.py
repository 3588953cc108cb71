"""hardware_comparison.png: makespan and energy per system, for the seed table and other
sweeps over systems (model points only: a serve point is never a bar here).

Up to MAX_BARS bars: grouped bars, one group per configuration (sequence length, then the
other varying fields), one bar per system. More: a bar forest is unreadable, so
  - when the sweep has a PHU cores axis, the figure is skipped in favour of phu_scaling.png;
  - else, up to MAX_FACETS configurations of up to MAX_BARS systems: small multiples, one row
    of panels per configuration (makespan | energy), one horizontal bar per system, each
    value written at its bar's end;
  - else it is skipped (crossover.png compares systems over sequence lengths).
The choice is printed ("hardware comparison: ...") or given in the skip note.
"""
from .common import (METRICS, fmt_value, label_of, maybe_log, note, other_config, palette, plt,
                     scaled_unit, short, sort_key)
from .scaling import scaling_columns

MAX_BARS = 12    # bars in one grouped-bar figure; more becomes facets
MAX_FACETS = 8   # configurations drawn as small multiples; more is skipped
NAME = "hardware_comparison.png"
GROUP_EXCLUDE = {"system", "param.system", "sequence_length", "param.sequence_length"}


def comparison_groups(ok):
    """(group fields, {group key: {"row": first row, "vals": {system: row}}}, systems)."""
    systems = sorted({r["system"] for r in ok})
    fields = ["sequence_length"] + other_config(ok, exclude=GROUP_EXCLUDE)
    groups = {}
    for r in ok:
        key = tuple(sort_key(r.get(f, "")) for f in fields)
        g = groups.setdefault(key, {"row": r, "vals": {}})
        g["vals"].setdefault(r["system"], r)  # first point wins on duplicates
    return fields, groups, systems


def group_label(row, fields):
    return " / ".join(fmt_value(row.get(f, "")) for f in fields)


def fields_label(fields):
    return " / ".join("sequence length [tokens]" if f == "sequence_length" else short(f)
                      for f in fields)


def plot_hardware_comparison(summary, out):
    ok = [r for r in summary.model_points() if r.get("system", "") != ""]
    fields, groups, systems = comparison_groups(ok)
    if len(systems) < 2:
        note("%s: fewer than 2 systems with ok points%s" % (
            NAME, " of a model stage (serve points: the serving figures)"
            if summary.serve_points() else ""))
        return
    n_bars = len(groups) * len(systems)
    if n_bars <= MAX_BARS:
        draw_grouped(summary, out, fields, groups, systems)
        print("  hardware comparison: %d bars (%d systems x %d configurations)" % (
            n_bars, len(systems), len(groups)))
        return
    cores, _ = scaling_columns(ok)
    if cores is not None:
        note("%s: %d bars (> %d): skipped in favour of phu_scaling.png (the sweep has a "
             "%s axis)" % (NAME, n_bars, MAX_BARS, short(cores)))
        return
    if len(groups) > MAX_FACETS or len(systems) > MAX_BARS:
        note("%s: %d systems x %d configurations (> %d bars, > %d facets): skipped; "
             "crossover.png compares systems over sequence lengths" % (
                 NAME, len(systems), len(groups), MAX_BARS, MAX_FACETS))
        return
    draw_facets(summary, out, fields, groups, systems)
    print("  hardware comparison: %d bars (> %d): %d facets, one per %s" % (
        n_bars, MAX_BARS, len(groups), fields_label(fields)))


def draw_grouped(summary, out, fields, groups, systems):
    keys = sorted(groups)
    n_sys = len(systems)
    width = 0.8 / n_sys
    colours = palette(n_sys)
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), layout="constrained")
    labels = [group_label(groups[k]["row"], fields) for k in keys]
    for ax, (mname, ylabel, get) in zip(axes, METRICS):
        allv = []
        for si, s in enumerate(systems):
            xs, ys = [], []
            for gi, k in enumerate(keys):
                r = groups[k]["vals"].get(s)
                v = get(r) if r is not None else None
                if v is not None:
                    xs.append(gi - 0.4 + width * (si + 0.5))
                    ys.append(v)
            allv += ys
            ax.bar(xs, ys, width * 0.95, label=s, color=colours[si])
        log = maybe_log(ax, allv)
        ax.set_xticks(range(len(keys)))
        ax.set_xlabel(fields_label(fields))
        rot = 0 if max(len(lb) for lb in labels) * len(keys) < 60 else 45
        ax.set_xticklabels(labels, rotation=rot, ha="right" if rot else "center")
        ax.set_ylabel(ylabel + (" (log)" if log else ""))
        ax.set_title("%s per system" % mname.capitalize())
        ax.grid(axis="y", alpha=0.3, which="both" if log else "major")
        ax.set_axisbelow(True)
    axes[0].legend(title="System", fontsize="small")
    fig.suptitle("Hardware comparison — %s" % summary.title)
    out.save(fig, NAME)


def draw_facets(summary, out, fields, groups, systems):
    """One row per configuration, makespan and energy side by side, one horizontal bar per
    system (the same order and colour in every panel), each panel its own value axis from
    0 (log when its values span > 1.5 decades) and each bar's value written beside it."""
    keys = sorted(groups)
    colours = palette(len(systems))
    row_h = 0.32 * len(systems) + 0.9
    fig, axes = plt.subplots(len(keys), 2, figsize=(12, row_h * len(keys) + 0.8),
                             squeeze=False, layout="constrained")
    for row_axes, k in zip(axes, keys):
        g = groups[k]
        for ax, (mname, ylabel, get) in zip(row_axes, METRICS):
            vals = {s: get(g["vals"][s]) for s in systems if s in g["vals"]}
            vals = {s: v for s, v in vals.items() if v is not None}
            base = "s" if mname == "makespan" else "J"
            unit, scale = scaled_unit(max(vals.values()), base) if vals else (base, 1.0)
            ys = list(range(len(systems)))
            widths = [vals.get(s, 0.0) / scale for s in systems]
            ax.barh(ys, widths, 0.7, color=colours)
            log = maybe_log(ax, [v / scale for v in vals.values()], axis="x")
            for y, s in zip(ys, systems):
                if s in vals:
                    ax.annotate("%.4g" % (vals[s] / scale), (vals[s] / scale, y), va="center",
                                xytext=(3, 0), textcoords="offset points", fontsize="x-small")
                else:
                    ax.annotate("no point", (0, y), va="center", xytext=(3, 0),
                                textcoords="offset points", fontsize="x-small", color="0.4")
            ax.set_yticks(ys)
            ax.set_yticklabels(systems, fontsize="small")
            ax.invert_yaxis()
            if not log:
                ax.set_xlim(0, max(widths + [1e-30]) * 1.18)
            ax.set_xlabel("%s [%s]%s" % (mname.capitalize(), unit, " (log)" if log else ""),
                          fontsize="small")
            ax.set_title("%s — %s" % (mname.capitalize(), label_of(g["row"], fields)),
                         fontsize="small")
            ax.grid(axis="x", alpha=0.3)
            ax.set_axisbelow(True)
    fig.suptitle("Hardware comparison — %s\none row per %s" % (summary.title,
                                                                fields_label(fields)))
    out.save(fig, NAME)
