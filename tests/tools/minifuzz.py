#!/usr/bin/python3
"""Mutation test ("minifuzz") of the lightcode binary on every shipped input.

Every scenario (scenarios/*.yaml, shrunk to a fast point: the first value of each sweep axis,
at most 64 tokens, 4 new tokens and 8 requests, analytical fidelity where a stage has one),
every system, hardware and device file (configs/) and a small request trace is mutated with
seeded random edits -- a line deleted or duplicated, a number replaced by 0, -1, 1e308, nan,
0x10, 1e400, a 400-digit integer or nothing, a value emptied or made a 100 kB string, a unit
swapped for another, an unknown key added, a scalar made a list -- and the binary is run on
each mutant as a user would: a scenario with `run` (`crossover` for crossover studies);
a system, hardware or device file with `hw show` on a system built from it and `run` of a small
prefill scenario on that system (and `validate-photonic` for device-built PHUs); the trace with
a small serving scenario. A mutant fails the test when the binary
  - exits with anything but 0 (done) or 2 (the input refused with a message), or dies by a
    signal, or reports an internal error;
  - runs past the timeout (a hang);
  - exits 0 with nan or inf on stdout, or in a results file (HDF5 datasets, their compound
    fields and attributes; the crossover tables' text) where the unmutated input has none.
Before the mutants, every probe runs on the unmutated files and must exit 0.

Deterministic: the mutants depend on --seed only (they are drawn before any runs, in file
order). Failing mutants are copied to --keep (default: a temporary folder, printed).

  tests/tools/minifuzz.py build/lightcode . [--seed 20261203] [--mutants 6] [--jobs 2]

Exit 0: no failure; 1: failures (listed); 77: skipped (h5py missing from this Python).
"""
import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

try:
    import h5py
    import numpy as np
    import yaml
except ImportError as e:  # Debian: python3-h5py, python3-numpy, python3-yaml
    print(f"minifuzz: skipped: {e} (run it with /usr/bin/python3)")
    sys.exit(77)

# Longest a probe may run before it counts as a hang (Release; the slowest baseline probe
# takes about 2 s on the 2-core development VM).
DEFAULT_TIMEOUT_S = 30

NUMBERS = ["0", "-1", "1e308", "-1e308", "1e300", "1e-300", "1e30", "nan", "inf", "0x10", "1e-308", "1e400",
           "9223372036854775808",
           "4294967297", "1" + "0" * 400, "", "1e6", "1e-6"]
UNITS = ["Hz", "kHz", "MHz", "GHz", "s", "ms", "us", "ns", "ps", "J", "pJ", "fJ", "W", "mW", "B", "KB", "MB",
         "GB", "TB", "KiB", "GiB", "B/s", "GB/s", "TB/s", "pJ/bit", "fJ/bit", "J/bit", "dB", "dBm", "um", "mm",
         "um^2", "mm^2", "req/s", "S/s", "GS/s", "FLOP/s", "MAC/s"]
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?(?![\w.])")
UNIT = re.compile(r"(?<=[\d ])(" + "|".join(re.escape(u) for u in sorted(UNITS, key=len, reverse=True)) +
                  r")(?![\w/^])")
KEY_LINE = re.compile(r"^(\s*(?:- )?)([A-Za-z_][\w.]*):(.*)$")
NON_FINITE = re.compile(r"(?i)(?<![A-Za-z_])(nan|-?inf(?:inity)?)(?![A-Za-z_])")


# ---- the inputs, shrunk ----------------------------------------------------------------------

def first_of(axis):
    """One value of a sweep axis: a list's first, a range's start."""
    if isinstance(axis, list):
        return axis[:1]
    if isinstance(axis, dict) and "start" in axis:
        return {"start": axis["start"], "stop": axis["start"]}
    return axis


