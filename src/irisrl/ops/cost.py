"""`irisrl cost JOB`'s engine: one job's GPU-hours by phase (observe/cost.py) from Iris's
timestamps (ListJobs) and its log milestones, priced from the cluster profile. The job is
found on the cluster (a bare name too), not only in the local ledger."""

from __future__ import annotations

from irisrl.backends.base import Backend, JobSummary
from irisrl.backends.resolve import default_user
from irisrl.core.target import Target
from irisrl.observe.cost import CostReport, PriceBook, seconds_by_phase, segments
from irisrl.ops.fleet import fleet_phase, job_row, price_book
from irisrl.ops.job_tracker import JobTracker, now_ms
from irisrl.util.errors import IrisrlError, UsageError
from irisrl.util.exitcodes import Exit


def checked_job(job: str) -> str:
    """JOB as /user/job or a bare name, else a usage error (before any connection is made)."""
    job = job.strip().rstrip("/")
    if not job:
        raise UsageError("empty job id", "pass /<user>/<job> or a bare job name")
    if not job.startswith("/") and "/" in job:
        raise UsageError(f"{job!r} is neither /<user>/<job> nor a bare job name", "e.g. /alice/dense8b-r1")
    return job


def find_job(backend: Backend, job: str) -> JobSummary:
    """JOB's listing row: /user/job exactly, or a bare name matched against every user's jobs
    (yours first when several users have one of that name)."""
    job = checked_job(job)
    if job.startswith("/"):
        rows = [s for s in backend.list_jobs(prefix=job) if s.job_id == job]
    else:
        rows = [s for s in backend.list_jobs() if s.job_id.rsplit("/", 1)[-1] == job]
        mine = [s for s in rows if s.user == default_user()]
        rows = mine or rows
    if not rows:
        raise IrisrlError(f"no job {job} on {backend.where}", "list the cluster's jobs: irisrl fleet --all-users",
                          Exit.ABSENT)
    if len(rows) > 1:
        raise UsageError(f"{job} names {len(rows)} jobs on {backend.where}: {', '.join(s.job_id for s in rows)}",
                         "pass the full /<user>/<job>")
    return rows[0]


def job_cost(backend: Backend, job: str, prices: PriceBook, now: int | None = None) -> CostReport:
    """The cost breakdown of JOB on `backend` now (its logs read once, from the start)."""
    now = now if now is not None else now_ms()
    summary = find_job(backend, job)
    tracker = JobTracker(summary.job_id)
    tracker.refresh(backend, summary, now)
    row = job_row(summary, tracker, prices, now, backend.where)
    clock = tracker.clock(summary, now)
    price = prices.price(tracker.gpu_variant)
    return CostReport(
        job_id=row["job_id"], user=row["user"], state=row["state"], phase=fleet_phase(summary, tracker),
        nodes=row["nodes"], gpus=row["gpus"], gpu_variant=row["gpu_variant"], verdict=row["verdict"],
        cause=row["cause"], gpu_hours=row["gpu_hours"], gpu_hours_by_phase=row["gpu_hours_by_phase"],
        seconds_by_phase={p: round(s, 1) for p, s in seconds_by_phase(clock).items()}, cost_usd=row["cost_usd"],
        node_hour_usd=price.node_hour_usd if price else None, price_source=price.source if price else None,
        segments=segments(clock))


def cost(job: str, *, local: bool = False, controller_url: str | None = None, cluster_config: str | None = None,
         profile: str | None = None) -> CostReport:
    """`irisrl cost JOB` (usable from a notebook): the cluster named by the target flags, else the
    one the ledger recorded for a /user/job, else the local cluster / the profile's."""
    from irisrl.backends.resolve import open_backend
    from irisrl.ops.jobs import open_ledger

    target = Target(local, controller_url, cluster_config).check()
    job = checked_job(job)
    job_id = job if job.startswith("/") else None
    with open_backend(target, job_id, open_ledger() if job_id else None) as backend:
        return job_cost(backend, job, price_book(profile))
