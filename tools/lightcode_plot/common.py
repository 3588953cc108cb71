"""What every figure of tools/plot.py shares: the results file's summary as a table of rows
(Summary), the output folder (Output), reading a row's figures, naming the fields that vary,
and axis helpers.

A row is a dict of one /summary row's plain values (str, int, float). A field that does not
apply to the point's stage may be NaN (format 6) or 0 (format 5 and before): the getters
return None for NaN and the figures choose their points by stage, never by those values, so
a serve point never lands in a prefill figure and no NaN reaches an axis limit.
"""
import math
import os

import h5py
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import NullLocator  # noqa: E402

from lightcode_results import leading_number, number, read_table  # noqa: E402

PS_PER_S = 1e12
PJ_PER_J = 1e12
MISSING = "–"  # how a legend shows a parameter the point lacks ("" in format 1, NaN in 2+)
SERVE = "serve"


# ----------------------------------------------------------------------------- a row's figures

def makespan_s(row):
    v = number(row.get("makespan_s"))
    if v is None:
        ps = number(row.get("makespan_ps"))
        v = ps / PS_PER_S if ps is not None else None
    return v


def energy_j(row):
    v = number(row.get("energy_pj"))
    return v / PJ_PER_J if v is not None else None


def seq_len(row):
    v = number(row.get("sequence_length"))
    if v is None:
        v = number(row.get("param.sequence_length"))
    return v


def is_ok(row):
    return str(row.get("status", "ok")) == "ok"


def is_serve(row):
    """An ok point of stage serve: the only points the serving figures draw, and the points
    the model figures (bars, scaling, crossover) leave out."""
    return is_ok(row) and str(row.get("stage", "")) == SERVE


def rate_columns(rows):
    """The arrival-rate parameter columns: "param.arrival_rate" (or one whose name ends so)."""
    return [p for p in param_columns(rows) if p.endswith("arrival_rate")]


def arrival_rate(row):
    """A serve point's requests per second: the summary's arrival_rate_per_s where positive,
    else the leading number of its arrival_rate parameter ("20 req/s" -> 20.0); None for a
    trace-driven point (no rate)."""
    v = number(row.get("arrival_rate_per_s"))
    if v is not None and v > 0:
        return v
    for p in rate_columns([row]):
        v = leading_number(row.get(p))
        if v is not None and v > 0:
            return v
    return None


def dispatch_of(row):
    return str(row.get("dispatch") or row.get("param.dispatch") or "?")


def rate_label(rate):
    return "%s req/s" % fmt_value(rate) if rate else "trace"


METRICS = [("makespan", "Makespan [s]", makespan_s), ("energy", "Energy [J]", energy_j)]


# ----------------------------------------------------------------------------- the summary

class Summary:
    """The /summary table of one results file, read once and handed to every figure:
    `rows` in file order, `by_id` {point id: row}, `title` (model, stage, profile, fidelity
    of the ok points)."""

    def __init__(self, rows):
        self.rows = list(rows)
        self.by_id = {str(r["id"]): r for r in self.rows if "id" in r}
        self.title = file_title(self.rows)

    @classmethod
    def read(cls, f):
        """From an open results file (lightcode_results.open_results)."""
        return cls(read_table(f["summary"]))

    def model_points(self):
        """The ok points of every stage but serve: what the bar, scaling and crossover
        figures compare (one model pass per point)."""
        return [r for r in self.rows if is_ok(r) and str(r.get("stage", "")) != SERVE]

    def serve_points(self):
        return [r for r in self.rows if is_serve(r)]

    def point_title(self, f, pid, system=True):
        """"system, model, stage, 150 tokens" (a serve point: its dispatch and arrival rate)
        for a figure's title; without the system when `system` is False."""
        row = self.row(f, pid)
        fields = ("system", "model", "stage") if system else ("model", "stage")
        parts = [str(row[k]) for k in fields if row.get(k)]
        if row.get("stage") == SERVE:
            parts += ["%s dispatch" % dispatch_of(row), rate_label(arrival_rate(row))]
        elif seq_len(row) is not None:
            parts.append("%s tokens" % fmt_value(seq_len(row)))
        return ", ".join(parts) or pid

    def row(self, f, pid):
        """The point's summary row: from /summary, else its own /points/<id>/summary."""
        r = self.by_id.get(pid)
        if r is None:
            ds = f.get("points/%s/summary" % pid)
            t = read_table(ds) if isinstance(ds, h5py.Dataset) else []
            r = t[0] if t else {}
        return r


def file_title(rows):
    ok = [r for r in rows if is_ok(r)] or rows
    parts = []
    for field in ("model", "stage", "profile", "fidelity"):
        vals = sorted({str(r.get(field, "")) for r in ok if r.get(field, "") != ""})
        if vals:
            parts.append("/".join(vals) if len(vals) <= 3 else "%d %ss" % (len(vals), field))
    return ", ".join(parts) or "LightCode results"


# ----------------------------------------------------------------------------- output

class Output:
    """The output folder: save() writes a figure as <dir>/<name> (PNG, 120 dpi), prints one
    "wrote <path>" line and records the path in `written`; `on_figure(name, fig)`, when
    given, sees each figure first (the tests inspect figures through it)."""

    def __init__(self, out_dir, on_figure=None):
        self.dir = out_dir
        self.written = []
        self.on_figure = on_figure

    def path(self, name):
        return os.path.join(self.dir, name)

    def save(self, fig, name):
        if self.on_figure is not None:
            self.on_figure(name, fig)
        path = self.path(name)
        fig.savefig(path, dpi=120, bbox_inches="tight")
        plt.close(fig)
        self.written.append(path)
        print("wrote %s" % path)