def shrink_scenario(text):
    """A scenario cut to one fast point, as YAML text (None: leave it as it is)."""
    doc = yaml.safe_load(text)
    if not isinstance(doc, dict):
        return None
    doc.pop("output", None)
    if "systems" in doc:  # a crossover study: `crossover --range` bounds its lengths
        return yaml.safe_dump(doc, sort_keys=False)
    sweep = doc.get("sweep") or {}
    for key, axis in list(sweep.items()):
        if key == "zip" and isinstance(axis, dict):
            for k in axis:
                axis[k] = first_of(axis[k])
        else:
            sweep[key] = first_of(axis)
    stages = {doc.get("stage")}
    if isinstance(sweep.get("stage"), list):
        stages |= set(sweep["stage"])

    def shorten(d):
        if isinstance(d.get("sequence_length"), int):
            d["sequence_length"] = min(d["sequence_length"], 64)
        if isinstance(d.get("sequence_length"), list):
            d["sequence_length"] = [min(v, 64) if isinstance(v, int) else v for v in d["sequence_length"]]
        if isinstance(d.get("new_tokens"), int):
            d["new_tokens"] = min(d["new_tokens"], 4)

    shorten(doc)
    shorten(sweep)
    if isinstance(doc.get("requests"), dict) and isinstance(doc["requests"].get("count"), int):
        doc["requests"]["count"] = min(doc["requests"]["count"], 8)
    if "serve" not in stages:
        doc["fidelity"] = "analytical"
    dispatch = sweep.get("dispatch", [doc.get("dispatch")])
    if "prompt_length" not in (dispatch if isinstance(dispatch, list) else [dispatch]):
        doc.pop("dispatch_table", None)  # a table `lightcode crossover` writes: not in a fresh clone
        doc.pop("dispatch_objective", None)
    return yaml.safe_dump(doc, sort_keys=False, width=1000)


def probe_scenario(system, profile):
    return ("name: probe\nmodel: gpt2\nstage: prefill\nsequence_length: 16\nfidelity: analytical\n"
            f"objective: energy\nprofile: {profile}\nsystem: {system}\n")


TRACE_SCENARIO = ("name: trace\nmodel: gpt2\nstage: serve\nplacement_evaluations: 4\nreplicas:\n"
                  "  - system: ../configs/systems/h100_sxm.yaml\nbatching: {policy: continuous, max_batch: 4}\n"
                  "trace: ../traces/small.csv\n")


class Target:
    def __init__(self, kind, path, probes):
        self.kind = kind        # scenario, system, hardware, devices, trace
        self.path = path        # relative to the tree
        self.probes = probes    # argument lists, run in the tree; "OUT" is replaced by an output path


