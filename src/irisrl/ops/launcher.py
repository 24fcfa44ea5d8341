"""Launching a built plan: the live rules, the temporary local cluster (ops/local_cluster.py),
the fit gate, submit, the ledger, then following the job (ops/follow.py) and, for a
rehearsal, the launch summary (ops/summary.py). The engine under `irisrl launch`, and the
Python API:

    from irisrl import ops
    from irisrl.ops import output
    local = ops.Target(local=True)
    planned = ops.plan_launch(ops.PlanInputs(rl_config="cfg.yaml"), local)   # .plan, .findings
    with output.using(output.to_terminal):        # print what it does, as `irisrl launch` does
        launched = ops.launch(planned.plan, ops.LaunchSettings(local))   # -> Launched(job_id, where, exit_code, summary)
"""

from __future__ import annotations

import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator, Mapping

from irisrl.core.target import Target
from irisrl.ops.output import emit
from irisrl.util.exitcodes import Exit

if TYPE_CHECKING:
    from irisrl.backends.base import Backend
    from irisrl.core.findings import Finding
    from irisrl.ledger.store import Ledger
    from irisrl.ops.summary import LaunchProgress, LaunchSummary
    from irisrl.plan.model import LaunchPlan

DEFAULT_INTERVAL_S = 10.0        # follow's poll on a remote cluster
LOCAL_INTERVAL_S = 0.3           # ... on the local one (a rehearsal is seconds long)


@dataclass(frozen=True)
class LaunchSettings:
    """Where and how to submit (the plan says what runs). `target`: which cluster (default:
    the plan's own: a local plan to the local cluster, a remote one to its profile's cluster
    config). `marks`: phase times measured before (entered, validated; wall clock) for the
    launch summary. `on_summary`: called with a rehearsal's summary as soon as it is made
    (before a temporary cluster's teardown)."""
    target: Target = Target()
    no_wait: bool = False              # submit and return without following the job
    policy: str | None = None          # standing-constraints policy file for the live rules
    series_explicit: bool = False      # --series was given: series drift is checked
    interval: float | None = None      # follow's poll seconds (default: 0.3 local, 10 remote)
    allow_queue: bool = False          # submit even when the gang can never fit now
    secrets_env: str | None = None     # --secrets-env: where the Daytona hygiene finds DAYTONA_RL_API_KEY
    marks: Mapping[str, float] = field(default_factory=dict)
    on_summary: "Callable[[LaunchSummary], None] | None" = None
    # called once a followed job ended, with the backend still open (a temporary cluster still
    # up) and the summary if any: `launch --finish` builds the evidence bundle here
    on_end: "Callable[[Backend, str, LaunchSummary | None], None] | None" = None


@dataclass(frozen=True)
class Launched:
    """What a launch did: `job_id` (None when refused before submit), `where` it went, and
    the exit code (0 submitted / succeeded, 1 refused / failed, 3 undetermined, 130 detached)
    and, for a rehearsal followed to its end, its summary (cli/render_summary.py draws it)."""
    job_id: str | None
    where: str | None
    exit_code: int
    summary: "LaunchSummary | None" = None


def launch(plan: "LaunchPlan", settings: LaunchSettings | None = None, *,
           backend: "Backend | None" = None) -> Launched:
    """Submit `plan` and (unless no_wait) follow it to the end, on `backend` when given (its
    target settings and the temporary local cluster then do not apply), else on the target's.
    What it does goes through ops/output (the `irisrl.ops` logger unless the caller installs
    a sink). Raises IrisrlError (with a fix) for what the user can act on."""
    from irisrl.backends.resolve import default_cluster_config
    from irisrl.ledger.store import Ledger
    from irisrl.observe.phases import ENTERED
    from irisrl.ops.summary import LaunchProgress

    settings = settings or LaunchSettings()
    target = settings.target.check()
    local = backend.kind == "local" if backend is not None else \
        target.local or (plan.mode == "local" and not target.explicit)
    if backend is None and not local and not target.explicit:
        # A remote plan (pinned image, s3 rendezvous) never goes to a local cluster by accident:
        # without a target it goes to the profile's cluster config.
        target = Target(cluster_config=default_cluster_config(plan.cluster))
    ledger = Ledger()
    ledger.check_writable()   # a corrupt ledger or a full disk stops here: no job goes untracked
    # a Python caller passes no marks: its launch starts here (the CLI's starts at entry)
    progress = LaunchProgress(plan, {ENTERED: time.time(), **settings.marks})
    submitted: list[str] = []   # the job id once submitted: what a Ctrl-C has to account for
    try:
        return _launch(plan, settings, target, local, ledger, progress, submitted, backend)
    except KeyboardInterrupt:   # before following (which handles its own): the cluster is torn down
        return _interrupted(plan, submitted, local, ledger)


