#!/usr/bin/python3
"""Read LightCode results files (HDF5, written by `lightcode run` / `sweep` / `merge`).

Library:

  load_points(path, stage=None)  pandas.DataFrame, one row per point of /summary in file order
                                 (only the points of `stage` when given)
  load_tasks(path, point_id)     /points/<id>/tasks            as a DataFrame
  load_units(path, point_id)     /points/<id>/units            as a DataFrame
  load_energy(path, point_id)    /points/<id>/energy_breakdown as a DataFrame
  load_requests(path, point_id)  /points/<id>/requests         as a DataFrame (stage serve)
  load_serve_series(path, point_id)  /points/<id>/serve_series as a DataFrame (stage serve)
  load_table(path, point_id, name)   any other per-point table (e.g. "memory_profile")
  load_point_parameters(path, point_id)   the point's sweep parameters as a dict

Every string column comes back as str (h5py reads HDF5 strings as bytes; they are decoded
as UTF-8, NUL padding removed); numeric columns keep the file's dtype (int32 stays int32).
In load_points, the sweep parameter columns "param.<name>" are named "<name>" unless that
collides with a summary field (then the "param." prefix stays: "param.system" holds the
system file, "system" the system's name; likewise a serve sweep's "param.dispatch" beside the
summary's "dispatch"). Parameter columns are numeric where the file stores numbers:

  format_version 2+  as stored: int64, float64 (NaN where a point lacks the parameter) or str
                     (3 adds the tasks' `covers`: a fused kernel's ir nodes; 4 the
                     summary's precision and search figures and a point's `pareto` table;
                     5 the tasks' `step`: 0 = prefill, t = decode step t of a stage generate
                     point, whose tasks table holds every step at absolute times; stage
                     serve's summary figures, requests .. preemptions, and a serve point's
                     `requests` and `serve_series` tables; 6 as 5, but a summary field that
                     does not apply to a point's stage is NaN, not 0: a serve point's
                     sequence_length, nodes, ..., a prefill point's requests, ttft_p50_s, ...
                     Such fields are float64 columns (NaN where they do not apply) and are
                     read as stored; version 5 and earlier store 0 or "" there)
  format_version 1   every parameter is a string in the file; a column becomes int64 when
                     every value is an integer, float64 when every non-empty value is a
                     number (empty, i.e. missing, gives NaN, as version 2 stores it), else
                     it stays str

A file without a root `format_version` attribute is read as version 1; a newer version is
read like version 2 (the column types say what they hold). Choose points by their `stage`
column (load_points(path, stage="serve")), never by a figure being 0 or NaN: a field that
does not apply reads 0 in version 5 and NaN in version 6.

Errors: FileNotFoundError for a missing file, ValueError naming the path for a file that is
not a LightCode results file (not HDF5, or no compound /summary table with an "id" field),
KeyError for a point or table that the file does not have.

Command line:  python3 tools/lightcode_results.py FILE.h5 [--point ID [--table NAME]]
prints the points table (or one point's table); exit 2 on an error.

The plain readers (open_results, read_table, read_columns, text, value, number,
leading_number) need only h5py and numpy, so tools/plot.py uses them without pandas; the
load_* functions need pandas (Debian: python3-pandas), imported when first called.
"""
import argparse
import math
import os
import re
import sys

import h5py
import numpy as np

PARAM_PREFIX = "param."
TABLES = {"tasks": "tasks", "units": "units", "energy": "energy_breakdown",
          "energy_breakdown": "energy_breakdown", "memory_profile": "memory_profile",
          "summary": "summary", "pareto": "pareto", "requests": "requests",
          "serve_series": "serve_series"}
# Point attributes that are not sweep parameters (hdf5_file.hpp: status, error, then params).
POINT_STATUS_ATTRS = ("status", "error")

INT_RE = re.compile(r"[+-]?\d+")
FLOAT_RE = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


# ----------------------------------------------------------------------------- plain values

def text(v):
    """A string field from h5py (bytes, numpy.bytes_, str or anything) as str; stops at the
    first NUL (fixed-width HDF5 strings are NUL-padded)."""
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).split(b"\0", 1)[0].decode("utf-8", "replace")
    if isinstance(v, str):
        return v.split("\0", 1)[0]
    if hasattr(v, "tobytes") and getattr(v, "dtype", None) is not None and v.dtype.kind in "SV":
        return v.tobytes().split(b"\0", 1)[0].decode("utf-8", "replace")
    if hasattr(v, "item"):
        return text(v.item())
    return str(v)


def value(v):
    """A field or attribute value as a plain Python str / int / float / bool."""
    if isinstance(v, (bytes, bytearray, str)):
        return text(v)
    if hasattr(v, "dtype"):
        k = v.dtype.kind
        if k in "SOUV":
            return text(v)
        if k in "iu":
            return int(v)
        if k == "f":
            return float(v)
        if k == "b":
            return bool(v)
    if hasattr(v, "item"):
        return value(v.item())
    return v


