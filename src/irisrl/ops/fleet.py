"""`irisrl fleet`'s engine: every job on one or several clusters (the controller's job listing,
not the local ledger), each with its health, phase, progress, GPU-hours by phase and cost;
sorted so trouble comes first; totals with the GPU-hours lost to dead runs.

RPCs per refresh (per cluster): 1 ListJobs + 1 FetchLogs per job that is not settled (running,
or terminal but not yet read since it ended) + 1 GetJobStatus per job seen for the first time
(its resources). A settled job costs nothing more. bench/bench_fleet.py measures it."""

from __future__ import annotations

import hashlib
import re
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from irisrl.backends.base import Backend, JobSummary
from irisrl.core.target import Target
from irisrl.core.states import ACTIVE, TERMINAL
from irisrl.observe.cost import PHASES, FleetJob, FleetReport, FleetTotals, PriceBook, gpu_hours_by_phase
from irisrl.ops.job_tracker import JobTracker, now_ms
from irisrl.util.errors import IrisrlError, UsageError

if TYPE_CHECKING:
    from irisrl.observe.ladder import HealthReport

READERS = 8            # jobs whose logs are fetched at the same time
FILTER_KEYS = ("user", "job", "state", "phase", "verdict", "cause", "target")


@dataclass(frozen=True)
class FleetQuery:
    """Which jobs: `user` None = every user; `hours`: terminal jobs that ended (or were
    submitted) within the last H hours, plus every active one; `filters`: KEY=REGEX, all must match."""
    user: str | None = None
    hours: float = 24.0
    filters: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        for key, pattern in self.filters:
            if key not in FILTER_KEYS:
                raise UsageError(f"--filter {key}={pattern}: unknown key {key!r}",
                                 f"use one of {', '.join(FILTER_KEYS)} (e.g. --filter state=running)")
            try:
                re.compile(pattern)
            except re.error as exc:
                raise UsageError(f"--filter {key}={pattern}: not a regular expression ({exc})",
                                 "quote it and fix the pattern") from None


def fleet_query(all_users: bool = False, user: str | None = None, hours: float = 24.0,
                filters: tuple[str, ...] | list[str] = ()) -> FleetQuery:
    """`fleet`'s selection flags: every user's jobs, USER's, or (neither) yours ($IRISRL_USER
    or $USER); KEY=REGEX filters."""
    from irisrl.backends.resolve import default_user

    if all_users and user:
        raise UsageError("--all-users and --user are mutually exclusive", "pass one of them")
    return FleetQuery(None if all_users else (user or default_user()), hours, parse_filters(filters))


def parse_filters(items: tuple[str, ...] | list[str]) -> tuple[tuple[str, str], ...]:
    out = []
    for item in items:
        key, sep, pattern = item.partition("=")
        if not sep or not key:
            raise UsageError(f"--filter {item!r} is not KEY=REGEX", f"e.g. --filter phase=dead ({', '.join(FILTER_KEYS)})")
        out.append((key.strip(), pattern))
    return tuple(out)


@dataclass
class Fleet:
    """The fleet view, kept across refreshes (one JobTracker per job and cluster)."""
    query: FleetQuery
    prices: PriceBook
    state_dir: Path | None = None      # the health state files (None: kept in memory only)
    trackers: dict[tuple[str, str], JobTracker] = field(default_factory=dict)

    def refresh(self, backends: list[Backend], now: int | None = None, strict: bool = True,
                problems: list[str] | None = None) -> FleetReport:
        """One look at every cluster. A cluster or a job that cannot be read is a problem in
        the totals (its rows stay as last read); with `strict`, every cluster failing raises."""
        t0, now = time.monotonic(), now if now is not None else now_ms()
        problems = list(problems or [])
        rpcs = len(backends)   # one ListJobs each
        before = sum(t.rpcs for t in self.trackers.values())
        work: list[tuple[Backend, JobSummary, JobTracker]] = []
        failed: list[IrisrlError] = []
        for backend in backends:
            prefix = f"/{self.query.user}/" if self.query.user else None
            try:
                listing = backend.list_jobs(prefix=prefix)
            except IrisrlError as exc:
                failed.append(exc)
                problems.append(f"{backend.where}: {exc.message}")
                continue
            work += [(backend, s, self._tracker(backend.where, s.job_id)) for s in listing if self._recent(s, now)]
        if strict and backends and len(failed) == len(backends):
            raise failed[-1]
        # The RPCs of the jobs overlap (a remote controller's round trip dominates); the
        # analysis runs here, one job after another (it is CPU work under the GIL).
        with ThreadPoolExecutor(max_workers=READERS) as pool:
            fresh = list(pool.map(_read, work))
        rows = []
        for (backend, summary, tracker), judge in zip(work, fresh):
            if isinstance(judge, str):
                problems.append(f"{summary.job_id}: {judge}")
            elif judge:
                tracker.judge(summary, now)
                if self.state_dir is not None:
                    tracker.save(self._job_dir(backend.where, summary.job_id))
            row = job_row(summary, tracker, self.prices, now, backend.where)
            if self._matches(row):
                rows.append(row)
        rows.sort(key=trouble_first)
        rpcs += sum(t.rpcs for t in self.trackers.values()) - before
        return FleetReport(jobs=rows, totals=totals(rows, rpcs, time.monotonic() - t0, problems))

    def _tracker(self, where: str, job_id: str) -> JobTracker:
        key = (where, job_id)
        if key not in self.trackers:
            self.trackers[key] = JobTracker.restore(self._job_dir(where, job_id), job_id) \
                if self.state_dir is not None else JobTracker(job_id)
        return self.trackers[key]

    def _job_dir(self, where: str, job_id: str) -> Path:
        assert self.state_dir is not None
        return self.state_dir / hashlib.sha256(f"{where}\n{job_id}".encode()).hexdigest()[:24]

    def _recent(self, summary: JobSummary, now: int) -> bool:
        if summary.state not in TERMINAL:
            return True
        when = summary.finished_ms or summary.submitted_ms
        return when is None or now - when <= self.query.hours * 3600_000

    def _matches(self, row: FleetJob) -> bool:
        values = {"user": row["user"], "job": row["job_id"], "state": row["state"], "phase": row["phase"],
                  "verdict": row["verdict"] or "", "cause": row["cause"] or "", "target": row["target"]}
        return all(re.search(pattern, values[key]) for key, pattern in self.query.filters)