def _launch(plan: "LaunchPlan", settings: LaunchSettings, target: "Target", local: bool, ledger: "Ledger",
            progress: "LaunchProgress", submitted: list[str], given: "Backend | None" = None) -> Launched:
    from irisrl.ops.daytona import before_launch
    from irisrl.ops.submission import bundle_cap
    from irisrl.ops.fit_gate import fit_gate
    from irisrl.ops.live_state import live_findings
    from irisrl.ops.local_cluster import local_controller

    with ExitStack() as stack:
        ephemeral = False
        if local and given is None:
            url, ephemeral = stack.enter_context(local_controller(settings.no_wait, plan))
            target = Target(controller_url=url)
            if ephemeral:
                progress.mark("cluster_up")
        backend = given if given is not None else stack.enter_context(_backend(target, local))
        findings = live_findings(plan, backend, ledger, settings.policy, settings.series_explicit)
        echo_findings(findings)
        if any(f.severity == "error" for f in findings):
            emit(f"refused: {plan.job_id} was not submitted", err=True)
            return Launched(None, backend.where, Exit.FAIL)
        fit_gate(plan, backend, settings.allow_queue)   # raises FitRefused: nothing is submitted
        before_launch(plan.tags.get("sandbox", ""), local or plan.mode == "local", settings.secrets_env)
        job_id = backend.schedule(backend.dryrun(plan, plan.workspace, bundle_cap(plan)))   # = submit
        submitted.append(job_id)
        progress.mark("submitted")
        _record(ledger, plan, backend, job_id, local)
        if ephemeral:
            stack.callback(_forget_if_active, ledger, job_id)   # the job ends with its temporary cluster
        emit(f"submitted {job_id} to {backend.where} ({plan.num_nodes} node(s), priority {plan.priority})")
        if settings.no_wait:
            emit(f"watch:  irisrl watch {job_id}\nstatus: irisrl status {job_id}")
            return Launched(job_id, backend.where, Exit.OK)
        code, summary = _follow(backend, job_id, plan, ledger, settings, local, ephemeral, progress)
        if settings.on_end is not None and code != Exit.INTERRUPTED:
            settings.on_end(backend, job_id, summary)
        return Launched(job_id, backend.where, int(code), summary)


def _record(ledger: "Ledger", plan: "LaunchPlan", backend: "Backend", job_id: str, local: bool) -> None:
    """The ledger row of a submitted job. check_writable() made a failure unlikely; if the disk
    filled since, the error names the job that now runs untracked and how to stop it."""
    from irisrl.util.errors import IrisrlError, UndeterminedError

    try:
        ledger.record_launch(plan, backend.where, "local" if local else backend.kind)
    except IrisrlError as exc:
        raise UndeterminedError(f"{job_id} was submitted to {backend.where} but not recorded: {exc.message}",
                                f"{exc.fix}; the job runs untracked: irisrl status {job_id} / irisrl kill {job_id} "
                                "with the same target flags") from None


def _follow(backend: "Backend", job_id: str, plan: "LaunchPlan", ledger: "Ledger", settings: LaunchSettings,
            local: bool, ephemeral: bool, progress: "LaunchProgress") -> "tuple[int, LaunchSummary | None]":
    from irisrl.ops.follow import LOCAL_PENDING_DEADLINE_S, follow

    interval = settings.interval or (LOCAL_INTERVAL_S if local else DEFAULT_INTERVAL_S)
    with progress:
        code = follow(backend, job_id, plan, ledger, float(interval), ephemeral=ephemeral, progress=progress,
                      pending_deadline_s=LOCAL_PENDING_DEADLINE_S if local else None)
    if plan.role == "rehearsal" and code in (Exit.OK, Exit.FAIL):
        from irisrl.ops.summary import collect_summary

        summary = collect_summary(backend, job_id, plan, progress, code)
        if settings.on_summary is not None:
            settings.on_summary(summary)
        return code, summary
    return code, None


def _interrupted(plan: "LaunchPlan", submitted: list[str], local: bool, ledger: "Ledger") -> Launched:
    """Ctrl-C before following: say what became of the launch (the temporary cluster, if
    any, is already stopped with its processes by now)."""
    if not submitted:
        emit(f"\ninterrupted: {plan.job_id} was not submitted", err=True)
        return Launched(None, None, Exit.INTERRUPTED)
    job_id = submitted[0]
    if local and (ledger.latest(job_id) or {}).get("last_state") == "killed":
        emit(f"\ninterrupted: {job_id} ran on this command's temporary local cluster, which stopped with it", err=True)
    else:
        emit(f"\ninterrupted after submitting {job_id}; it keeps running.\nre-attach: irisrl watch {job_id}\n"
             f"kill:      irisrl kill {job_id} --yes", err=True)
    return Launched(job_id, None, Exit.INTERRUPTED)


def _forget_if_active(ledger: "Ledger", job_id: str) -> None:
    """A job on a temporary cluster does not outlive it: a row still active when the cluster
    stops (Ctrl-C, an error while following) is marked killed."""
    from irisrl.core.states import ACTIVE

    row = ledger.latest(job_id)
    if row is not None and (row.get("last_state") or "pending") in ACTIVE:
        ledger.update_state(job_id, "killed")


@contextmanager
def _backend(target: "Target", local: bool) -> "Iterator[Backend]":
    from irisrl.backends.resolve import open_backend

    with open_backend(target) as backend:
        if local:
            backend.kind = "local"
        yield backend



def echo_findings(findings: "list[Finding]") -> None:
    """The live rules' findings on stderr, one `severity: RULE path: message` + fix each."""
    for f in findings:
        emit(f"{f.severity}: {f.rule} {f.path}: {f.message}", err=True)
        emit(f"  fix: {f.fix}", err=True)


__all__ = ["LaunchSettings", "Launched", "launch"]
