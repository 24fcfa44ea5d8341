"""Live-scope rules: the runbook's standing constraints (section 7), checked at launch
against the live cluster and the run ledger. Pure: they read `ctx.live` (a LiveState the
CLI gathers: running jobs, ledger history, policy) and never call anything."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import Iterable

from irisrl.core.findings import Finding
from irisrl.rules.catalogue import rule
from irisrl.rules.context import RuleContext


@dataclass(frozen=True)
class LiveState:
    """What the live rules read. Built by irisrl.ops.live_state.gather_live_state()."""
    job_id: str                                   # the candidate launch
    series: str | None                            # effective series (explicit, else name prefix)
    series_explicit: bool                         # --series was given
    hparams_fingerprint: str
    rendezvous_dir: str | None
    sandbox: str                                  # "daytona" | "none"
    cluster: str
    running_job_ids: tuple[str, ...] = ()         # top-level jobs RUNNING on the cluster now
    daytona_job_ids: frozenset[str] = frozenset() # ledger: jobs irisrl launched with Daytona
    daytona_cap: int = 6
    daytona_name_patterns: tuple[str, ...] = ()
    concluded_series: tuple[str, ...] = ("a3",)
    series_history: tuple[tuple[str, str], ...] = ()   # (job_id, fingerprint) of earlier launches
    rendezvous_users: tuple[str, ...] = ()        # earlier launches that used this rendezvous dir


def daytona_running(live: LiveState) -> list[str]:
    """RUNNING jobs that count against the Daytona cap: tagged by irisrl, or name-matched."""
    out = []
    for job_id in live.running_job_ids:
        name = job_id.rsplit("/", 1)[-1]
        if job_id in live.daytona_job_ids or any(fnmatch.fnmatchcase(name, p) for p in live.daytona_name_patterns):
            out.append(job_id)
    return sorted(out)


def _live(ctx: RuleContext) -> LiveState | None:
    live = getattr(ctx, "live", None)
    return live if isinstance(live, LiveState) else None


@rule("POL-CONCURRENCY", "error", "At most N running Daytona-backed RL jobs per cluster", scope="live")
def concurrency(ctx: RuleContext) -> Iterable[Finding]:
    live = _live(ctx)
    if live is None or live.sandbox != "daytona":
        return []
    running = daytona_running(live)
    if len(running) < live.daytona_cap:
        return []
    shown = ", ".join(running[:10]) + (" ..." if len(running) > 10 else "")
    return [concurrency.finding(
        "--job-name",
        f"{len(running)} Daytona-backed RL jobs are RUNNING on {live.cluster} (cap {live.daytona_cap}): {shown}; "
        f"launching {live.job_id} would make {len(running) + 1}",
        "wait for one to finish (pending gangs do not count) or ask before killing one; never raise the cap")]


@rule("POL-SERIES-CONCLUDED", "error", "Concluded series are not launched again", scope="live")
def series_concluded(ctx: RuleContext) -> Iterable[Finding]:
    live = _live(ctx)
    if live is None or not live.series or live.series not in live.concluded_series:
        return []
    where = "--series" if live.series_explicit else "--job-name"
    return [series_concluded.finding(
        where, f"series {live.series!r} is concluded (policy concluded_series: {list(live.concluded_series)})",
        "do not launch, refill or auto-advance a concluded series; start a new series name")]


@rule("POL-SERIES-DRIFT", "error", "A series keeps its hyperparameters", scope="live")
def series_drift(ctx: RuleContext) -> Iterable[Finding]:
    live = _live(ctx)
    if live is None or not live.series_explicit or not live.hparams_fingerprint:
        return []
    earlier = [(j, fp) for j, fp in live.series_history if fp and fp != live.hparams_fingerprint]
    if not earlier:
        return []
    job, fp = earlier[-1]
    return [series_drift.finding(
        "--series",
        f"hparams fingerprint {live.hparams_fingerprint[:12]} differs from earlier run {job} of series "
        f"{live.series!r} ({fp[:12]}): config/hparams must not change mid-series",
        "propose a separate experiment: launch under a new --series name")]


@rule("LCH-RDZV-REUSED", "error", "A fresh rendezvous sub-path per run", scope="live")
def rendezvous_reused(ctx: RuleContext) -> Iterable[Finding]:
    live = _live(ctx)
    if live is None or not live.rendezvous_dir or not live.rendezvous_users:
        return []
    return [rendezvous_reused.finding(
        "--rendezvous-dir",
        f"{live.rendezvous_dir} was already used by {', '.join(live.rendezvous_users)}: a stale head file "
        "from that run could be picked up",
        "use a fresh sub-path per run, e.g. .../<run-name>-2")]
