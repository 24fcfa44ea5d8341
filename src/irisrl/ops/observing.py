"""`logs` and `progress`'s engines: a live job's logs pulled into a directory, or fed to the
progress collector, through the Backend the caller holds (ops/jobs.JobLogs over
`Backend.logs`), or log files read for progress. `irisrl logs` / `irisrl progress` parse
flags, call these and render; the renderers of observe/'s reports are handed to cli/ from
here (`render_health`, `render_progress`) so cli/ imports only ops/."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from irisrl.backends.base import Backend
from irisrl.observe.progress import render_progress
from irisrl.observe.pull import TaskPull
from irisrl.observe.render import render_health
from irisrl.ops.jobs import JobLogs
from irisrl.util.errors import IrisrlError, UndeterminedError, UsageError

if TYPE_CHECKING:
    from irisrl.ops.health_check import LogMask

__all__ = ["ProgressRows", "TaskPull", "pull_logs", "progress", "render_health", "render_progress"]

Manifest = dict[str, object]        # observe/pull.py LogPuller.manifest(): `logs --json`
ProgressRow = dict[str, object]     # observe/progress.py: one training step's metrics


def pull_logs(backend: Backend, job_id: str, out: str | None = None, *, follow: bool = False,
              interval_s: float = 30.0, max_follow_s: float = 12 * 3600.0, mask: "LogMask | None" = None,
              on_progress: Callable[[TaskPull, int], None] | None = None) -> Manifest:
    """Every task and attempt of `job_id` into `out` (default ./traces/<job>_<UTC stamp>/),
    masked; with `follow`, again every `interval_s` until the job ends or `max_follow_s`.
    Ctrl-C stops a pull with the manifest of what was written. The manifest says what could
    not be fetched ("complete")."""
    from irisrl.observe.pull import LogPuller, default_out_dir
    from irisrl.ops.health_check import or_default_mask

    out_dir = Path(out) if out else default_out_dir(job_id)
    puller = LogPuller(JobLogs(backend, job_id), job_id, out_dir, on_progress, mask=or_default_mask(mask))
    try:
        manifest = puller.follow(interval_s, max_follow_s) if follow else puller.pull_once()
    except KeyboardInterrupt:
        manifest = puller.write_manifest()
    return dict(manifest)


@dataclass
class ProgressRows:
    """`progress`'s answer: every step's row, the ones to show (`last`), logs that could not
    be fetched, and the plot written (if asked)."""
    rows: list[ProgressRow]
    shown: list[ProgressRow]
    problems: list[str] = field(default_factory=list)
    plot: str | None = None


def progress(job_id: str | None = None, *, backend: Backend | None = None, logs: Sequence[str] = (),
             last: int | None = None, plot_path: str | None = None, title: str = "",
             mask: "LogMask | None" = None,
             on_truncated: Callable[[str, int], None] | None = None) -> ProgressRows:
    """One row per training step from `logs` files, or from `job_id`'s logs so far through
    `backend`; the last `last` rows shown; the curves plotted to `plot_path`."""
    from irisrl.observe.progress import ProgressCollector, collect_files

    problems: list[str] = []
    if logs:
        try:
            rows: list[ProgressRow] = list(collect_files(logs, on_truncated=on_truncated))
        except (OSError, EOFError) as exc:
            raise UndeterminedError(f"cannot read the logs: {exc}", "check the files (plain or .gz)") from None
    elif backend is not None and job_id:
        from irisrl.observe.pull import feed_job
        from irisrl.ops.health_check import or_default_mask

        collector = ProgressCollector()
        problems = feed_job(JobLogs(backend, job_id), job_id, collector.feed, mask=or_default_mask(mask))
        collector.finish()
        rows = list(collector.rows())
    else:
        raise UsageError("give either a job (with its backend) or log files", "e.g. progress(logs=['combined.log'])")
    shown = rows[-last:] if last else rows
    name = title or job_id or (Path(logs[0]).name if logs else "")
    plot = _plot(rows, plot_path, f"{name}: {len(rows)} steps") if plot_path else None
    return ProgressRows(rows, shown, problems, plot)


def _plot(rows: list[ProgressRow], plot_path: str, title: str) -> str:
    from irisrl.observe.plots import plot_progress

    if Path(plot_path).is_dir():
        raise UsageError(f"--plot {plot_path} is a directory", "name the image file, e.g. --plot r1.png")
    try:
        return str(plot_progress(rows, plot_path, title=title))
    except OSError as exc:
        raise IrisrlError(f"cannot write {plot_path}: {exc.strerror}", "choose a writable path") from None
    except ValueError as exc:   # matplotlib: an extension it cannot write
        raise UsageError(f"--plot {plot_path}: {exc}", "end the name in .png, .svg or .pdf") from None