def build_tree(source, tree):
    """configs/ copied, scenarios shrunk, the trace and probe scenarios written."""
    shutil.copytree(os.path.join(source, "configs"), os.path.join(tree, "configs"))
    os.makedirs(os.path.join(tree, "scenarios"))
    os.makedirs(os.path.join(tree, "traces"))
    shutil.copy(os.path.join(source, "tests/fuzz/corpus/request_trace/basic.csv"),
                os.path.join(tree, "traces/small.csv"))
    targets = []
    for name in sorted(os.listdir(os.path.join(source, "scenarios"))):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join(source, "scenarios", name)) as f:
            text = shrink_scenario(f.read())
        with open(os.path.join(tree, "scenarios", name), "w") as f:
            f.write(text)
        rel = "scenarios/" + name
        if "\nsystems:" in "\n" + text:
            probes = [["crossover", rel, "--range", "1:8", "--grid", "2", "--out-dir", "OUT"]]
        else:
            probes = [["run", rel, "--out", "OUT.h5"]]
        targets.append(Target("scenario", rel, probes))
    with open(os.path.join(tree, "scenarios/trace_probe.yaml"), "w") as f:
        f.write(TRACE_SCENARIO)
    targets.append(Target("trace", "traces/small.csv", [["run", "scenarios/trace_probe.yaml", "--out", "OUT.h5"]]))

    systems = []
    for folder, profile in (("configs/systems", "default"), ("configs/systems/lightcode", "lightcode")):
        for name in sorted(os.listdir(os.path.join(tree, folder))):
            if name.endswith(".yaml"):
                systems.append((folder + "/" + name, profile))

    def system_probes(rel, profile):
        probe = f"scenarios/probe_{os.path.basename(rel)[:-5]}_{profile}.yaml"
        with open(os.path.join(tree, probe), "w") as f:
            f.write(probe_scenario("../" + rel, profile))
        show = ["hw", "show", rel] + (["--profile", "lightcode"] if profile == "lightcode" else [])
        return [show, ["run", probe, "--out", "OUT.h5"]]

    for rel, profile in systems:
        targets.append(Target("system", rel, system_probes(rel, profile)))
    texts = {rel: open(os.path.join(tree, rel)).read() for rel, _ in systems}
    for name in sorted(os.listdir(os.path.join(tree, "configs/hardware"))):
        rel = "configs/hardware/" + name
        users = [(s, p) for s, p in systems if "hardware/" + name in texts[s]]
        probes = system_probes(*users[0]) if users else []
        with open(os.path.join(tree, rel)) as f:
            if "\ncore:" in f.read():
                probes.append(["validate-photonic", rel, "--out", "OUT.h5"])
        if probes:
            targets.append(Target("hardware", rel, probes))
    dota = [s for s in systems if "phu_dota_b.yaml" in texts[s[0]]][0]
    for name in sorted(os.listdir(os.path.join(tree, "configs/devices"))):
        probes = system_probes(*dota) + [["validate-photonic", "configs/hardware/" + d + ".yaml", "--out", "OUT.h5"]
                                         for d in ("phu_dota_b", "phu_dota_l")]
        targets.append(Target("devices", "configs/devices/" + name, probes))
    return targets


# ---- mutations -------------------------------------------------------------------------------

def content_lines(lines):
    return [i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("#")]


def split_comment(line):
    at = line.find(" #")
    return (line, "") if at < 0 else (line[:at], line[at:])


def mutate(text, kind, rng):
    """(mutated text, what was done) or None when the operation finds nothing to act on."""
    lines = text.split("\n")
    body = content_lines(lines)
    if not body:
        return None
    op = rng.choice(["delete", "duplicate", "number", "number", "number", "empty", "huge", "unit", "key",
                     "list"] if kind != "trace" else ["delete", "duplicate", "number", "number", "huge",
                                                       "header_only", "swap_columns"])
    i = rng.choice(body)
    code, comment = split_comment(lines[i])
    if op == "delete":
        del lines[i]
        return "\n".join(lines), f"line {i + 1} deleted"
    if op == "duplicate":
        lines.insert(i + 1, lines[i])
        return "\n".join(lines), f"line {i + 1} duplicated"
    if op in ("number", "unit"):
        # One token of the file (outside comments) that `pattern` matches, replaced by a choice.
        pattern, choices = (NUMBER, NUMBERS) if op == "number" else (UNIT, UNITS)
        spots = [(n, m) for n in body for m in pattern.finditer(split_comment(lines[n])[0])]
        if not spots:
            return None
        n, m = rng.choice(spots)
        new = rng.choice(choices)
        lines[n] = lines[n][:m.start()] + new + lines[n][m.end():]
        return "\n".join(lines), f"line {n + 1}: {op} {m.group(0)} -> {new[:24] or 'nothing'}"
    if op == "header_only":
        header = body[0]
        return "\n".join(lines[:header + 1]) + "\n", "every row deleted"
    if op == "swap_columns":
        cells = lines[body[0]].split(",")
        if len(cells) < 2:
            return None
        a, b = rng.sample(range(len(cells)), 2)
        cells[a], cells[b] = cells[b], cells[a]
        lines[body[0]] = ",".join(cells)
        return "\n".join(lines), "two header columns swapped"
    if op == "huge" and kind == "trace":
        cells = lines[i].split(",")
        cells[rng.randrange(len(cells))] = "7" * 100000
        lines[i] = ",".join(cells)
        return "\n".join(lines), f"line {i + 1}: a 100 kB cell"
    m = KEY_LINE.match(code)
    if not m:
        return None
    indent, key, value = m.groups()
    if op == "empty":
        lines[i] = f"{indent}{key}:{comment}"
        return "\n".join(lines), f"line {i + 1}: {key} emptied"
    if op == "huge":
        lines[i] = f"{indent}{key}: {'x' * 100000}"
        return "\n".join(lines), f"line {i + 1}: {key} a 100 kB string"
    if op == "key":
        pad = " " * len(indent)
        lines.insert(i, f"{pad}no_such_key: 1")
        return "\n".join(lines), f"line {i + 1}: unknown key added"
    if op == "list":
        if not value.strip() or value.strip()[0] in "[{":
            return None
        lines[i] = f"{indent}{key}: [{value.strip()}, {value.strip()}]{comment}"
        return "\n".join(lines), f"line {i + 1}: {key} made a list"
    return None


