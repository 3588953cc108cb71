"""Results as pandas DataFrames (the package's part; see lightcode.run).

A Points frame is an ordinary DataFrame, one row per point, with exactly the columns of
tools/lightcode_results.py's load_points (it is that function's result); it also knows the
results file it came from (`.path`) and reads a point's other tables from it:
points.point("p0003").tasks, .units, .energy, .requests, .serve_series, .table(name). Printed, it
shows the figures that matter for its points' stages — the seed table's columns for
prefill and decode points, latency and throughput for serving — rather than 67 truncated
columns; every column is still there (`.columns`, `df["lower_bound"]`).
"""
import pandas as pd

from . import _results

# Shown by repr, in this order, where some point has a value: identity, then each stage's figures.
_SHOWN = [
    "id", "status", "system", "model", "stage", "sequence_length", "objective", "fidelity",
    "tensor_parallel",
    "makespan_s", "energy_pj", "nodes", "photonic_selected", "photonic_possible",
    "new_tokens", "ttft_s", "tpot_s", "energy_per_token_pj",
    "requests", "replicas", "ttft_p50_s", "tpot_p50_s", "latency_p99_s", "throughput_tokens_per_s",
    "goodput_requests_per_s", "average_power_w",
]
# The console table's precision for the seed table's figures (sim/results/console_table.cpp).
_FORMATS = {"makespan_s": "{:.5f}".format, "energy_pj": "{:.1f}".format}


def _useful(column):
    if column.dtype == object:
        return (column.astype(str) != "").any()
    if column.dtype.kind == "f":
        return column.notna().any()
    return True


class Points(pd.DataFrame):
    """One row per point of a results file; `.path` is the file."""

    _metadata = ["path", "parameters"]

    @property
    def _constructor(self):
        return Points

    def _shown(self):
        columns = [c for c in _SHOWN if c in self.columns and _useful(self[c])]
        if "status" in columns and (self["status"] == "ok").all():
            columns.remove("status")
        if "tensor_parallel" in columns and (self["tensor_parallel"] == 1).all():
            columns.remove("tensor_parallel")  # one device: nothing to say
        params = [c for c in (getattr(self, "parameters", None) or []) if c in self.columns]
        return columns + [c for c in params if c not in columns]

    def _is_points(self):
        return not self.empty and "id" in self.columns and getattr(self, "path", None) is not None

    def _footer(self):
        return f"{len(self)} points x {len(self.columns)} columns; all of them in .columns; results file {self.path}"

    def __repr__(self):
        if not self._is_points():  # a selection of columns or rows: as pandas shows it
            return super().__repr__()
        shown = pd.DataFrame(self[self._shown()])
        text = shown.to_string(index=False, formatters={k: f for k, f in _FORMATS.items() if k in shown})
        return f"{text}\n[{self._footer()}]"

    def _repr_html_(self):  # Jupyter: the same columns as a table
        if not self._is_points():
            return super()._repr_html_()
        shown = pd.DataFrame(self[self._shown()])
        html = shown.to_html(index=False, formatters={k: f for k, f in _FORMATS.items() if k in shown})
        return f"{html}<p>{self._footer()}</p>"

    def __str__(self):
        return self.__repr__()

    def point(self, point_id):
        """One point's other tables, read from the results file when asked for."""
        if point_id not in set(self["id"]):
            raise KeyError("no point %r in %s (its ids: %s)" % (point_id, self.path, ", ".join(self["id"][:8])))
        return PointTables(self.path, point_id)


class PointTables:
    """The tables of one point of a results file: tasks, units, energy, requests and
    serve_series (stage serve), parameters, and table(name) for any other."""

    def __init__(self, path, point_id):
        self.path = path
        self.id = point_id

    @property
    def tasks(self):
        return _results.load_tasks(self.path, self.id)

    @property
    def units(self):
        return _results.load_units(self.path, self.id)

    @property
    def energy(self):
        return _results.load_energy(self.path, self.id)

    @property
    def requests(self):
        return _results.load_requests(self.path, self.id)

    @property
    def serve_series(self):
        return _results.load_serve_series(self.path, self.id)

    @property
    def parameters(self):
        return _results.load_point_parameters(self.path, self.id)

    def table(self, name):
        return _results.load_table(self.path, self.id, name)

    def __repr__(self):
        return "PointTables(%s, %s)" % (self.path, self.id)


def load_points(path):
    """The results file's points (tools/lightcode_results.py load_points) as a Points frame;
    `.parameters` names its sweep-parameter columns."""
    frame = Points(_results.load_points(path))
    frame.path = str(path)
    with _results.open_results(path) as f:
        fields = list(f["summary"].dtype.names)
    frame.parameters = list(_results.parameter_names(fields).values())
    return frame
