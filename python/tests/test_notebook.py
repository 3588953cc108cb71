"""examples/tour.ipynb, executed as a user runs it (nbclient, Debian's python3-nbclient): the
seed table with the published CPU and CPU/PHU figures, and the PHU-scaling plot."""
import os

import pytest

nbclient = pytest.importorskip("nbclient")
nbformat = pytest.importorskip("nbformat")


def test_the_tour_notebook_runs(source, tmp_path, monkeypatch):
    monkeypatch.setenv("LIGHTCODE_NOTEBOOK_OUT", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    monkeypatch.setenv("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # ipykernel's debugger note on frozen modules
    notebook = nbformat.read(source / "examples/tour.ipynb", as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(source)}})
    client.execute()  # a failing cell (the published figures' assert included) raises
    outputs = [o for cell in notebook.cells if cell.cell_type == "code" for o in cell.get("outputs", [])]
    text = "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in outputs)
    assert "CPU and CPU/PHU: the published figures, exactly" in text
    assert "46733526484.6" in text  # the seed table as the frame prints it
    assert os.path.getsize(tmp_path / "phu_scaling_gpt2.png") > 10000
    assert (tmp_path / "phu_scaling_gpt2.h5").exists()
