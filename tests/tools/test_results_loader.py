#!/usr/bin/python3
"""tools/lightcode_results.py on synthetic results files (tests/tools/synthetic_results.py).

  1. format 2: load_points gives one row per point in file order, every string column str
     (no bytes), int64 / float64 (NaN where missing) / str parameter columns as stored,
     "param." dropped except where it would collide ("param.system" beside "system");
     load_point_parameters keeps the attribute types;
  2. format 1 (every parameter a string, fixed-width strings, no format_version attribute):
     integer columns become int64, numbers with blanks float64 with NaN, the rest str;
  3. per-point tables: load_tasks / load_units / load_energy with str columns and the stored
     numeric dtypes (int32 unit stays int32); a failed point's empty table has no rows;
  4. errors: a non-LightCode HDF5 file and a non-HDF5 file raise ValueError naming the path,
     a missing file FileNotFoundError, an unknown point or table KeyError;
  5. the command line prints the points table (exit 0) and exits 2 on a bad file;
  6. format 5 (stage serve): the serve summary columns, load_requests and load_serve_series
     give back exactly the tables written (values and dtypes, int32 replica), a failed serve
     point's are empty, a prefill point has none (KeyError); leading_number reads "20 req/s";
  7. format 6 (NaN where a summary field does not apply to the point's stage): float64
     columns, NaN exactly there, load_points(stage=...) selects a stage, the CLI prints it.

Usage: test_results_loader.py [SOURCE_DIR]   (default: two levels above this file)
Exits 77 (ctest: skipped) with a SKIP message when h5py or pandas is missing
(Debian: python3-h5py, python3-pandas).
"""
import math
import os
import shutil
import subprocess
import sys
import tempfile

try:
    import h5py
    import numpy as np
    import pandas as pd
except ImportError as e:
    print("SKIP: %s cannot import h5py/pandas: %s" % (sys.executable, e))
    sys.exit(77)

