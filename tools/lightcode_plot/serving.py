"""What the serving figures (latency_cdf.png, serve_load.png, serve_queue_<id>.png) share:
the serve points as lines.

A serving study may hold serve points of several systems (a replicas sweep axis, or two
results files merged: their summaries' `system` differ) beside several dispatch policies. A
line is one (hardware, dispatch policy, other varying fields) at every arrival rate:
  - hardware: the fields among HARDWARE_FIELDS that vary (a field that only renames another,
    such as a `param.replicas` axis that goes with the system's name, is left out);
  - colour: by hardware when it varies, else by dispatch policy; line style and marker by
    what remains (the dispatch policy, then the other fields);
  - name: "H100-SXM · round_robin" (the policy left out when there is one, the hardware when
    it does not vary), "k=v" for the other fields.
"""
from .common import (arrival_rate, dispatch_of, label_of, line_styles, other_config,
                     rate_columns, same_partition, short, sort_key, varying)

# The dispatch policies (sim/serve/dispatch.hpp) in the order that gives their colours; any
# other name comes after them, alphabetically.
DISPATCH_ORDER = ["round_robin", "least_outstanding_tokens", "prompt_length"]
# Summary fields and sweep axes that say which hardware served: the system's name, the number
# of replicas, and the axes that choose them.
HARDWARE_FIELDS = ["system", "replicas", "param.replicas", "param.system"]
DISPATCH_FIELDS = {"dispatch", "param.dispatch"}
SEP = " · "


def dispatch_key(name):
    return (DISPATCH_ORDER.index(name) if name in DISPATCH_ORDER else len(DISPATCH_ORDER), name)


def hardware_fields(serve):
    """The HARDWARE_FIELDS that vary over the serve points, each naming something new."""
    out = []
    for f in varying(serve, HARDWARE_FIELDS):
        if not any(same_partition(serve, f, g) for g in out):
            out.append(f)
    return out


def hardware_label(row, hw):
    if hw == ["system"]:
        return str(row.get("system", ""))
    return label_of(row, hw)


class ServeLines:
    """The serve points as lines (see the module): `lines` {key: {"name", "pts": {rate:
    row}, "look": (colour, linestyle, marker), "rest": the key less its hardware}}, with key =
    (hardware key, dispatch key, other fields' key); `hw` and `others` the fields that distinguish them;
    `title` the legend's title. The rate of a trace-driven point is 0; the first point wins
    where several share a line and rate."""

    def __init__(self, serve):
        self.hw = hardware_fields(serve)
        self.dispatches = sorted({dispatch_of(r) for r in serve}, key=dispatch_key)
        exclude = DISPATCH_FIELDS | set(rate_columns(serve)) | set(HARDWARE_FIELDS)
        self.others = other_config(serve, exclude=exclude)
        show_dispatch = len(self.dispatches) > 1 or not self.hw
        self.lines = {}
        for r in serve:
            hkey = tuple(sort_key(r.get(f, "")) for f in self.hw)
            d = dispatch_of(r)
            okey = tuple(sort_key(r.get(f, "")) for f in self.others)
            parts = ([hardware_label(r, self.hw)] if self.hw else []) + (
                [d] if show_dispatch else []) + ([label_of(r, self.others)] if self.others else [])
            ln = self.lines.setdefault((hkey, dispatch_key(d), okey), {
                "name": SEP.join(parts), "pts": {}, "rest": (dispatch_key(d), okey)})
            ln["pts"].setdefault(arrival_rate(r) or 0.0, r)
        if self.hw:
            colour_of, style_of = (lambda k: k[0]), (lambda k: k[1:])
        else:
            colour_of, style_of = (lambda k: k[1]), (lambda k: k[2])
        colours, styles = line_styles(sorted({colour_of(k) for k in self.lines}),
                                      sorted({style_of(k) for k in self.lines}),
                                      sequential=False)
        for k, ln in self.lines.items():
            ln["look"] = (colours[colour_of(k)],) + styles[style_of(k)]
        parts = ([", ".join(short(f) for f in self.hw)] if self.hw else []) + (
            ["dispatch"] if show_dispatch else []) + (
            [", ".join(short(f) for f in self.others)] if self.others else [])
        self.title = SEP.join(parts)

    def keys(self):
        return sorted(self.lines)

    def rates(self):
        return sorted({x for ln in self.lines.values() for x in ln["pts"]})

    def line_of(self, pid):
        """(key, rate) of the point with id `pid`, or (None, None)."""
        for k, ln in self.lines.items():
            for x, r in ln["pts"].items():
                if str(r.get("id", "")) == pid:
                    return k, x
        return None, None

    def same_but_hardware(self, pid):
        """The serve points that differ from `pid` only in hardware, `pid` first, as [(line
        key, row)]: what serve_queue_<id>.png draws side by side."""
        key, rate = self.line_of(pid)
        if key is None:
            return []
        out = [(key, self.lines[key]["pts"][rate])]
        for k in self.keys():
            if k != key and self.lines[k]["rest"] == self.lines[key]["rest"] \
                    and rate in self.lines[k]["pts"]:
                out.append((k, self.lines[k]["pts"][rate]))
        return out
