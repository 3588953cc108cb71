"""pytest set-up for the lightcode module's tests (ctest python:pytest runs them with
PYTHONPATH=<build>/python and LIGHTCODE_SOURCE_DIR=<source>)."""
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get("LIGHTCODE_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture
def source():
    return SOURCE


@pytest.fixture(autouse=True)
def quiet_systemc(monkeypatch):
    monkeypatch.setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1")
