"""The Python module lightcode: run, sweep, serve, inspect, cost queries and errors, each
checked against what the command line and the published table say."""
import pickle

import pytest

import lightcode

SEED_CPU_PHU = {  # the LightCode overview's table (time objective): makespan s, energy pJ
    1400: (1.93061, 134854955336.6),
    150: (0.13016, 46733526484.6),
}
SEED_CPU = {1400: (30.66707, 161644179672.6), 150: (2.98404, 50184590920.6)}


def gpt2_point(source, **changes):
    s = {"name": "py_point", "model": "gpt2", "stage": "prefill", "sequence_length": 150,
         "system": str(source / "configs/systems/lightcode/cpu_phu.yaml"), "objective": "time",
         "profile": "lightcode", "fidelity": "analytical"}
    s.update(changes)
    return s


def test_run_reproduces_the_seed_table(source, tmp_path):
    points = lightcode.run(source / "scenarios/seed_table.yaml", out=tmp_path / "seed.h5")
    assert isinstance(points, lightcode.Points) and len(points) == 8
    assert points.path == str(tmp_path / "seed.h5")
    for system, published in (("CPU/PHU", SEED_CPU_PHU), ("CPU", SEED_CPU)):
        for length, (makespan, energy) in published.items():
            row = points[(points.system == system) & (points.sequence_length == length)].iloc[0]
            assert round(row.makespan_s, 5) == makespan
            assert round(row.energy_pj, 1) == energy
    shown = repr(points)  # the seed table's columns, at the console's precision
    assert "0.13016" in shown and "46733526484.6" in shown and "CPU/PHU" in shown
    assert len(points.point("p0003").tasks) > 1000  # the point's tables are read from its file


def test_columns_are_the_results_loaders(source, tmp_path):
    import lightcode._results as loader

    points = lightcode.run(source / "scenarios/seed_table.yaml", out=tmp_path / "seed.h5")
    assert list(points.columns) == list(loader.load_points(str(tmp_path / "seed.h5")).columns)
    assert points.parameters == ["param.system", "param.sequence_length"]
    assert lightcode.load(tmp_path / "seed.h5").equals(points)


def test_a_dict_scenario_is_the_same_yaml(source, tmp_path):
    points = lightcode.run(gpt2_point(source), out=tmp_path / "d.h5")
    assert round(points.makespan_s[0], 5) == SEED_CPU_PHU[150][0]
    relative = gpt2_point(source, system="configs/systems/lightcode/cpu_phu.yaml")
    again = lightcode.run(relative, base_dir=source, out=tmp_path / "r.h5")
    assert again.makespan_ps[0] == points.makespan_ps[0]


def test_set_overrides_as_the_command_line(source, tmp_path):
    points = lightcode.run(source / "scenarios/seed_table.yaml", set={"objective": "energy"}, out=tmp_path / "e.h5")
    assert set(points.objective) == {"energy"}
    listed = lightcode.run(source / "scenarios/seed_table.yaml", set=["objective=energy"], out=tmp_path / "l.h5")
    assert listed.energy_pj.tolist() == points.energy_pj.tolist()


def test_an_event_point_runs_in_a_worker_process(source, tmp_path):
    scenario = gpt2_point(source, sequence_length=16, fidelity="event", profile="default",
                          system=str(source / "configs/systems/h100_sxm.yaml"))
    first = lightcode.run(scenario, out=tmp_path / "a.h5", contention=False)
    second = lightcode.run(scenario, out=tmp_path / "b.h5", contention=False)  # SystemC again: another process
    assert first.fidelity[0] == "event" and first.status[0] == "ok"
    assert first.makespan_ps[0] == second.makespan_ps[0] == first.analytical_makespan_ps[0]


def phu_scaling(source, **axes):
    """scenarios/phu_scaling.yaml as a dict, its sweep narrowed to `axes`."""
    import yaml

    scenario = yaml.safe_load((source / "scenarios/phu_scaling.yaml").read_text())
    scenario["sweep"].update({"model": ["gpt2"], "system": ["../configs/systems/lightcode/cpu_phu.yaml"],
                              "objective": ["time"]}, **axes)
    return scenario


def test_sweep_runs_phu_scaling(source, tmp_path):
    scenario = phu_scaling(source, **{"phu.multiplex": [1, 20]})
    points = lightcode.sweep(scenario, base_dir=source / "scenarios", jobs=2, out=tmp_path / "phu.h5")
    assert len(points) == 14 and (points.status == "ok").all()
    for _, one in points.groupby("phu.multiplex"):
        makespans = one.sort_values("phu.cores").makespan_s.tolist()
        assert makespans == sorted(makespans, reverse=True) and makespans[-1] < makespans[0]


def test_a_crashed_worker_is_a_failed_row_or_an_exception(source, tmp_path, monkeypatch):
    scenario = phu_scaling(source, **{"phu.multiplex": [1], "phu.cores": [1, 2]})
    here = source / "scenarios"
    monkeypatch.setenv("LIGHTCODE_FAULT_CRASH_POINT", "p0001")
    with pytest.warns(UserWarning, match="1 of 2 points failed"):
        points = lightcode.sweep(scenario, base_dir=here, out=tmp_path / "w.h5")
    assert points.status.tolist() == ["ok", "failed"]
    with pytest.raises(lightcode.PointsFailed) as failed:
        lightcode.sweep(scenario, base_dir=here, out=tmp_path / "s.h5", strict=True)
    assert failed.value.errors[0][0] == "p0001" and failed.value.path == str(tmp_path / "s.h5")


