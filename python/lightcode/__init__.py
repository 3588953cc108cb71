"""LightCode from Python: place an LLM's operations on CPU, GPU and photonic (PHU) hardware,
time the placed schedule, and read the results as pandas DataFrames.

    import lightcode
    points = lightcode.run("scenarios/seed_table.yaml")       # the published seed table
    points[["system", "sequence_length", "makespan_s", "energy_pj"]]
    points.point("p0002").tasks                                # one point's placed tasks
    lightcode.sweep("scenarios/phu_scaling.yaml", jobs=2)       # one worker process per point
    lightcode.run({"name": "mine", "model": "gpt2", "stage": "prefill", "sequence_length": 150,
                   "system": "configs/systems/cpu_phu.yaml", "objective": "time",
                   "profile": "lightcode", "fidelity": "analytical"})
    lightcode.inspect("llama-2-7b", seq=2048).nodes            # one row per graph node
    lightcode.cost("configs/systems/gpu.yaml", model="gpt2", seq=150, node=12)
    data = lightcode.dataset("scenarios/dataset.yaml", out="results/dataset.h5", jobs=2)
    data.ops, data.graphs, data.provenance                     # docs/DATASET.md

Scenarios are the command line's (docs/CONFIG.md lists every key); a dict is the same YAML
as a Python value. Analytical points run in this process; event-fidelity points and every
sweep point run in forked worker processes, because SystemC elaborates once per process.
Results go to the same HDF5 file `lightcode run` writes (the scenario's `output:`, else
results/<name>.h5, or `out=`), and come back as a Points frame with the columns of
tools/lightcode_results.py. Input errors raise lightcode.Error with file, line, column and key.
"""
import json
import os
import sys

_DEBIAN_PACKAGES = "/usr/lib/python3/dist-packages"


def _reach_debian_packages():
    """The module is built for Debian's python3 and reads results with Debian's pandas and
    h5py. Another CPython of the same version (a pyenv interpreter first on PATH, say) may
    lack them: it then also looks in Debian's folder, after its own (its own packages win)."""
    try:
        import h5py  # noqa: F401
        import pandas  # noqa: F401
    except ImportError:
        if os.path.isdir(_DEBIAN_PACKAGES) and _DEBIAN_PACKAGES not in sys.path:
            sys.path.append(_DEBIAN_PACKAGES)


_reach_debian_packages()

try:
    from . import _core
except ImportError as e:  # built for another Python version, or not built
    raise ImportError(
        "lightcode's compiled part (lightcode/_core*.so) does not load in Python %d.%d at %s: %s. "
        "It is built by `make build` for Debian's /usr/bin/python3; run that interpreter, or "
        "rebuild with -DPython_EXECUTABLE=<this python>." % (sys.version_info[0], sys.version_info[1],
                                                            sys.executable, e)) from None

from ._frames import Points, load_points
from .errors import Error, PointsFailed

__version__ = _core.__version__
__all__ = ["run", "sweep", "serve", "inspect", "cost", "dataset", "load", "load_dataset", "Points", "Graph",
           "Dataset", "Error", "PointsFailed"]


def _scenario(scenario, base_dir):
    """(path, text, dir) for the simulator: a file path as is; a dict as YAML text whose
    relative paths resolve against base_dir (default: the working directory)."""
    if isinstance(scenario, (str, os.PathLike)):
        if base_dir is not None:
            raise TypeError("base_dir applies to a scenario given as a dict; a file's paths are relative to the file")
        return os.fspath(scenario), None, ""
    if isinstance(scenario, dict):
        import yaml  # Debian's python3-yaml

        text = yaml.safe_dump(scenario, sort_keys=False)
        name = "<scenario %s>" % scenario.get("name", "given as a dict")
        return name, text, os.fspath(base_dir) if base_dir is not None else os.getcwd()
    raise TypeError("a scenario is a YAML file's path or a dict, not %s" % type(scenario).__name__)