def note(msg):
    """A figure not drawn, and why (one line)."""
    print("skip: %s" % msg)


# ----------------------------------------------------------------------------- fields

# Fields that identify a configuration (besides the sweep parameters); the rest are results.
CONFIG_FIELDS = ["model", "stage", "sequence_length", "system", "objective", "profile",
                 "fidelity"]


def cell(row, field):
    """A field's value as a comparable text ("" where absent; NaN reads "nan")."""
    return str(row.get(field, ""))


def varying(rows, fields):
    """The fields (in order) that take more than one value over rows."""
    return [f for f in fields if len({cell(r, f) for r in rows}) > 1]


def same_partition(rows, a, b):
    """True when fields a and b split rows alike: each value of one goes with one value of
    the other (the sweep axis "param.system", a path, beside the summary's system name)."""
    pairs = {(cell(r, a), cell(r, b)) for r in rows}
    return len(pairs) == len({p[0] for p in pairs}) == len({p[1] for p in pairs})


def param_columns(rows):
    if not rows:
        return []
    return [k for k in rows[0] if k.startswith("param.")]


def other_config(rows, exclude):
    """Config fields and param columns that vary over rows, minus `exclude`
    and minus any field that only renames one already named or excluded (same_partition:
    a `param.replicas` axis that goes with the system's name adds nothing to it)."""
    fields = CONFIG_FIELDS + [p for p in param_columns(rows)
                              if p[len("param."):] not in CONFIG_FIELDS]
    var = varying(rows, fields)
    named = [f for f in var if f in exclude]
    out = []
    for f in var:
        if f in exclude or any(same_partition(rows, f, g) for g in named + out):
            continue
        out.append(f)
    return out


def short(field):
    field = field[len("param."):] if field.startswith("param.") else field
    return "seq" if field == "sequence_length" else field


def fmt_value(v, missing=""):
    """A value as text: integral floats without ".0"; a missing value (None, NaN, "") as
    `missing` ("" for CSV cells, MISSING in legends)."""
    if v is None or v == "" or (isinstance(v, float) and math.isnan(v)):
        return missing
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def label_of(row, fields):
    return ", ".join("%s=%s" % (short(f), fmt_value(row.get(f, ""), MISSING)) for f in fields)


def sort_key(v):
    n = number(v)
    return (0, n, "") if n is not None else (1, 0.0, str(v))


# ----------------------------------------------------------------------------- axes

def span_decades(values):
    vals = [v for v in values if v is not None and v > 0 and math.isfinite(v)]
    if len(vals) < 2:
        return 0.0
    return math.log10(max(vals) / min(vals))


def maybe_log(ax, values, axis="y", decades=1.5):
    """A log scale on `axis` when the positive values span more than `decades`; True if set."""
    if span_decades(values) > decades:
        (ax.set_yscale if axis == "y" else ax.set_xscale)("log")
        return True
    return False


def scaled_unit(max_v, base):
    """(unit, scale) that shows values up to max_v (in `base`: "s", "J") as numbers >= 1:
    ("ms", 1e-3) for 0.25 s; pico is the smallest."""
    for prefix, scale in (("", 1.0), ("m", 1e-3), ("µ", 1e-6), ("n", 1e-9)):
        if max_v >= scale:
            return prefix + base, scale
    return "p" + base, 1e-12


def time_unit(max_s):
    return scaled_unit(max_s, "s")


def fmt_seconds(v):
    """A duration in its own unit, 4 digits: "35.24 ms"."""
    unit, scale = time_unit(v)
    return "%.4g %s" % (v / scale, unit)


def label_probed(ax, xs):
    """One labelled x tick per probed value (on a log axis: no minor ticks between)."""
    ax.set_xticks(xs)
    ax.set_xticklabels([fmt_value(x) for x in xs])
    ax.xaxis.set_minor_locator(NullLocator())


def palette(n):
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    return [cmap(i % cmap.N) for i in range(n)]


def line_styles(colour_keys, style_keys, sequential):
    """{colour key: colour} and {style key: (linestyle, marker)}. A sequential colour map
    (viridis, short of its pale yellow end) when the colour key is ordinal (multiplex)."""
    n = len(colour_keys)
    if sequential:
        cmap = plt.get_cmap("viridis")
        colours = {k: cmap(0.85 * i / max(1, n - 1)) for i, k in enumerate(colour_keys)}
    else:
        colours = dict(zip(colour_keys, palette(n)))
    dashes, marks = ["-", "--", ":", "-."], "osD^v<>phX*"
    styles = {k: (dashes[i % len(dashes)], marks[i % len(marks)])
              for i, k in enumerate(style_keys)}
    return colours, styles


def finish_grid(fig, handles, line_fields, title, out, name):
    """The end of a grid of panels: the labelled lines' legend beside the grid (so that it
    covers no panel), titled by the fields the lines vary in, the figure's title, and the
    figure saved as `name`. Returns the number of axes drawn."""
    labelled = [handles[k] for k in sorted(handles) if handles[k][1]]
    if labelled:
        fig.legend([h for h, _ in labelled], [l for _, l in labelled],
                   loc="upper left", bbox_to_anchor=(1.0, 0.97), fontsize="small",
                   title=", ".join(short(f) for f in line_fields))
    fig.suptitle(title)
    n_axes = len(fig.axes)
    out.save(fig, name)
    return n_axes
