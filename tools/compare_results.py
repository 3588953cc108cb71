#!/usr/bin/python3
"""Compares two LightCode results files field by field: the /summary rows and every point's
tables (tasks, units, energy_breakdown, memory_profile, pareto, requests, serve_series), so that
a change can show it left the figures alone.

  tools/compare_results.py OLD.h5 NEW.h5 [--rename-param OLD=NEW ...]

Rows are matched by point id and position. Numbers must be equal to the bit, strings equal.
A summary figure the new file leaves NaN (a figure the point's stage does not report, results
format 6) matches 0 in the old file, where such figures were written as 0; it is counted as
"not applicable", not as a difference. Attributes `created` and `format_version` are ignored,
as is a parameter renamed with --rename-param (its values must still be equal).
Prints one line per difference (at most 20 per table) and a summary line; exits 1 when any
figure differs, 0 otherwise.
"""
import argparse
import math
import sys

import h5py
import numpy as np

TABLES = ["tasks", "units", "energy_breakdown", "memory_profile", "pareto", "requests", "serve_series"]


def text(v):
    return v.decode("utf-8", "replace") if isinstance(v, (bytes, np.bytes_)) else v


def same(a, b):
    """(equal, not_applicable): NaN new against 0 old is a figure no longer reported."""
    a, b = text(a), text(b)
    if isinstance(a, str) or isinstance(b, str):
        return (str(a) == str(b), False)
    fa, fb = float(a), float(b)
    if math.isnan(fb) and not math.isnan(fa):
        return (fa == 0.0, fa == 0.0)
    if math.isnan(fa) and math.isnan(fb):
        return (True, False)
    return (fa == fb, False)


class Report:
    def __init__(self):
        self.differences = 0
        self.not_applicable = 0
        self.compared = 0

    def diff(self, where, message):
        self.differences += 1
        if self.differences <= 200:
            print("%s: %s" % (where, message))


def compare_rows(report, where, old, new, renames, ignore=()):
    if old.shape != new.shape:
        report.diff(where, "%d rows, now %d" % (len(old), len(new)))
        return
    old_names = [n for n in old.dtype.names if n not in ignore]
    new_names = set(new.dtype.names)
    shown = 0
    for name in old_names:
        target = renames.get(name, name)
        if target not in new_names:
            report.diff(where, "field %s is gone" % name)
            continue
        for i in range(len(old)):
            equal, na = same(old[name][i], new[target][i])
            report.compared += 1
            if na:
                report.not_applicable += 1
            elif not equal:
                shown += 1
                if shown <= 20:
                    report.diff("%s[%d].%s" % (where, i, name), "%r, now %r" % (text(old[name][i]), text(new[target][i])))
                else:
                    report.differences += 1
    for name in sorted(new_names - {renames.get(n, n) for n in old.dtype.names}):
        print("%s: new field %s" % (where, name))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rename-param", action="append", default=[], metavar="OLD=NEW",
                        help="a sweep parameter that is now named otherwise")
    args = parser.parse_args()
    renames = {}
    for r in args.rename_param:
        a, _, b = r.partition("=")
        renames["param." + a] = "param." + b
    point_renames = {a[len("param."):]: b[len("param."):] for a, b in renames.items()}
    report = Report()
    with h5py.File(args.old, "r") as old, h5py.File(args.new, "r") as new:
        compare_rows(report, "summary", old["summary"][:], new["summary"][:], renames)
        for pid in old["points"]:
            if pid not in new["points"]:
                report.diff("points", "point %s is gone" % pid)
                continue
            po, pn = old["points"][pid], new["points"][pid]
            for attr in po.attrs:
                target = point_renames.get(attr, attr)
                if target not in pn.attrs or not same(po.attrs[attr], pn.attrs[target])[0]:
                    report.diff("points/%s@%s" % (pid, attr), "%r, now %r" % (po.attrs[attr], pn.attrs.get(target)))
            compare_rows(report, "points/%s/summary" % pid, po["summary"][:], pn["summary"][:], renames)
            for table in TABLES:
                if table in po or table in pn:
                    if table not in po or table not in pn:
                        report.diff("points/%s" % pid, "table %s only in one file" % table)
                        continue
                    compare_rows(report, "points/%s/%s" % (pid, table), po[table][:], pn[table][:], {})
    print("%s vs %s: %d values compared, %d differ, %d no longer reported (NaN for 0)" %
          (args.old, args.new, report.compared, report.differences, report.not_applicable))
    return 1 if report.differences else 0


if __name__ == "__main__":
    sys.exit(main())
