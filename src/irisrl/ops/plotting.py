"""`fleet --plot` and `cost --plot`: the report drawn to a PNG (observe/plots.py), with a
clear error for a path that cannot be written."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, TypeVar

from irisrl.observe.cost import CostReport, FleetReport
from irisrl.util.errors import IrisrlError, UsageError

Report = TypeVar("Report", CostReport, FleetReport)


def plot_fleet(report: FleetReport, path: str) -> str:
    """GPU-hours per job, stacked by phase; the path written (".png" added when missing)."""
    from irisrl.observe.plots import plot_fleet as draw

    return _written(draw, report, path, "fleet.png")


def plot_cost(report: CostReport, path: str) -> str:
    """The job's phases on a time axis and its GPU-hours; the path written."""
    from irisrl.observe.plots import plot_cost as draw

    return _written(draw, report, path, "r1-cost.png")


def _written(draw: Callable[[Report, str], Path], report: Report, path: str, example: str) -> str:
    if Path(path).is_dir():
        raise UsageError(f"--plot {path} is a directory", f"name the image file, e.g. --plot {example}")
    try:
        return str(draw(report, path))
    except OSError as exc:
        raise IrisrlError(f"cannot write {path}: {exc.strerror}", "choose a writable path") from None