def test_serve_runs_a_serving_study(source, tmp_path):
    scenario = {"name": "py_serve", "model": "gpt2", "stage": "serve", "profile": "default", "objective": "time",
                "replicas": [{"system": str(source / "configs/systems/h100_sxm.yaml")}],
                "batching": {"policy": "continuous", "max_batch": 8},
                "requests": {"count": 24, "seed": 3, "prompt": {"distribution": "fixed", "value": 64},
                             "output": {"distribution": "fixed", "value": 8}},
                "arrival_rate": "50 req/s"}
    points = lightcode.serve(scenario, out=tmp_path / "serve.h5")
    assert points.stage[0] == "serve" and points.requests[0] == 24
    assert len(points.point("p0000").requests) == 24
    with pytest.raises(KeyError, match="p0009"):
        points.point("p0009")
    assert "throughput_tokens_per_s" in repr(points)
    with pytest.raises(lightcode.Error, match="use run"):
        lightcode.serve(gpt2_point(source), out=tmp_path / "x.h5")


def test_inspect_matches_the_graph(source):
    graph = lightcode.inspect("gpt2", seq=5)
    assert graph.macs == graph.nodes.macs.sum() == 463731456
    assert graph.summary["nodes"] == len(graph.nodes)
    decode = lightcode.inspect("gpt2", stage="decode", kv=64)
    assert decode.macs < graph.macs
    tvm = source.parent / "shared/graphs/tvm/gpt2_prefill_seq5_graph.json"
    if tvm.exists():
        assert lightcode.inspect(tvm).summary["kinds"]["dense"] == graph.summary["kinds"]["dense"]


def test_cost_of_one_op(source):
    system = source / "configs/systems/lightcode/cpu_phu.yaml"
    graph = lightcode.inspect("gpt2", seq=150)
    dense = graph.nodes[graph.nodes.kind == "dense"].iloc[0]
    rows = lightcode.cost(system, model="gpt2", seq=150, node=int(dense.id), profile="lightcode")
    assert rows.attrs["op"]["macs"] == dense.macs
    assert set(rows.unit) == {"cpu", "phu"} and rows.supported.all()
    assert (rows.time_s > 0).all() and (rows.energy_pj > 0).all()
    by_name = lightcode.cost(system, model="gpt2", seq=150, node=dense["name"], profile="lightcode")
    assert by_name.time_ps.tolist() == rows.time_ps.tolist()
    described = lightcode.cost(system, {"kind": "dense", "inputs": [[1, 150, 768], [2304, 768]], "output": [1, 150, 2304]},
                               profile="lightcode")
    assert described.attrs["op"]["macs"] == 150 * 768 * 2304
    softmax = lightcode.cost(system, {"kind": "softmax", "inputs": [[12, 150, 150]], "output": [12, 150, 150]},
                             profile="lightcode")
    assert softmax[softmax.unit == "phu"].supported.tolist() == [False]  # matrix products only


def test_errors_carry_file_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nmodel: gpt2\nobjectiv: time\n")
    with pytest.raises(lightcode.Error) as raised:
        lightcode.run(bad, out=tmp_path / "bad.h5")
    e = raised.value
    assert e.file == str(bad) and e.line == 3 and "did you mean 'objective'" in str(e)
    again = pickle.loads(pickle.dumps(e))
    assert (again.file, again.line, str(again)) == (e.file, e.line, str(e))
    with pytest.raises(lightcode.Error, match="no-such-model"):
        lightcode.inspect("no-such-model")
    with pytest.raises(lightcode.Error, match="not a dtype"):
        lightcode.cost(tmp_path / "none.yaml", {"kind": "dense", "inputs": [[2, 2], [2, 2]], "output": [2, 2], "dtype": "f99"})
    with pytest.raises(TypeError):
        lightcode.run(42)


def test_dataset_from_python(source, tmp_path):
    narrow = {"sweep.sequence_length": [64]}
    data = lightcode.dataset(source / "scenarios/dataset.yaml", set=narrow, out=tmp_path / "a.h5", jobs=2)
    assert isinstance(data, lightcode.Dataset) and data.summary["failed"] == 0
    ops, graphs, families = data.ops, data.graphs, data.families
    assert len(ops) == data.summary["rows"]["ops"] and len(graphs) == data.summary["rows"]["graphs"]
    assert set(ops.graph_id) == set(graphs.graph_id)
    assert families.groupby("family").split.nunique().max() == 1  # a family in one split only
    assert data.provenance["scenario_name"] == "dataset" and data.provenance["fidelity"] == "analytical"
    again = lightcode.dataset(source / "scenarios/dataset.yaml", set=narrow, out=tmp_path / "b.h5", jobs=1)
    assert (tmp_path / "a.h5").read_bytes() == (tmp_path / "b.h5").read_bytes()
    assert lightcode.load_dataset(tmp_path / "b.h5").table("families").equals(families)
    with pytest.raises(KeyError, match="no table"):
        data.table("nothing")
