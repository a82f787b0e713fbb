"""The balance lab's experiments for the experiments page: the lab files of one directory
(``oprlab serve --experiments DIR``), each experiment's status and report, and the progress
a running experiment writes beside its file.

The page names an experiment only by the id this module gives it; the files are found here,
in the directory given on the command line, never from anything the page sends. While a run
writes a lab file DuckDB refuses every other process, so a file that cannot be opened is
shown by its progress file (:mod:`oprlab.analysis.lab.progress_file`) when it has one.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from oprlab.errors import UserError

__all__ = ["LabEntry", "NoExperiment", "find", "finite", "report_html", "report_numbers", "scan"]

#: Lab files looked at in the directory (the first, by name).
MAX_FILES = 200
#: Reports kept ready (each is the lab's HTML page with its plots, ~100 KB).
MAX_REPORTS = 8


class NoExperiment(UserError):
    """No experiment under that id in the served directory (HTTP 404)."""


@dataclass
class LabEntry:
    """One experiment of a lab file, or of a lab file being written (then all but its
    progress file's numbers are unknown)."""

    id: str
    file: str  # the lab file's name in the directory (shown, never taken from the page)
    experiment: str = ""
    name: str = ""
    question: str = ""
    seed: int | None = None
    cells: int = 0
    done: int = 0
    most: int = 0  # every seed of every cell in both seats
    state: str = ""
    progress: dict[str, Any] | None = None
    dump: dict[str, Any] = field(default_factory=dict, repr=False)
    path: Path = field(default=Path(), repr=False)

    def public(self) -> dict[str, Any]:
        """What the page and the API see (no path, no stored file)."""
        keys = ("id", "file", "experiment", "name", "question", "seed", "cells", "done", "most")
        out = {k: getattr(self, k) for k in keys}
        out |= {"state": self.state, "progress": self.progress}
        out["fraction"] = min(self.done / self.most, 1.0) if self.most else 0.0
        return out


def _id(file: str, experiment: str) -> str:
    tag = hashlib.sha256(file.encode()).hexdigest()[:6]
    return f"{experiment[:16] or 'file'}-{tag}"


def _files(directory: Path) -> list[Path]:
    from oprlab.files import TEMP_PREFIX

    try:
        found = sorted(p for p in directory.glob("*.duckdb") if p.is_file())
    except OSError:
        return []
    return [p for p in found if not p.name.startswith(TEMP_PREFIX)][:MAX_FILES]


def scan(directory: Path) -> list[LabEntry]:
    """Every experiment of every lab file in ``directory`` (files of ``battle --out`` and
    other DuckDB files are left out), oldest first within a file."""
    out: list[LabEntry] = []
    for path in _files(directory):
        out += _entries(path)
    return out


def find(directory: Path, key: str) -> LabEntry:
    """The experiment with id ``key`` (one ``error:`` line, HTTP 404, if there is none)."""
    entries = scan(directory)
    for e in entries:
        if e.id == key:
            return e
    known = ", ".join(e.id for e in entries[:5]) or "none in this directory"
    raise NoExperiment("no experiment with that id", value=key, expected=f"one of: {known}")


def _entries(path: Path) -> list[LabEntry]:
    import duckdb

    from oprlab.analysis.lab.design import FACTORS
    from oprlab.analysis.lab.progress_file import read_progress
    from oprlab.analysis.lab.store import LAB_SCHEMA

    progress = read_progress(path)
    try:
        con = duckdb.connect(str(path), read_only=True)
    except duckdb.Error:  # a run holds it (its progress file says how far it is), or no database
        return [] if progress is None else [_running(path, progress)]
    try:
        schema = con.execute("SELECT value FROM lab_meta WHERE key = 'schema'").fetchall()
        if not schema or schema[0][0] != LAB_SCHEMA:
            return []
        rows = con.execute(
            "SELECT e.experiment, e.name, e.file, e.seed, (SELECT count(*) FROM lab_games g "
            "WHERE g.experiment = e.experiment) FROM lab_experiments e ORDER BY e.created"
        ).fetchall()
    except duckdb.Error:
        return []  # not a lab file (a results file of battle --out, another database)
    finally:
        con.close()
    out = []
    for h, name, dump, seed, done in rows:
        data = json.loads(dump)
        stop, factors = data.get("stop", {}), data.get("factors", {})
        cells = len(data.get("matchups", []))
        for key in FACTORS:
            cells *= max(len(factors.get(key) or [None]), 1)
        most = 2 * int(stop.get("seeds", 0)) * cells
        mine = progress if progress and progress.get("experiment") == h else None
        entry = LabEntry(
            id=_id(path.name, h),
            file=path.name,
            experiment=h,
            name=name,
            question=str(data.get("question", "")),
            seed=int(seed),
            cells=cells,
            done=int(done),
            most=most,
            progress=mine,
            dump=data,
            path=path,
        )
        entry.state = _state(entry)
        out.append(entry)
    return out


def _state(e: LabEntry) -> str:
    if e.done >= e.most:
        return "finished"
    ended = (e.progress or {}).get("state")
    if ended == "finished":
        return "finished (its stopping rule)"
    if ended == "interrupted":
        return "interrupted (run it again to go on)"
    if ended == "running":  # the file is free, so its run ended without writing its end
        return "stopped (run it again to go on)"
    return "unfinished"


def _running(path: Path, progress: dict[str, Any]) -> LabEntry:
    h = str(progress.get("experiment", ""))
    return LabEntry(
        id=_id(path.name, h),
        file=path.name,
        experiment=h,
        name=str(progress.get("name", "")),
        done=int(progress.get("done", 0)),
        most=int(progress.get("most", 0)),
        state="running" if progress.get("state") == "running" else str(progress.get("state")),
        progress=progress,
    )


def report_numbers(entry: LabEntry) -> dict[str, Any]:
    """The lab's report of ``entry`` (:func:`oprlab.analysis.lab.report.build_report`): the
    stored experiment rebuilt with its armies and tables, which must still be as they were."""
    from oprlab.analysis.lab.design import build_cells, experiment_hash
    from oprlab.analysis.lab.model import Experiment
    from oprlab.analysis.lab.report import build_report
    from oprlab.analysis.lab.store import LabStore

    if not entry.dump:
        raise UserError(
            "the report is made from the lab file, which a run is writing",
            value=entry.file,
            expected="the run's end (or a stop: Ctrl-C keeps every finished game)",
        )
    exp = Experiment.model_validate(entry.dump)
    cells = build_cells(exp, source=entry.file)
    if experiment_hash(exp, cells) != entry.experiment:
        raise UserError(
            "the experiment's armies, tables or procedures changed since its run",
            value=entry.experiment,
            expected="the armies and the oprlab version the run used (docs/experiments.md)",
        )
    with LabStore(entry.path, read_only=True) as store:
        games = store.games(entry.experiment)
        totals = store.unit_totals(entry.experiment)
        counts = store.unit_counts(entry.experiment)
    if not games:
        raise UserError("the experiment has no stored game yet", value=entry.name)
    return build_report(exp, cells, games, unit_totals=totals, unit_counts=counts)


_REPORTS: OrderedDict[tuple[str, str, int], str] = OrderedDict()
_REPORTS_LOCK = threading.Lock()


def report_html(entry: LabEntry) -> str:
    """The lab's HTML report of ``entry`` (kept while no game is added: plots take seconds)."""
    from oprlab.analysis.lab.report import report_html as html

    key = (str(entry.path.resolve()), entry.experiment, entry.done)  # one server, many apps
    with _REPORTS_LOCK:
        if key in _REPORTS:
            return _REPORTS[key]
    page = html(report_numbers(entry))
    with _REPORTS_LOCK:
        _REPORTS[key] = page
        while len(_REPORTS) > MAX_REPORTS:
            _REPORTS.popitem(last=False)
    return page


def finite(value: Any) -> Any:
    """``value`` with every NaN or infinity as ``None`` (JSON has neither)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite(v) for v in value]
    return value
