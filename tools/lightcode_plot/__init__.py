"""The figures of tools/plot.py (its docstring says what each shows), one module per family:

  common           the summary table (Summary), the output folder (Output), field readers
                   and axis helpers that every figure shares
  comparison       hardware_comparison.png (the seed table, sweeps over systems)
  scaling          phu_scaling.png
  parallel         tp_scaling.png (points over several devices)
  crossover        crossover.png, crossover_<objective>.png (dispatch tables)
  pareto           pareto.png
  point            gantt_<id>.png, energy_<id>.png
  serving          the serve points as lines; the serving jobs
  serving_latency  latency_cdf.png, serve_load.png
  serving_queue    serve_queue_<id>.png
  failures         failures.csv
  cli              the command line: jobs, exit status

Every figure function takes the file's Summary (and the open file where it reads per-point
tables) as arguments and an Output to save to: the package keeps no state between calls.
Needs h5py, numpy, matplotlib, and tools/lightcode_results.py on the import path (tools/plot.py
puts its own folder there).
"""
