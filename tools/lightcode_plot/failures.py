"""failures.csv: the failed points of a results file (status != "ok"), one line each: id,
each sweep parameter (named without "param.", unless that would repeat the "id" or "error"
header), error. Written only when a point failed; a stale one from an earlier run is removed
(it would contradict this file). The failed points are listed on stderr too.
"""
import csv
import os
import sys

from .common import fmt_value, is_ok, label_of, param_columns

FAILURES_CSV = "failures.csv"
EXIT_FAILED_POINTS = 3


def failure_fields(rows):
    """[(CSV header, /summary field)]: id, each sweep parameter (named without "param.",
    unless that would repeat the "id" or "error" header), error."""
    params = [(p if short_name in ("id", "error") else short_name, p)
              for p in param_columns(rows) for short_name in [p[len("param."):]]]
    return [("id", "id")] + params + [("error", "error")]


def write_failures(rows, failed, out_dir):
    """failures.csv in out_dir, one line per failed point; returns its path."""
    path = os.path.join(out_dir, FAILURES_CSV)
    fields = failure_fields(rows)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow([h for h, _ in fields])
        for r in failed:
            w.writerow([fmt_value(r.get(f, "")) for _, f in fields])
    print("wrote %s" % path)
    return path


def report_failures(rows, out_dir, max_listed=20):
    """Failed points: written to failures.csv and listed on stderr; a stale failures.csv
    from an earlier run is removed when there are none (it would contradict this file).
    Returns EXIT_FAILED_POINTS when a point failed, else 0."""
    failed = [r for r in rows if not is_ok(r)]
    stale = os.path.join(out_dir, FAILURES_CSV)
    if not failed:
        if os.path.isfile(stale):
            os.remove(stale)
        return 0
    path = write_failures(rows, failed, out_dir)
    params = param_columns(rows)
    print("plot.py: %d of %d points failed (left out of the plots; listed in %s):" % (
        len(failed), len(rows), path), file=sys.stderr)
    for r in failed[:max_listed]:
        where = label_of(r, [p for p in params if fmt_value(r.get(p, "")) != ""])
        print("  %s%s: %s" % (r.get("id", "?"), " (%s)" % where if where else "",
                              r.get("error", "") or "(no message)"), file=sys.stderr)
    if len(failed) > max_listed:
        print("  ... and %d more" % (len(failed) - max_listed), file=sys.stderr)
    return EXIT_FAILED_POINTS
