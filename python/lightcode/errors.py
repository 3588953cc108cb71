"""LightCode's errors in Python.

Every input error of the simulator (a scenario key it does not know, a value out of range, a
malformed model file, ...) is raised as lightcode.Error, whose message is the one the command
line prints and whose attributes say where to look:

    try:
        lightcode.run("scenarios/bad.yaml")
    except lightcode.Error as e:
        print(e.file, e.line, e.column, e.key)   # "scenarios/bad.yaml", 4, 3, "objective"
"""


class Error(Exception):
    """An input LightCode cannot use: `file`, `line`, `column` (0 when unknown) and `key`
    (the key path or JSON path, "" when none) name the place; str(e) is the whole message."""

    def __init__(self, message, file="", line=0, column=0, key=""):
        super().__init__(message)
        self.file = file
        self.line = line
        self.column = column
        self.key = key

    def __reduce__(self):  # pickles (multiprocessing, joblib) with its place
        return (type(self), (str(self), self.file, self.line, self.column, self.key))


class PointsFailed(Error):
    """Raised by run(..., strict=True) when points failed: `errors` lists (point id, reason);
    `path` is the results file, which holds every point, the failed ones with their reason."""

    def __init__(self, message, errors=(), path=""):
        super().__init__(message)
        self.errors = list(errors)
        self.path = path

    def __reduce__(self):
        return (type(self), (str(self), self.errors, self.path))