SRC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
sys.path.insert(0, os.path.join(SRC, "tools"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lightcode_results as lr  # noqa: E402
from synthetic_results import point, serve_point, write_results  # noqa: E402

failures = []


def check(cond, msg):
    print(("ok   " if cond else "FAIL ") + msg)
    if not cond:
        failures.append(msg)


def raises(exc, fn, *args):
    """The exception of type `exc` that fn(*args) raises, else None."""
    try:
        fn(*args)
    except exc as e:
        return e
    except Exception as e:  # the wrong kind is a failure, reported by the caller's check
        print("     raised %s: %s" % (type(e).__name__, e))
    return None


def no_bytes(df):
    """True when no cell of an object column is bytes (every string was decoded)."""
    return all(not isinstance(v, (bytes, np.bytes_))
               for c in df.columns if df[c].dtype == object for v in df[c])


def str_columns(df, names):
    return all(df[n].dtype == object and all(isinstance(v, str) for v in df[n]) for n in names)


def sweep_points():
    """Five points, one failed; parameters: system path (text), cores (int), clock (float,
    missing on GPU points), mode (text, missing on one point)."""
    pts = []
    for i, (system, cores) in enumerate([("CPU/PHU", 1), ("CPU/PHU", 2), ("GPU/PHU", 4),
                                         ("GPU/PHU", 8), ("CPU/PHU", 16)]):
        params = {"system": "configs/systems/%s.yaml" % system.lower().replace("/", "_"),
                  "phu.cores": cores}
        if system == "CPU/PHU":
            params["phu.clock_ghz"] = 9.7 + i
        if i != 3:
            params["mode"] = "wdm-%d" % i
        failed = i == 4
        pts.append(point(system, 150, 0.1 * (i + 1), 1e9 * (i + 1), params,
                         status="failed" if failed else "ok",
                         error="synthetic failure" if failed else ""))
    return pts


def case_v2(tmp):
    path = write_results(os.path.join(tmp, "v2.h5"), sweep_points(), version=2)
    df = lr.load_points(path)
    check(len(df) == 5 and list(df["id"]) == ["p%04d" % i for i in range(5)],
          "v2: 5 rows in file order")
    check(no_bytes(df), "v2: no bytes anywhere")
    check(str_columns(df, ["id", "status", "error", "model", "system", "objective"]),
          "v2: string columns are str")
    check("param.system" in df.columns and "system" in df.columns
          and df["system"].iloc[0] == "CPU/PHU"
          and df["param.system"].iloc[0] == "configs/systems/cpu_phu.yaml",
          "v2: 'param.system' kept beside the summary's 'system'")
    check("phu.cores" in df.columns and df["phu.cores"].dtype == np.int64
          and list(df["phu.cores"]) == [1, 2, 4, 8, 16], "v2: integer parameter is int64")
    clock = df["phu.clock_ghz"]
    check(clock.dtype == np.float64 and clock.iloc[0] == 9.7 and math.isnan(clock.iloc[2]),
          "v2: float parameter is float64, NaN where a point lacks it")
    check(str_columns(df, ["mode"]) and df["mode"].iloc[3] == "", "v2: text parameter is str")
    check(df["sequence_length"].dtype == np.int64 and df["energy_pj"].dtype == np.float64,
          "v2: summary numbers keep int64 / float64")
    check(list(df["status"]) == ["ok"] * 4 + ["failed"] and df["error"].iloc[4] ==
          "synthetic failure", "v2: status and error decoded")
    params = lr.load_point_parameters(path, "p0000")
    check(params == {"system": "configs/systems/cpu_phu.yaml", "phu.cores": 1,
                     "phu.clock_ghz": 9.7, "mode": "wdm-0"}
          and isinstance(params["phu.cores"], int), "v2: point attributes keep their types")
    return path


def case_v1(tmp):
    path = write_results(os.path.join(tmp, "v1.h5"), sweep_points(), version=None,
                         fixed_strings=True)
    with h5py.File(path, "r") as f:
        check("format_version" not in f.attrs and f["summary"].dtype["param.phu.cores"].kind
              == "S", "v1 file: no format_version, fixed-width string parameters")
    df = lr.load_points(path)
    check(len(df) == 5 and list(df["id"]) == ["p%04d" % i for i in range(5)],
          "v1: 5 rows in file order")
    check(no_bytes(df), "v1: no bytes anywhere")
    check(df["phu.cores"].dtype == np.int64 and list(df["phu.cores"]) == [1, 2, 4, 8, 16],
          "v1: integer strings become int64")
    clock = df["phu.clock_ghz"]
    check(clock.dtype == np.float64 and abs(clock.iloc[1] - 10.7) < 1e-12
          and math.isnan(clock.iloc[3]), "v1: numbers with blanks become float64 with NaN")
    check(str_columns(df, ["mode", "param.system"]), "v1: text parameters stay str")
    params = lr.load_point_parameters(path, "p0001")
    check(params.get("phu.cores") == "2", "v1: point attributes are strings")
    numeric = lr.numeric_strings
    check(numeric(["nan", "1"]) is None and numeric([" 5"]) is None
          and numeric(["1_000"]) is None and numeric(["", ""]) is None
          and numeric(["99999999999999999999"]).dtype == np.float64,
          "v1: only plain decimal numbers convert; beyond int64 becomes float64")


def case_tables(path):
    tasks = lr.load_tasks(path, "p0001")
    check(len(tasks) == 401 and tasks["unit"].dtype == np.int32
          and tasks["start_ps"].dtype == np.int64, "tasks: rows and numeric dtypes as stored")
    check(str_columns(tasks, ["name", "op", "hardware", "inputs", "outputs"])
          and tasks["op"].iloc[0] == "start" and tasks["hardware"].iloc[1] == "cpu",
          "tasks: string columns decoded")
    units = lr.load_units(path, "p0001")
    check(list(units["name"]) == ["cpu", "phu", "sram->cpu"] and units["index"].dtype ==
          np.int32, "units: decoded, int32 index")
    energy = lr.load_energy(path, "p0001")
    check(str_columns(energy, ["hardware", "category"]) and len(energy) == 6
          and abs(energy["energy_pj"].sum() - 1.2e10) < 1, "energy breakdown: decoded, 6 rows")
    check(len(lr.load_tasks(path, "p0004")) == 0, "failed point: an empty tasks table")
    check(len(lr.load_table(path, "p0001", "memory_profile")) == 2, "load_table by name")


def case_errors(tmp):
    other = os.path.join(tmp, "other.h5")
    with h5py.File(other, "w") as f:
        f.create_dataset("summary", data=np.arange(4))  # a /summary, but no table
    e = raises(ValueError, lr.load_points, other)
    check(e is not None and other in str(e) and "not a LightCode results file" in str(e),
          "a non-LightCode HDF5 file: ValueError naming the path")
    text_file = os.path.join(tmp, "notes.h5")
    open(text_file, "w").write("not hdf5\n")
    e = raises(ValueError, lr.load_points, text_file)
    check(e is not None and text_file in str(e), "a non-HDF5 file: ValueError naming the path")
    e = raises(FileNotFoundError, lr.load_points, os.path.join(tmp, "missing.h5"))
    check(e is not None, "a missing file: FileNotFoundError")
    path = os.path.join(tmp, "v2.h5")
    check(raises(KeyError, lr.load_tasks, path, "p9999") is not None, "unknown point: KeyError")
    check(raises(KeyError, lr.load_table, path, "p0000", "nope") is not None,
          "unknown table: KeyError")
    return other


def case_cli(tmp, other):
    cli = os.path.join(SRC, "tools", "lightcode_results.py")
    p = subprocess.run([sys.executable, cli, os.path.join(tmp, "v2.h5")], capture_output=True,
                       text=True)
    lines = p.stdout.splitlines()
    check(p.returncode == 0 and len(lines) == 6 and "phu.cores" in lines[0]
          and "p0004" in lines[5] and "b'" not in p.stdout,
          "CLI prints a header and the 5 points, decoded")
    p = subprocess.run([sys.executable, cli, os.path.join(tmp, "v2.h5"), "--point", "p0001",
                        "--table", "energy"], capture_output=True, text=True)
    check(p.returncode == 0 and "conversion" in p.stdout, "CLI --point --table energy")
    p = subprocess.run([sys.executable, cli, other], capture_output=True, text=True)
    check(p.returncode == 2 and "not a LightCode results file" in p.stderr,
          "CLI on a non-LightCode file: exit 2 with the reason")


def same_table(df, array):
    """True when the DataFrame holds exactly the structured array: same columns in order,
    dtypes and values."""
    names = list(array.dtype.names)
    return (list(df.columns) == names and len(df) == len(array)
            and all(df[n].dtype == array.dtype[n] and np.array_equal(df[n].to_numpy(), array[n])
                    for n in names))


def stage_mix(tmp, name, version, rates, n):
    """Serve points (round_robin, then prompt_length, at each of `rates`, n requests each), a
    prefill point and a failed serve point, written in format `version`: (path, points)."""
    points = [serve_point(d, rate, n=n) for d in ("round_robin", "prompt_length")
              for rate in rates]
    points.append(point("H100", 128, 0.01, 1e9, {"dispatch": "round_robin", "arrival_rate": 5}))
    points.append(point("H100", 0, 0.0, 0.0, {"dispatch": "prompt_length", "arrival_rate": 40},
                        status="failed", error="synthetic failure", stage="serve"))
    path = write_results(os.path.join(tmp, name), points, version=version)
    with lr.open_results(path) as f:
        check(lr.format_version(f) == version, "v%d: format_version %d" % (version, version))
    return path, points


def case_serve(tmp):
    path, points = stage_mix(tmp, "serve_v5.h5", 5, (5, 20), 60)
    df = lr.load_points(path)
    check(list(df["stage"]) == ["serve"] * 4 + ["prefill", "serve"]
          and list(df["dispatch"]) == ["round_robin"] * 2 + ["prompt_length"] * 2 + ["", ""]
          and str_columns(df, ["dispatch", "param.dispatch"])
          and list(df["param.dispatch"])[:2] == ["round_robin"] * 2,
          "v5: dispatch decoded, 'param.dispatch' kept beside the summary's 'dispatch'")
    check(df["arrival_rate"].dtype == np.int64 and list(df["arrival_rate"]) == [5, 20, 5, 20, 5, 40]
          and df["requests"].dtype == np.int64 and list(df["requests"]) == [60] * 4 + [0, 0],
          "v5: arrival_rate parameter int64, requests counted")
    p = points[1]
    check(all(df[f].iloc[1] == p["serve"][f] for f in ("latency_p99_s", "ttft_p50_s",
                                                       "throughput_tokens_per_s", "replicas",
                                                       "output_tokens", "energy_per_token_pj")),
          "v5: the serve figures read back exactly")
    for i, p in enumerate(points[:4]):
        pid = "p%04d" % i
        req, series = lr.load_requests(path, pid), lr.load_serve_series(path, pid)
        check(same_table(req, p["tables"]["requests"])
              and same_table(series, p["tables"]["serve_series"])
              and req["replica"].dtype == np.int32 and len(req) == 60,
              "%s: requests (%d rows) and serve_series (%d rows) read back exactly" % (
                  pid, len(req), len(series)))
    check(same_table(lr.load_table(path, "p0001", "serve_series"),
                     points[1]["tables"]["serve_series"]), "load_table by name: serve_series")
    check(len(lr.load_requests(path, "p0005")) == 0 and len(lr.load_serve_series(path, "p0005"))
          == 0, "failed serve point: empty requests and serve_series")
    check(raises(KeyError, lr.load_requests, path, "p0004") is not None,
          "a prefill point has no requests table: KeyError")
    ln = lr.leading_number
    check(ln("20 req/s") == 20.0 and ln(" 2.5e1/s") == 25.0 and ln(7) == 7.0 and ln("12") == 12.0
          and ln("fast") is None and ln("") is None and ln(float("nan")) is None,
          "leading_number: the number a text starts with")
    cli = os.path.join(SRC, "tools", "lightcode_results.py")
    p = subprocess.run([sys.executable, cli, path, "--point", "p0002", "--table", "requests"],
                       capture_output=True, text=True)
    check(p.returncode == 0 and len(p.stdout.splitlines()) == 61
          and "first_token_ps" in p.stdout.splitlines()[0], "CLI --table requests")


def case_v6(tmp):
    """Format 6: the fields that do not apply to a point's stage are float64 NaN; the loader
    reads them as stored, selects by stage, and the CLI prints them."""
    path, points = stage_mix(tmp, "mixed_v6.h5", 6, (5,), 30)
    df = lr.load_points(path)
    seq, req = df["sequence_length"], df["requests"]
    check(seq.dtype == np.float64 and req.dtype == np.float64 and df["nodes"].dtype ==
          np.float64, "v6: the fields that may not apply are float64")
    check(seq.isna().tolist() == [True, True, False, True] and seq.iloc[2] == 128
          and req.isna().tolist() == [False, False, True, False] and req.iloc[0] == 30
          and math.isnan(df["energy_per_token_pj"].iloc[2])
          and math.isnan(df["latency_p99_s"].iloc[2]) and df["dispatch"].iloc[2] == "",
          "v6: NaN exactly where a field does not apply to the point's stage")
    p = points[1]
    check(all(df[f].iloc[1] == p["serve"][f] for f in ("latency_p99_s", "replicas",
                                                       "output_tokens", "preemptions")),
          "v6: a serve point's figures read back (integers as float64)")
    serve = lr.load_points(path, stage="serve")
    prefill = lr.load_points(path, stage="prefill")
    check(list(serve["id"]) == ["p0000", "p0001", "p0003"] and list(serve.index) == [0, 1, 2]
          and list(prefill["id"]) == ["p0002"] and prefill["sequence_length"].notna().all()
          and serve["sequence_length"].isna().all() and len(lr.load_points(path, "decode")) == 0,
          "load_points(stage=): a stage's points, renumbered; none of another stage")
    check(lr.number(df["requests"].iloc[2]) is None and lr.number(df["requests"].iloc[0]) == 30,
          "number(): NaN (a field that does not apply) is None")
    v5 = lr.load_points(write_results(os.path.join(tmp, "mixed_v5.h5"), points, version=5))
    check(v5["sequence_length"].dtype == np.int64 and v5["sequence_length"].iloc[0] == 0
          and v5["requests"].iloc[2] == 0, "v5 of the same points: 0 where v6 has NaN")
    cli = os.path.join(SRC, "tools", "lightcode_results.py")
    p = subprocess.run([sys.executable, cli, path], capture_output=True, text=True)
    check(p.returncode == 0 and len(p.stdout.splitlines()) == 5 and "NaN" in p.stdout,
          "CLI prints a v6 file, NaN where a field does not apply")


def main():
    print("pandas %s, h5py %s" % (pd.__version__, h5py.__version__))
    tmp = tempfile.mkdtemp(prefix="lc_loader_")
    try:
        path = case_v2(tmp)
        case_v1(tmp)
        case_tables(path)
        other = case_errors(tmp)
        case_cli(tmp, other)
        case_serve(tmp)
        case_v6(tmp)
    except Exception as e:  # a crash is a failure, with the files kept for a look
        check(False, "raised %s: %s" % (type(e).__name__, e))
    if failures:
        print("%d check(s) failed; files in %s" % (len(failures), tmp))
        return 1
    shutil.rmtree(tmp, ignore_errors=True)
    print("all results loader checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
