"""`fit(plan, target) -> FitReport`: will this gang be admitted now, would it queue (behind
whom), or can it never fit? The engine under `irisrl fit`. The plan is a plan JSON (`launch
--dry-run --json`, a path or "-" for stdin) or PlanInputs built as `launch --dry-run` builds
them; the cluster is read live (`fit_on(backend, ...)`, backends/cluster_state.py) or replayed
from a recorded state; the simulation is backends/fit.py. `launch`'s own check before submit
is ops/fit_gate.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import BinaryIO, Mapping

from irisrl.backends.base import Backend
from irisrl.backends.fit import ClusterState, FitReport, GangRequest
from irisrl.core.target import Target
from irisrl.plan.build import PlanInputs
from irisrl.util.errors import IrisrlError, UndeterminedError, UsageError
from irisrl.util.exitcodes import Exit

PlanJSON = Mapping[str, object]   # LaunchPlan.to_dict(): only resources, num_nodes, coscheduling are read

EXIT_FOR = {"fits": Exit.OK, "queues": Exit.ACTIVE, "never": Exit.FAIL, "unknown": Exit.UNKNOWN}


def exit_code(report: FitReport) -> int:
    """0 fits now, 4 would queue, 1 can never fit, 3 could not determine."""
    return int(EXIT_FOR[report.verdict])


def fit(plan: str | PlanInputs, target: Target = Target(), state_file: str | None = None,
        record: str | None = None, stdin: BinaryIO | None = None, plan_target: Target | None = None) -> FitReport:
    """The fit report of `plan` (a plan JSON's path, "-" for `stdin`, or PlanInputs built for
    `plan_target`, default `target`) on `target`'s cluster now, or on the state recorded in
    `state_file`; `record` writes the state read live to a file."""
    if state_file and record:   # a replay reads no controller: there would be nothing to record
        raise UsageError("--state replays a recorded cluster state; --record writes one read from a controller",
                         "pass one of them")
    request = gang_request(plan_json(plan, plan_target or target, stdin))
    if state_file:
        return simulate_on(load_state(state_file), request)
    from irisrl.backends.resolve import open_backend

    try:
        with open_backend(target.check()) as backend:
            return fit_on(backend, request, record)
    except IrisrlError as exc:
        raise _undetermined(exc) from None


def fit_on(backend: Backend, request: GangRequest, record: str | None = None) -> FitReport:
    """Read the cluster through `backend` (record it to `record`), simulate the gang."""
    from irisrl.backends.cluster_state import read_state

    state = read_state(backend)
    if record:
        _record(state, record)
    return simulate_on(state, request)


def simulate_on(state: ClusterState, request: GangRequest) -> FitReport:
    from irisrl.backends.fit import simulate

    return simulate(state, request)


def plan_json(plan: str | PlanInputs, target: Target = Target(), stdin: BinaryIO | None = None) -> PlanJSON:
    """The plan as JSON: read from a file (or stdin for "-"), or built from PlanInputs."""
    if isinstance(plan, PlanInputs):
        return _built(plan, target)
    return read_plan(plan, stdin)


def _built(inputs: PlanInputs, target: Target) -> PlanJSON:
    from irisrl.ops.planning import plan_launch

    planned = plan_launch(inputs, target, dry_run=True)
    if planned.plan is None:
        errors = [f for f in planned.findings if f.severity == "error"]
        raise UndeterminedError(f"the config does not build a plan: {errors[0].rule} {errors[0].message}",
                                "irisrl validate / launch --dry-run shows every finding")
    return planned.plan.to_dict()


def read_plan(path: str, stdin: BinaryIO | None = None) -> PlanJSON:
    """A plan JSON from `path` ("-": stdin); UsageError when it is not one, or is a dry run
    that built no plan."""
    from irisrl.util.jsonio import loads_document

    try:
        text = (stdin or sys.stdin.buffer).read() if path == "-" else Path(path).read_bytes()
        if not text.strip():
            raise ValueError("it is empty" if path != "-" else "stdin is empty")
        data = loads_document(text)
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read the plan {path}: {exc}", "pass the output of launch --dry-run --json") from None
    plan = data.get("plan", data) if isinstance(data, dict) else None
    if isinstance(plan, dict) and plan.get("ok") is False and "findings" in plan and "resources" not in plan:
        errors = [f for f in plan.get("findings") or () if isinstance(f, dict) and f.get("severity") == "error"]
        first = f": {errors[0].get('rule')} {errors[0].get('message')}" if errors else ""
        raise UsageError(f"{path} is a dry run that built no plan ({len(errors)} error(s){first})",
                         "fix the findings (irisrl launch ... --dry-run shows them), then pipe the plan again")
    if not isinstance(plan, dict) or "resources" not in plan or "num_nodes" not in plan:
        raise UsageError(f"{path} is not a launch plan (no resources / num_nodes)",
                         "pass the output of irisrl launch ... --dry-run --json")
    return plan


def gang_request(plan: PlanJSON) -> GangRequest:
    try:
        return GangRequest.from_plan(dict(plan))
    except (KeyError, TypeError, ValueError) as exc:
        why = f"no {exc} key" if isinstance(exc, KeyError) else str(exc)
        raise UsageError(f"the plan's resources cannot be read ({why})", "regenerate it with launch --dry-run --json") \
            from None


def load_state(path: str) -> ClusterState:
    """A cluster state written by `fit --record`."""
    from irisrl.util.jsonio import loads_document

    try:
        return ClusterState.from_dict(loads_document(Path(path).read_bytes()))
    except (OSError, ValueError, TypeError, KeyError) as exc:
        why = f"no {exc} key" if isinstance(exc, KeyError) else str(exc)
        raise UsageError(f"cannot read the cluster state {path}: {why}", "pass a file written by fit --record") \
            from None


def _record(state: ClusterState, path: str) -> None:
    try:
        Path(path).write_text(json.dumps(state.to_dict(), indent=1))
    except OSError as exc:
        raise UsageError(f"cannot write the cluster state to {path}: {exc.strerror or exc}",
                         "pass --record a file path in a writable directory") from None


def _undetermined(exc: IrisrlError) -> IrisrlError:
    """fit's exit 1 means "can never fit": a cluster it could not reach or find (no local
    cluster up, no cluster config) is "could not determine", exit 3."""
    if exc.exit_code != Exit.FAIL:
        return exc
    return UndeterminedError(exc.message, exc.fix)
