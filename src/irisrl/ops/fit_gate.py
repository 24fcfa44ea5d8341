"""The fit check `launch` runs before submit: read the cluster, simulate the gang
(backends/fit.py), say the verdict. A gang that can never fit is refused (FitRefused, exit 1)
unless queueing is allowed; one that would queue is a warning."""

from __future__ import annotations

from typing import TYPE_CHECKING

from irisrl.ops.output import emit
from irisrl.util.errors import IrisrlError, UndeterminedError

if TYPE_CHECKING:
    from irisrl.backends.base import Backend
    from irisrl.backends.fit import FitReport
    from irisrl.plan.model import LaunchPlan


class FitRefused(IrisrlError):
    """Nothing was submitted: the gang can never fit. `report` is the fit report (the CLI
    renders its tables before the error)."""

    def __init__(self, message: str, fix: str, report: "FitReport") -> None:
        super().__init__(message, fix)
        self.report = report


def fit_gate(plan: "LaunchPlan", backend: "Backend", allow_queue: bool) -> "FitReport | None":
    """The fit report (None when the cluster could not be read); raises FitRefused on
    can-never-fit unless `allow_queue`."""
    from irisrl.backends.cluster_state import read_state
    from irisrl.backends.fit import GangRequest, simulate

    try:
        state = read_state(backend)
    except UndeterminedError as exc:   # kubectl could not tell: the launch is not blocked by it
        emit(f"fit: not checked ({exc.message})", err=True)
        return None
    report = simulate(state, GangRequest.from_plan(plan.to_dict()))
    if report.verdict == "fits":   # a status line, like every gate line: stdout stays the command's (--json)
        emit(f"fit: {report.summary}", err=True)
    elif report.verdict == "unknown":
        emit(f"fit: not checked ({report.summary})", err=True)
    elif report.verdict == "queues":
        emit(f"warning: {report.summary}; holding: "
                   f"{', '.join(h['job_id'] for h in report.holders) or '-'} (irisrl fit --plan ... for the table)",
                   err=True)
    elif allow_queue:
        emit(f"warning: {report.summary}; submitting anyway (--allow-queue)", err=True)
    else:
        raise FitRefused(f"{plan.job_id} was not submitted: {report.summary}",
                         "; ".join(report.fixes) or "ask for less per node, or pass --allow-queue to submit anyway",
                         report)
    return report
