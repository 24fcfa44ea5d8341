"""What a launch would send, without sending it: the dry run's `SubmitRequest` (the Iris
request and every file the workspace bundle will hold, with sizes). The same object
`Backend.dryrun` returns and `Backend.schedule` sends (ops/launcher.py submits with
`backend.schedule(backend.dryrun(plan, ...))`). Light: the workspace is listed the way the
`LCH-WORKSPACE-*` rules list it (git's non-ignored files, else a walk; rules/launch.py
bundle_files), not through the Iris SDK, so `launch --dry-run` loads no Iris; the submit
itself lists with Iris's own lister (backends/bundle.py workspace_files)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from irisrl.backends.base import BUNDLE_CAP_BYTES, SubmitRequest
from irisrl.backends.bundle import submit_request
from irisrl.plan.model import LaunchPlan

__all__ = ["SubmitRequest", "dry_run"]


def dry_run(plan: LaunchPlan, workspace: str | Path | None = None, bundle_cap: int = BUNDLE_CAP_BYTES) -> SubmitRequest:
    """The request the Iris backend would send for `plan` (`to_dict()` masks secrets)."""
    return submit_request(plan, "iris", workspace, bundle_cap, lister=_listed)


def _listed(workspace: Path) -> Iterable[Path]:
    from irisrl.rules.launch import bundle_files

    return (p for p in bundle_files(workspace, links=True) if p.is_file())


def bundle_cap(plan: LaunchPlan) -> int:
    """The cap on the zipped workspace bundle: the cluster profile's, else Iris's own."""
    from irisrl.backends.base import BUNDLE_CAP_BYTES
    from irisrl.config.profile import load_profile
    from irisrl.util.errors import UsageError

    try:
        return load_profile(plan.cluster).bundle_cap_bytes
    except UsageError:  # a plan from another machine names a profile this one lacks: Iris's own cap
        return BUNDLE_CAP_BYTES