def _settings(settings):
    """--set overrides: a dict {key: value} (values as YAML/JSON, strings as they are) or a
    list of "key=value" strings, exactly as on the command line."""
    if settings is None:
        return []
    if isinstance(settings, dict):
        return ["%s=%s" % (k, v if isinstance(v, str) else json.dumps(v)) for k, v in settings.items()]
    return [str(s) for s in settings]


def _finish(done, strict):
    points = load_points(done["out"])
    if done["failed"]:
        message = "%d of %d points failed: %s" % (done["failed"], len(points),
                                                  "; ".join("%s: %s" % e for e in done["errors"]))
        if strict:
            raise PointsFailed(message, done["errors"], done["out"])
        import warnings

        warnings.warn(message + " (the results file keeps them, with status 'failed')", stacklevel=3)
    return points


def run(scenario, *, set=None, out=None, base_dir=None, threads=None, contention=True, strict=False):
    """Run every point of `scenario` (a YAML file or a dict) as `lightcode run` does and return
    the points as a Points DataFrame. `set` overrides keys as --set does ({"objective":
    "energy"}); `out` is the results file (default: the scenario's `output:`, else
    results/<name>.h5); `threads` the threads a point may use (default: every core; the figures
    do not depend on it); `contention=False` is --no-contention. Failed points are rows with
    status "failed" and a warning, or PointsFailed with strict=True."""
    path, text, directory = _scenario(scenario, base_dir)
    done = _core.run(path, text, directory, _settings(set), "" if out is None else os.fspath(out),
                     threads or _core.hardware_threads(), contention)
    return _finish(done, strict)


def sweep(scenario, *, set=None, out=None, jobs=None, resume=False, base_dir=None, contention=True, strict=False):
    """Run every point of `scenario`'s sweep axes in worker processes, `jobs` at a time
    (default: every core), as `lightcode sweep` does: finished points are kept as they
    finish; resume=True continues an interrupted sweep of the same scenario."""
    path, text, directory = _scenario(scenario, base_dir)
    done = _core.sweep(path, text, directory, _settings(set), "" if out is None else os.fspath(out),
                       jobs or _core.hardware_threads(), resume, contention)
    return _finish(done, strict)


def serve(scenario, **options):
    """A serving study (points of stage serve: a request stream on replicas with batching, KV
    memory and dispatch), run as run() runs it. The Points frame shows the latency percentiles,
    throughput and energy per token; points.point(id).requests and .serve_series give the
    per-request and per-iteration tables."""
    points = run(scenario, **options)
    others = sorted({s for s in points["stage"] if s != "serve"})
    if others:
        raise Error("serve() runs serving studies, but this scenario's points include stage %s: use run()"
                    % ", ".join(others))
    return points


def load(path):
    """A results file written by lightcode run, sweep or merge, as a Points frame."""
    return load_points(os.fspath(path))


class Graph:
    """A model's graph: `summary` (dict: nodes, kinds, macs, flops, bytes by dtype), `nodes`
    (DataFrame: id, name, kind, inputs, input_shapes, output_shapes, dtype, macs, flops)."""

    def __init__(self, found):
        import pandas as pd

        self.summary = found["summary"]
        self.nodes = pd.DataFrame(found["nodes"])

    @property
    def macs(self):
        return self.summary["macs"]

    def __repr__(self):
        s = self.summary
        kinds = ", ".join("%s %d" % kv for kv in sorted(s["kinds"].items(), key=lambda kv: -kv[1])[:8])
        return "Graph(%s: %d nodes, %d MACs, %d FLOPs; %s ...)" % (s["source"], s["nodes"], s["macs"], s["flops"], kinds)


def inspect(model, *, seq=None, stage="prefill", kv=None, logits="last", traced_len=None):
    """A model's graph (a built-in name from configs/models/, or a TVM JSON / ONNX file), as
    `lightcode inspect` reads it: seq is the prefill length, kv the KV-cache length of a
    decode step (stage="decode")."""
    if stage == "decode" and seq is not None:
        raise Error("seq is the prefill length; a decode step takes kv (the KV-cache length)")
    if stage == "prefill" and kv is not None:
        raise Error("kv applies to stage='decode'; a prefill takes seq")
    return Graph(_core.inspect(os.fspath(model), stage, kv if kv is not None else seq, logits, traced_len))


