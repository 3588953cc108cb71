"""What the docs/VALIDATION.md generators share (validation_report.py, photonic_report.py,
energy_report.py, collectives_report.py, parallel_report.py): reading HDF5 text cells and
tables, a section's regenerate commands, and writing a section to a file or stdout."""
import sys


def text(v):
    """An HDF5 string cell (bytes, NUL-padded) or any value as text."""
    return v.decode("utf-8").rstrip("\0") if isinstance(v, bytes) else str(v)


def emit(text_out, out):
    """Writes `text_out` to the file `out` (saying so), or to stdout when `out` is empty."""
    if out:
        with open(out, "w") as f:
            f.write(text_out)
        print(f"wrote {out}")
    else:
        sys.stdout.write(text_out)


def commands_block(commands):
    """A section's regenerate commands as a fenced block, and the blank line after it."""
    return ["```"] + list(commands) + ["```", ""]


def table_rows(table):
    """The rows of an HDF5 compound table (h5py's array) as dicts: text cells as str, numbers as
    Python numbers."""
    return [{name: (text(r[name]) if table.dtype[name].kind in "SOU" else r[name].item()) for name in table.dtype.names}
            for r in table]