def number(v):
    """A float from a number or a numeric string; None when it is neither, or not finite
    (NaN is how format 2 stores a missing parameter)."""
    if v is None:
        return None
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float, np.integer, np.floating)):
        f = float(v)
    else:
        try:
            f = float(str(v).strip())
        except ValueError:
            return None
    return f if math.isfinite(f) else None


def leading_number(v):
    """number(v), or for text the number it starts with ("20 req/s" -> 20.0: a parameter
    written with a unit); None when there is none."""
    f = number(v)
    if f is not None or not isinstance(v, str):
        return f
    m = FLOAT_RE.match(v.strip())
    return number(m.group(0)) if m else None


# ----------------------------------------------------------------------------- tables

def is_string_dtype(dt):
    """True for HDF5 string fields as h5py maps them: fixed-width (S), vlen (O) or opaque."""
    return dt.kind in "SOUV"


def decode_strings(col):
    """A column of HDF5 strings as a list of str, decoding each distinct value once (task
    tables have 10^5+ rows but few distinct op / hardware names)."""
    cache = {}
    out = []
    for x in col.tolist() if col.dtype.kind in "SU" else col:
        key = x if isinstance(x, (bytes, str)) else text(x)
        s = cache.get(key)
        if s is None:
            s = cache[key] = text(x)
        out.append(s)
    return out


def read_columns(ds, wanted=None):
    """Fields of a 1-D compound dataset as {name: column}; string columns as lists of str,
    numeric columns as numpy arrays of the stored dtype. A wanted field the table lacks maps
    to None. `wanted` None means every field, in file order."""
    names = ds.dtype.names or ()
    data = ds[()]
    out = {}
    for n in (names if wanted is None else wanted):
        if n not in names:
            out[n] = None
        elif is_string_dtype(data.dtype[n]):
            out[n] = decode_strings(data[n])
        else:
            out[n] = np.asarray(data[n])
    return out


def read_table(ds):
    """A 1-D compound dataset as a list of dicts of plain values ([] when it is not one)."""
    names = ds.dtype.names
    if not names or ds.shape is None or len(ds.shape) != 1:
        return []
    cols = read_columns(ds)
    lists = {n: c if isinstance(c, list) else c.tolist() for n, c in cols.items()}
    return [{n: lists[n][i] for n in names} for i in range(ds.shape[0])]


# ----------------------------------------------------------------------------- files

def open_results(path):
    """The results file at `path` open read-only, checked to be a LightCode results file.

    Raises FileNotFoundError ("<path>: no such file") when it is missing, ValueError
    naming the path when it is not HDF5 or has no compound /summary table with an "id"
    field. The caller closes the returned h5py.File (it is a context manager)."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise FileNotFoundError("%s: no such file" % path)
    try:
        f = h5py.File(path, "r")
    except OSError as e:
        raise ValueError("%s: not an HDF5 file (%s)" % (path, e)) from None
    summary = f.get("summary")
    if (not isinstance(summary, h5py.Dataset) or not summary.dtype.names
            or "id" not in summary.dtype.names or len(summary.shape or ()) != 1):
        f.close()
        raise ValueError("%s: not a LightCode results file (no /summary table)" % path)
    return f


def format_version(f):
    """The file's root `format_version` attribute as an int; 1 when absent (early files)."""
    v = number(value(f.attrs["format_version"])) if "format_version" in f.attrs else None
    return int(v) if v is not None else 1


def parameter_names(summary_fields):
    """{file column: DataFrame column} for the "param.<name>" fields: "<name>", or the full
    "param.<name>" when "<name>" is also a summary field or another column already."""
    taken = {n for n in summary_fields if not n.startswith(PARAM_PREFIX)}
    out = {}
    for n in summary_fields:
        if n.startswith(PARAM_PREFIX):
            short = n[len(PARAM_PREFIX):]
            out[n] = n if short in taken else short
            taken.add(out[n])
    return out


def numeric_strings(values):
    """A format-1 parameter column (list of str) as an int64 array when every value is an
    integer in range, float64 when every non-empty value is a number and one is present
    (empty -> NaN, the missing value), else None (it stays text). Only plain decimal
    notation counts: "nan", "inf", "1_000" or " 5" are text."""
    present = [v for v in values if v != ""]
    if not present or any(not FLOAT_RE.fullmatch(v) for v in present):
        return None
    if len(present) == len(values) and all(INT_RE.fullmatch(v) for v in values):
        ints = [int(v) for v in values]
        if all(INT64_MIN <= i <= INT64_MAX for i in ints):
            return np.array(ints, dtype=np.int64)
    return np.array([float(v) if v != "" else np.nan for v in values], dtype=np.float64)


