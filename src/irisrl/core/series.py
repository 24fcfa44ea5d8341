"""The one job-name -> series rule: a launch's series is the explicit --series, else the job
name's prefix before its first '-' (`a3-refill-7` -> `a3`). Used by plan/build.py (the plan's
series and tag), rules/policy.py (concluded series, drift) and ledger/store.py (the runs row)."""

from __future__ import annotations


def series_of(job_name: str, explicit: str | None = None) -> str | None:
    """The explicit series, else the job-name prefix before the first '-' (a job id's user
    part ignored); None when there is neither."""
    if explicit:
        return explicit
    head = job_name.rsplit("/", 1)[-1].split("-", 1)[0]
    return head or None