# ---- running ---------------------------------------------------------------------------------

def link_tree(src, dst):
    """A copy of `src` whose files are hard links (cheap); a mutated file is replaced, not edited."""
    shutil.copytree(src, dst, copy_function=os.link)


def run_probe(binary, cwd, args, timeout):
    start = time.monotonic()
    proc = subprocess.Popen([binary] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, env=dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1"))
    try:
        out, err = proc.communicate(timeout=timeout)
        code = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        code = None
    return code, out.decode(errors="replace"), err.decode(errors="replace"), time.monotonic() - start


def non_finite_in_h5(path):
    """{(dataset or attribute, field): 'nan' | 'inf'} over the file, point ids masked."""
    found = {}

    def note(where, field, values):
        values = np.asarray(values)
        if values.dtype.kind not in "fc" or values.size == 0:
            return
        label = re.sub(r"/p\d+", "/p*", where)
        if np.isinf(values).any():
            found[(label, field)] = "inf"
        elif np.isnan(values).any():
            found.setdefault((label, field), "nan")

    def visit(name, obj):
        for attr, value in obj.attrs.items():
            try:
                note(name + "@" + attr, "", value)
            except TypeError:
                pass
        if isinstance(obj, h5py.Dataset):
            data = obj[()]
            if obj.dtype.names:
                for field in obj.dtype.names:
                    note(name, field, data[field])
            else:
                note(name, "", data)

    with h5py.File(path, "r") as f:
        visit("/", f)
        f.visititems(visit)
    return found


def outputs(cwd):
    for root, _, files in os.walk(os.path.join(cwd, "out")):
        for name in sorted(files):
            yield os.path.join(root, name)


def check(binary, cwd, probes, timeout, allowed, echoed=None):
    """Problems of one input across its probes ([] when none), and the non-finite values seen.
    `echoed`: the mutated file's text; a nan or inf on stdout amid text of it is an echo."""
    problems, seen = [], {}
    os.makedirs(os.path.join(cwd, "out"), exist_ok=True)
    for k, probe in enumerate(probes):
        args = [a.replace("OUT", os.path.join("out", f"probe{k}")) for a in probe]
        code, out, err, _ = run_probe(binary, cwd, args, timeout)
        what = "lightcode " + " ".join(a if len(a) < 60 else a[:57] + "..." for a in probe)
        if code is None:
            problems.append(f"{what}: no exit within {timeout} s (a hang)")
            continue
        if code < 0:
            problems.append(f"{what}: killed by signal {-code}: {err.strip()[-300:]}")
            continue
        if code not in (0, 2) or "internal error" in err or "runtime error" in err or "Sanitizer" in err:
            problems.append(f"{what}: exit {code}: {err.strip()[-300:]}")
            continue
        if code != 0:
            continue
        for m in NON_FINITE.finditer(out):
            # Text the input holds, echoed (a display name "CPU (nan cores)"), is not a figure:
            # the token with up to 6 characters either side (not only blanks) found in the input.
            if echoed is not None and any(w.strip() != m.group(0) and w in echoed
                                          for w in (out[max(0, m.start() - 6):m.end()], out[m.start():m.end() + 6])):
                continue
            line = out[out.rfind("\n", 0, m.start()) + 1:out.find("\n", m.end())]
            problems.append(f"{what}: exit 0 with '{m.group(0)}' on stdout: {line.strip()[:200]}")
            break
    for path in outputs(cwd):
        rel = os.path.relpath(path, cwd)
        if path.endswith(".h5"):
            for key, kind in non_finite_in_h5(path).items():
                seen[key] = kind
                if kind == "inf" or key not in allowed:
                    problems.append(f"{rel}: {kind} in {key[0]} {key[1]}".rstrip())
        else:
            with open(path, errors="replace") as f:
                m = NON_FINITE.search(f.read())
            if m:
                problems.append(f"{rel}: '{m.group(0)}' in a written table")
    return problems, seen


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("binary")
    ap.add_argument("source")
    ap.add_argument("--seed", type=int, default=20261203)
    ap.add_argument("--mutants", type=int, default=6, help="mutants per input file")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT_S)
    ap.add_argument("--keep", help="folder for failing mutants (default: a temporary one)")
    ap.add_argument("--only", help="regex: only the input files it matches")
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    source = os.path.abspath(args.source)
    work = tempfile.mkdtemp(prefix="minifuzz_")
    started = time.monotonic()
    try:
        base = os.path.join(work, "base")
        os.makedirs(base)
        targets = [t for t in build_tree(source, base) if not args.only or re.search(args.only, t.path)]

        # Baseline: every probe on the unmutated tree exits 0; its NaN columns are allowed.
        allowed = {}
        with ThreadPoolExecutor(args.jobs) as pool:
            def baseline(t):
                cwd = os.path.join(work, "baseline", t.path.replace("/", "_"))
                link_tree(base, cwd)
                return t, check(binary, cwd, t.probes, args.timeout, {})
            broken = []
            for t, (problems, seen) in pool.map(baseline, targets):
                nan_only = [p for p in problems if not p.endswith(" nan") and " nan in " not in p]
                broken += [f"{t.path} (unmutated): {p}" for p in nan_only]
                for key, kind in seen.items():
                    if kind == "nan":
                        allowed[key] = True
        if broken:
            print("minifuzz: the unmutated inputs fail their probes:\n  " + "\n  ".join(broken))
            return 1

        # The mutants, drawn in file order from one stream.
        rng = random.Random(args.seed)
        mutants = []
        for t in targets:
            with open(os.path.join(base, t.path)) as f:
                text = f.read()
            made = 0
            for _ in range(20 * args.mutants):
                if made == args.mutants:
                    break
                m = mutate(text, t.kind, rng)
                if m and m[0] != text:
                    mutants.append((t, len(mutants), m[0], m[1]))
                    made += 1

        def run_mutant(item):
            t, n, text, what = item
            cwd = os.path.join(work, f"m{n:04d}")
            link_tree(base, cwd)
            os.unlink(os.path.join(cwd, t.path))
            with open(os.path.join(cwd, t.path), "w") as f:
                f.write(text)
            problems, _ = check(binary, cwd, t.probes, args.timeout, allowed, text)
            if not problems:
                shutil.rmtree(cwd, ignore_errors=True)
            return t, n, what, problems

        failures = []
        with ThreadPoolExecutor(args.jobs) as pool:
            for t, n, what, problems in pool.map(run_mutant, mutants):
                if problems:
                    failures.append((t, n, what, problems))
        probes = sum(len(t.probes) for t, _, _, _ in mutants)
        print(f"minifuzz: {len(mutants)} mutants of {len(targets)} files (seed {args.seed}), {probes} runs, "
              f"{len(failures)} failing, {time.monotonic() - started:.1f} s")
        if failures:
            keep = args.keep or tempfile.mkdtemp(prefix="minifuzz_failures_")
            for t, n, what, problems in failures:
                dst = os.path.join(keep, f"m{n:04d}")
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(os.path.join(work, f"m{n:04d}"), dst, symlinks=True)
                print(f"\n{t.path}, {what} (kept in {dst}):")
                for p in problems:
                    print("  " + p)
            return 1
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