def cost(system, op=None, *, model=None, node=None, seq=None, stage="prefill", kv=None, profile="default"):
    """What each compute unit of `system` (a configs/systems/*.yaml file) would take for one op:
    one row per (unit, algorithm) with time_s, time_ps, energy_pj, bytes and the bound, from the
    cost model the selector and the schedulers use. The op is `node` (name or id) of `model`'s
    graph, or `op` = {"kind": "dense", "inputs": [[150, 768], [768, 768]], "output": [150, 768],
    "dtype": "float32", "attrs": {...}}. The frame's .attrs["op"] has its name, kind, MACs, FLOPs."""
    import pandas as pd

    if (op is None) == (model is None):
        raise TypeError("cost() takes either op= (a description) or model= and node=")
    if model is not None and node is None:
        raise TypeError("cost(model=...) needs node= (a node's name or id: lightcode.inspect lists them)")
    length = kv if stage == "decode" else seq
    found = _core.cost(os.fspath(system), profile, None if model is None else os.fspath(model), stage, length,
                       node, op)
    frame = pd.DataFrame(found["rows"])
    frame.attrs["op"] = found["op"]
    return frame


class Dataset:
    """A runtime dataset file (docs/DATASET.md): its tables as DataFrames, read when asked for
    (ops, graphs, edges, placement, alternatives, iterations, hardware, hardware_parameters,
    families, points, inputs; table(name) for any), and its provenance (the root attributes:
    tool version, scenario text and digest, settings, fidelity, seeds, split rule)."""

    TABLES = ("points", "graphs", "ops", "edges", "placement", "alternatives", "iterations", "hardware",
              "hardware_parameters", "families", "inputs")

    def __init__(self, path, summary=None):
        self.path = os.fspath(path)
        self.summary = summary  # what writing it reported (rows per table, seconds), when it was written here

    def _open(self):
        import h5py

        if not os.path.isfile(self.path):
            raise FileNotFoundError("%s: no such file" % self.path)
        return h5py.File(self.path, "r")

    def table(self, name):
        from . import _results

        with self._open() as f:
            if name not in f or not getattr(f[name], "dtype", None) or not f[name].dtype.names:
                raise KeyError("%s has no table %r (its tables: %s)" % (self.path, name, ", ".join(sorted(f.keys()))))
            return _results.frame(_results.read_columns(f[name]))

    @property
    def provenance(self):
        from . import _results

        with self._open() as f:
            return {k: _results.text(v) if isinstance(v, (bytes, str)) else _results.value(v) for k, v in f.attrs.items()}

    def __getattr__(self, name):
        if name in Dataset.TABLES:
            return self.table(name)
        raise AttributeError(name)

    def __repr__(self):
        rows = ", ".join("%s %d" % kv for kv in (self.summary or {}).get("rows", {}).items())
        return "Dataset(%s%s)" % (self.path, ": " + rows if rows else "")


def dataset(scenario, *, out, set=None, jobs=None, base_dir=None, validation_families=(), test_families=()):
    """The runtime dataset of every point of `scenario` (a file or a dict), as `lightcode
    dataset` writes it to `out` (HDF5; docs/DATASET.md has the schema): per-op, per-graph and
    per-serving-iteration records, the hardware descriptors, provenance, and train/validation/
    test splits by model family (the named families, else by their name's hash). Analytical
    points run on `jobs` threads (default: every core); a scenario with an event-fidelity point
    runs its points in worker processes. Returns a Dataset; failed points are rows of its
    `points` table (and a warning)."""
    path, text, directory = _scenario(scenario, base_dir)
    done = _core.dataset(path, text, directory, _settings(set), os.fspath(out), jobs or _core.hardware_threads(),
                         list(validation_families), list(test_families))
    if done["failed"]:
        import warnings

        warnings.warn("%d of %d points failed (the dataset's points table says why)" % (done["failed"], done["points"]),
                      stacklevel=2)
    return Dataset(done["out"], done)


def load_dataset(path):
    """A dataset file written by `lightcode dataset` or lightcode.dataset()."""
    return Dataset(path)