def _read(work: tuple[Backend, JobSummary, JobTracker]) -> bool | str:
    """A job's controller reads (in a worker thread); a failure comes back as its message."""
    backend, summary, tracker = work
    try:
        return tracker.read(backend, summary)
    except Exception as exc:  # noqa: BLE001 - one unreadable job must not hide the fleet
        return exc.message if isinstance(exc, IrisrlError) else f"{type(exc).__name__}: {exc}"


def job_row(summary: JobSummary, tracker: JobTracker, prices: PriceBook, now: int, target: str) -> FleetJob:
    """One job's row from its listing and its tracker."""
    nodes = summary.task_count or sum(summary.task_states.values())
    gpus = nodes * tracker.gpus
    by_phase = gpu_hours_by_phase(tracker.clock(summary, now), gpus)
    total = sum(by_phase.values())
    price = prices.price(tracker.gpu_variant)
    report = tracker.report
    last = tracker.milestones.last_output_ms
    return FleetJob(
        job_id=summary.job_id, user=summary.user, target=target, state=summary.state, nodes=nodes, gpus=gpus,
        gpu_variant=tracker.gpu_variant,
        age_s=round((now - summary.submitted_ms) / 1000.0, 1) if summary.submitted_ms else 0.0,
        phase=fleet_phase(summary, tracker), step=report.global_step if report is not None else None,
        last_reward=tracker.last_reward, verdict=report.verdict if report is not None else None,
        cause=kill_cause(report), gpu_hours=round(total, 4),
        gpu_hours_by_phase={p: round(v, 4) for p, v in by_phase.items()},
        cost_usd=round(price.usd(total), 2) if price is not None else None,
        last_output_age_s=round((now - last) / 1000.0, 1) if last is not None and summary.state in ACTIVE else None)


def kill_cause(report: HealthReport | None) -> str | None:
    """The cause of death's kind; for a KILL without one, the first failed rung (e.g. a wedge)."""
    if report is None or not report.kill:
        return None
    data = report.to_dict()
    if data["cause_of_death"]:
        return str(data["cause_of_death"]["kind"])
    failed = [r for r in data["rungs"] if r["status"] == "fail"]
    return f"rung {failed[0]['rung']}: {failed[0]['name']}" if failed else None


def fleet_phase(summary: JobSummary, tracker: JobTracker) -> str:
    report = tracker.report
    kill = report is not None and report.kill
    if summary.state in TERMINAL:
        return "finished" if summary.state in ("succeeded", "killed") and not kill else "dead"
    if summary.started_ms is None:
        return "queued"
    if kill:
        return "dead"
    phase = report.phase if report is not None else "bring-up"
    return {"crashed": "dead"}.get(phase, phase)


_STATE_RANK = {"failed": 1, "worker_failed": 1, "unschedulable": 1, "running": 2, "building": 2, "pending": 3,
               "killed": 4, "succeeded": 5}


def trouble_first(row: FleetJob) -> tuple[int, float, str]:
    """Running-but-dead first, then failed, running, pending, killed, succeeded; within a
    group, the most GPU-hours first."""
    rank = 0 if row["phase"] == "dead" and row["state"] in ACTIVE else _STATE_RANK.get(row["state"], 3)
    return rank, -row["gpu_hours"], row["job_id"]


