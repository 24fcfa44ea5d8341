"""The live rules' input, gathered at submit time: the cluster (running jobs), the ledger's
history (series, rendezvous users, Daytona jobs) and the standing-constraints policy."""

from __future__ import annotations

from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from irisrl.backends.base import Backend
    from irisrl.core.findings import Finding
    from irisrl.ledger.store import Ledger
    from irisrl.plan.model import LaunchPlan
    from irisrl.rules.context import RuleContext
    from irisrl.rules.policy import LiveState


def gather_live_state(plan: "LaunchPlan", backend: "Backend", ledger: "Ledger", policy_path: str | None,
                      series_explicit: bool = False) -> "LiveState":
    """Cluster state + ledger history + policy -> the LiveState the live rules read.
    `series_explicit`: --series was given (drift is checked only then)."""
    from irisrl.backends.policy import load_policy
    from irisrl.core.series import series_of
    from irisrl.rules.policy import LiveState

    policy = load_policy(policy_path)
    series = series_of(plan.job_name, plan.series)
    sandbox = (plan.tags or {}).get("sandbox", "none")
    running = tuple(j.job_id for j in backend.list_jobs(running_only=True) if j.admitted_and_running) \
        if sandbox == "daytona" else ()
    return LiveState(
        job_id=plan.job_id, series=series, series_explicit=series_explicit,
        hparams_fingerprint=plan.hparams_fingerprint or "", rendezvous_dir=plan.rendezvous_dir, sandbox=sandbox,
        cluster=backend.where, running_job_ids=running, daytona_job_ids=frozenset(ledger.daytona_job_ids()),
        daytona_cap=policy.daytona_cap, daytona_name_patterns=policy.daytona_name_patterns,
        concluded_series=policy.concluded_series, series_history=tuple(ledger.series_history(series)) if series else (),
        rendezvous_users=tuple(ledger.rendezvous_users(plan.rendezvous_dir)) if plan.rendezvous_dir else ())


def live_findings(plan: "LaunchPlan", backend: "Backend", ledger: "Ledger", policy_path: str | None,
                  series_explicit: bool = False) -> "list[Finding]":
    from irisrl.rules.catalogue import run_rules

    live = gather_live_state(plan, backend, ledger, policy_path, series_explicit)
    # The live rules read only `live`, `history` and `loaded`: no config context is built for them.
    ctx = cast("RuleContext", SimpleNamespace(live=live, history=None, loaded=True))
    return run_rules(ctx, scopes=("live",))