def pandas():
    """pandas, imported on first use so that the plain readers work without it."""
    try:
        import pandas as pd
    except ImportError as e:
        raise ImportError("the lightcode_results loaders need pandas (apt-get install "
                          "python3-pandas): %s" % e) from None
    return pd


def frame(columns):
    """A DataFrame from {name: list of str | numpy array}, strings as object columns of str."""
    pd = pandas()
    return pd.DataFrame({n: (pd.Series(c, dtype=object) if isinstance(c, list) else c)
                         for n, c in columns.items()})


def load_points(path, stage=None):
    """/summary of the results file at `path` as a DataFrame: one row per point in file
    order (a RangeIndex; the point id is the "id" column), strings decoded to str, parameter
    columns renamed and typed as the module docstring says; with `stage` ("prefill",
    "serve", ...) only that stage's points, renumbered from 0. Raises as open_results does."""
    with open_results(path) as f:
        version = format_version(f)
        cols = read_columns(f["summary"])
    renamed = parameter_names(list(cols))
    out = {}
    for n, c in cols.items():
        if n in renamed and version < 2 and isinstance(c, list):
            num = numeric_strings(c)
            c = num if num is not None else c
        out[renamed.get(n, n)] = c
    df = frame(out)
    if stage is not None and "stage" in df.columns:
        df = df[df["stage"] == stage].reset_index(drop=True)
    return df


def point_group(f, path, point_id):
    """The /points/<id> group; KeyError naming the file and point when it is absent."""
    g = f.get("points/%s" % point_id) if "/" not in str(point_id) else None
    if not isinstance(g, h5py.Group):
        raise KeyError("%s: no point %r" % (path, point_id))
    return g


def load_table(path, point_id, name):
    """The per-point table /points/<point_id>/<name> as a DataFrame (strings decoded, numeric
    dtypes as stored; no rows for an empty table). `name` is a dataset name or one of the
    short names in TABLES ("energy" = "energy_breakdown"). KeyError when the point or the
    table is absent; the file is checked as in open_results."""
    name = TABLES.get(name, name)
    with open_results(path) as f:
        ds = point_group(f, path, point_id).get(name)
        if not isinstance(ds, h5py.Dataset) or not ds.dtype.names:
            raise KeyError("%s: point %r has no %r table" % (path, point_id, name))
        return frame(read_columns(ds))


def load_tasks(path, point_id):
    """The point's schedule, one row per task (TaskRecord fields: id, name, op, hardware,
    unit, node, subgraph, start_ps, end_ps, energy_pj, inputs, outputs)."""
    return load_table(path, point_id, "tasks")


def load_units(path, point_id):
    """Per-unit and per-link statistics of the point (UnitRecord fields)."""
    return load_table(path, point_id, "units")


def load_energy(path, point_id):
    """The point's energy breakdown: hardware, category, energy_pj."""
    return load_table(path, point_id, "energy_breakdown")


def load_requests(path, point_id):
    """A serve point's requests, one row per request (RequestRow fields: id, replica,
    prompt_tokens, output_tokens, arrival_ps, first_service_ps, first_token_ps, finish_ps,
    ttft_s, tpot_s, latency_s, preemptions). KeyError for a point of another stage."""
    return load_table(path, point_id, "requests")


def load_serve_series(path, point_id):
    """A serve point's queue over time (ServeSample fields: replica, time_ps, queue,
    running): each replica's waiting and running sequences from time_ps on, one row per
    change. KeyError for a point of another stage."""
    return load_table(path, point_id, "serve_series")


def load_point_parameters(path, point_id):
    """The point's sweep parameters from the attributes of /points/<id>, in file order, as
    {name: value}: int / float where the file stores numbers (format 2), else str."""
    with open_results(path) as f:
        attrs = point_group(f, path, point_id).attrs
        return {k: value(attrs[k]) for k in attrs if k not in POINT_STATUS_ATTRS}


# ----------------------------------------------------------------------------- command line

def main(argv=None):
    ap = argparse.ArgumentParser(
        prog="lightcode_results.py",
        description="Print the points of a LightCode results file (its /summary, decoded), "
                    "or one point's table.",
        epilog="Example: /usr/bin/python3 tools/lightcode_results.py results/seed_table.h5")
    ap.add_argument("results", help="a LightCode results file (.h5)")
    ap.add_argument("--point", metavar="ID", help="print this point's table instead")
    ap.add_argument("--table", default="tasks", choices=sorted(TABLES),
                    help="which table of --point (default: tasks)")
    args = ap.parse_args(argv)
    try:
        df = (load_table(args.results, args.point, args.table) if args.point
              else load_points(args.results))
    except (OSError, ValueError, KeyError, ImportError) as e:
        msg = e.args[0] if isinstance(e, KeyError) and e.args else e
        print("lightcode_results.py: %s" % msg, file=sys.stderr)
        return 2
    pd = pandas()
    with pd.option_context("display.max_rows", None, "display.max_columns", None,
                           "display.width", None):
        print(df.to_string(index=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