def totals(rows: list[FleetJob], rpcs: int, refresh_s: float, problems: list[str] | None = None) -> FleetTotals:
    by_phase = {p: round(sum(r["gpu_hours_by_phase"][p] for r in rows), 4) for p in PHASES}
    return FleetTotals(
        jobs=len(rows), running=sum(1 for r in rows if r["state"] == "running"),
        gpu_hours=round(sum(r["gpu_hours"] for r in rows), 4), gpu_hours_by_phase=by_phase,
        gpu_hours_lost_to_dead_runs=by_phase["dead"],
        cost_usd=round(sum(r["cost_usd"] or 0.0 for r in rows), 2),
        unpriced_jobs=sum(1 for r in rows if r["cost_usd"] is None and r["gpu_hours"] > 0),
        rpcs=rpcs, refresh_s=round(refresh_s, 3), problems=list(problems or []))


# -- targets ---------------------------------------------------------------------------------------
def fleet_targets(local: bool, controller_urls: tuple[str, ...], cluster_configs: tuple[str, ...]) -> list[Target]:
    """The clusters to list: those named, else the local cluster if one is up plus every shipped
    profile whose Iris cluster config is found."""
    named = ([Target(local=True)] if local else []) + [Target(controller_url=u) for u in controller_urls] \
        + [Target(cluster_config=c) for c in cluster_configs]
    if named:
        return named
    from irisrl.backends import local_cluster
    from irisrl.config.profile import PROFILES_DIR
    from irisrl.config.storage_root import find_cluster_config

    found = [Target(local=True)] if local_cluster.running_state() is not None else []
    for profile in sorted(PROFILES_DIR.glob("*.toml")):
        config = find_cluster_config(profile.stem)
        if config:
            found.append(Target(cluster_config=config))
    if not found:
        raise IrisrlError("no cluster to list: no local cluster is up and no profile's Iris cluster config was found",
                          "pass --local, --controller-url URL or --cluster-config PATH")
    return found


def open_backends(targets: list[Target], stack: ExitStack) -> tuple[list[Backend], list[str]]:
    """The connected backends and, when several clusters are asked, what could not be reached
    (a single cluster that cannot be reached is an error)."""
    from irisrl.backends.resolve import open_backend

    backends: list[Backend] = []
    problems: list[str] = []
    for target in targets:
        try:
            backends.append(stack.enter_context(open_backend(target)))
        except IrisrlError as exc:
            if len(targets) == 1:
                raise
            problems.append(exc.message)
    if not backends:
        raise IrisrlError("no cluster could be reached: " + "; ".join(problems),
                          "check the targets (irisrl cluster status) or name one with --controller-url / --local")
    return backends, problems


def fleet_state_dir() -> Path:
    """$IRISRL_HOME/fleet: one directory of health state files per cluster and job."""
    from irisrl.util.paths import irisrl_home

    return irisrl_home() / "fleet"


def price_book(profile: str | None = None) -> PriceBook:
    from irisrl.config.profile import DEFAULT_PROFILE, load_profile

    return PriceBook.from_profile(load_profile(profile or DEFAULT_PROFILE))


# -- the entry points (CLI, notebooks) -----------------------------------------------------------------
@dataclass(frozen=True)
class FleetOptions:
    query: FleetQuery
    local: bool = False
    controller_urls: tuple[str, ...] = ()
    cluster_configs: tuple[str, ...] = ()
    profile: str | None = None


def fleet(options: FleetOptions) -> FleetReport:
    """One look at the fleet."""
    return next(fleet_reports(options, interval_s=0.0, refreshes=1))


def fleet_reports(options: FleetOptions, interval_s: float, refreshes: int | None = None,
                  sleep: Callable[[float], None] = time.sleep) -> Iterator[FleetReport]:
    """A report per refresh (`fleet --watch`), every `interval_s`, until `refreshes` (None: forever)."""
    view = Fleet(options.query, price_book(options.profile), state_dir=fleet_state_dir())
    with ExitStack() as stack:
        backends, problems = open_backends(fleet_targets(options.local, options.controller_urls,
                                                         options.cluster_configs), stack)
        yield from refresh_loop(view, backends, interval_s, refreshes, sleep, problems)


def refresh_loop(view: Fleet, backends: list[Backend], interval_s: float, refreshes: int | None = None,
                 sleep: Callable[[float], None] = time.sleep, problems: list[str] | None = None) -> Iterator[FleetReport]:
    """`view.refresh(backends)` every `interval_s`. The first look fails loudly; a later one
    that cannot read a cluster shows why in its totals and the loop goes on."""
    n = 0
    while refreshes is None or n < refreshes:
        if n:
            sleep(interval_s)
        yield view.refresh(backends, strict=n == 0, problems=problems)
        n += 1
