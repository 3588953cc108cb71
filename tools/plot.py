#!/usr/bin/python3
"""Plot a LightCode results file (HDF5, written by `lightcode run` / `sweep` / `merge`, any
format version up to 11) or a crossover dispatch table (JSON, written by `lightcode crossover`).

From a results file (.h5) it draws, by what the file contains (a plot whose data is absent
is skipped with a one-line note). The model figures (bars, scaling, crossover) take the
points of every stage but serve, the serving figures only serve points:

  hardware_comparison.png  makespan and energy per system: grouped bars, one group per
                           configuration (sequence length, other varying fields), when there
                           are >= 2 systems and at most 12 bars; more bars become small
                           multiples (one row of panels per configuration, up to 8), or the
                           figure is skipped in favour of phu_scaling.png when the sweep has a
                           cores axis (the output says which)
  phu_scaling.png          makespan and energy vs PHU cores: one row of panels per (system,
                           objective) present, makespan and energy side by side, one line per
                           multiplex and per other varying parameter such as the model (drawn
                           when a /summary column "param.*cores" exists, numeric or text)
  tp_scaling.png           latency (makespan: time to first token for prefill, time per
                           output token for decode), communication share (communication_s /
                           makespan_s, %) and the group's energy (every device, J) vs tensor-
                           parallel devices (base-2 log, a tick per probed count): one row of
                           panels per (stage, model) present, one line per system (colour) and
                           other varying field such as the sequence length (line style) (drawn
                           when the model points have >= 2 tensor_parallel values, format 11)
  crossover.png            makespan and energy vs sequence length per system; where the best
                           system (compared within one configuration: model, objective, ...)
                           changes between two probed lengths, that bracket is shaded and
                           labelled "between A and B": nothing in between was evaluated, so no
                           crossing point is interpolated (drawn when >= 2 systems share >= 3
                           sequence lengths)
  gantt_<id>.png           one point's schedule: one track per hardware unit, coloured by op
                           (a generate point: every step, a dashed line where each decode
                           step starts)
  energy_<id>.png          that point's energy breakdown: stacked bars by hardware/category
  pareto.png               the joint placement search's non-dominated placements, energy vs
                           makespan, for each point that has a /points/<id>/pareto table
                           (a scenario's `pareto: true`), one panel each (the first 12), the
                           point's reported answer ringed; each axis from the front's minimum
                           spanning at least 2 % of it (a 0.3 % spread stays small), "% above
                           min" on the far side, each metric's spread in the panel's title
  latency_cdf.png          stage serve: the empirical CDF of each request's latency, time to
                           first token and time per output token (one column each, log x where
                           the values span > 1.5 decades), one row per arrival rate (up to 6,
                           evenly chosen), one line per system (colour, where several) and
                           dispatch policy and other varying field (line style), each line's
                           p99 (nearest rank: the ceil(0.99 n)-th smallest) ringed and listed
                           (drawn when a serve point has a /points/<id>/requests table)
  serve_load.png           stage serve: throughput, p99 latency, p99 TTFT and energy per
                           output token (static power included) vs arrival rate, lines as in
                           latency_cdf.png (drawn when the serve points have >= 2 rates)
  serve_queue_<id>.png     stage serve, the point --point names (else the first ok serve
                           point) and the points that differ from it only in system: each
                           replica's waiting (queue) and running sequences over time, one row
                           of panels per replica (the first 16); a series of more than 400
                           changes binned into 200 time bins (mean and max per bin)
  failures.csv             the failed points (status != "ok"): id, each sweep parameter, error;
                           written only when a point failed (a stale one is removed)

Failed points are left out of every plot, listed on stderr and in failures.csv, and make the
exit status 3: the plots are still drawn from the ok points. Format 2 stores numeric sweep
parameters as numbers, format 1 as text; both plot alike. Format 6 stores NaN in the summary
fields that do not apply to a point's stage (a serve point's sequence length, a prefill
point's latency figures); they are never drawn. A serve point's arrival rate is the summary's
arrival_rate_per_s, else the number its arrival_rate parameter starts with ("20 req/s"); a
trace-driven point has none ("trace").

From a crossover dispatch table (.json) it draws, per objective with evaluated curves:

  crossover_<objective>.png  the metric the tool evaluated vs sequence length, one line per
                           system (above), the same relative to the best system at each length
                           (below), each dispatch range shaded in its system's colour and the
                           switch lengths (the "from" of every range after the first) marked
                           exactly as the tool reported them, nothing recomputed; also printed
                           as "crossover <objective>: switches at 54" (or "no switch ...")

An axis whose values span more than 1.5 decades is logarithmic. Output goes to --out
(default: <file stem>_plots/ beside the file), one "wrote <path>" line per file.

Exit status: 0 drawn, no failed point; 2 the input is missing, unreadable or not a LightCode
file, or --point names no point; 3 some sweep points failed (the plots are still drawn).

Needs only h5py, numpy and matplotlib (Debian: python3-h5py python3-matplotlib), the package
tools/lightcode_plot/ (one module per figure family) and tools/lightcode_results.py beside
this file for reading (it needs pandas only for its own DataFrame loaders, which plotting
does not use).
"""
import os
import sys

try:
    # the package and the reading helpers live beside this file
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from lightcode_plot import cli
except ImportError as e:  # pragma: no cover - depends on the machine
    sys.exit("plot.py: needs h5py and matplotlib (apt-get install python3-h5py "
             "python3-matplotlib), tools/lightcode_plot/ and tools/lightcode_results.py "
             "beside it: %s" % e)


def main(argv=None, on_figure=None):
    """The command line; `on_figure(name, figure)`, when given, sees each figure before it
    is saved. Returns the exit status."""
    return cli.main(argv, __doc__, on_figure)


if __name__ == "__main__":
    sys.exit(main())
