"""`health`'s engine: the health ladder's verdict on a live job's logs so far (judged at the
wall clock, with the trials counted and Iris's task statuses fed in) or on log files. One
function, `health`, serves `irisrl health` (which parses flags and renders) and the Python
API (`irisrl.ops.health`), so the two cannot disagree; `watch`'s check-ins use it too."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from irisrl.observe.ladder import HealthReport, LadderConfig, RungResult
from irisrl.ops.output import emit
from irisrl.util.errors import UndeterminedError, UsageError
from irisrl.util.exitcodes import Exit

# masks secret values in pulled log lines (log_mask builds it)
LogMask = Callable[[bytes], bytes]

if TYPE_CHECKING:
    from irisrl.backends.base import Backend
    from irisrl.observe.analyzer import Analyzer
    from irisrl.observe.state import State
    from irisrl.observe.trials import TrialOutcome

PLAN_FIX = "pass the JSON that `irisrl launch --dry-run --json` prints"
PlanDict = dict[str, object]   # a plan's JSON (`launch --dry-run --json`, the ledger's copy)
__all__ = ["HealthCheck", "HealthReport", "LadderConfig", "health", "load_plan", "warn_truncated"]


@dataclass
class HealthCheck:
    """A verdict and what it rests on. `report` is observe/ladder.HealthReport (its to_dict()
    is `health --json`); `problems`: logs that could not be fetched (also in report.reasons);
    `unparsed`: bytes were read but nothing the ladder recognises; `trials_unknown`: why the
    trials were not counted."""

    report: HealthReport
    problems: list[str] = field(default_factory=list)
    unparsed: bool = False
    trials_unknown: str = ""

    @property
    def verdict(self) -> str:
        return str(self.report.verdict)

    @property
    def phase(self) -> str:
        return str(self.report.phase)

    @property
    def reasons(self) -> list[str]:
        return list(self.report.reasons)

    @property
    def rungs(self) -> list[RungResult]:
        return list(self.report.rungs)

    @property
    def kill(self) -> bool:
        return bool(self.report.kill)

    def to_dict(self) -> dict[str, object]:
        return dict(self.report.to_dict())

    @property
    def exit_code(self) -> int:
        """0 NO-KILL, 1 KILL, 3 a NO-KILL resting on incomplete or unparseable logs."""
        if self.kill:
            return int(Exit.FAIL)
        return int(Exit.UNKNOWN if self.problems or self.unparsed else Exit.OK)


def health(job: str | None = None, *, logs: Sequence[str] = (), plan_path: str | None = None,
           plan: PlanDict | None = None, trials_dir: str | None = None, state_path: str | None = None,
           config: LadderConfig | None = None, now: float | None = None, mask: "LogMask | None" = None,
           backend: "Backend | None" = None, local: bool = False, controller_url: str | None = None,
           cluster_config: str | None = None) -> HealthCheck:
    """The health ladder on JOB's logs so far (through `backend`, else its cluster's; the plan from
    `plan_path`, else `plan`, else the ledger; judged at `now`, default the wall clock) or on
    `logs` files (judged at `now`, default their newest dated line; `state_path` resumes from
    saved offsets). Trials are counted from `trials_dir` or the plan's. `config`: an
    observe/ladder.LadderConfig (None: the defaults)."""
    from irisrl.observe.planinfo import plan_info

    check_inputs(job, logs, state_path)
    problems: list[str] = []
    unparsed = False
    if logs:
        plan = load_plan(plan_path, None) if plan_path or plan is None else plan
        analyzer = _analyze_logs(logs, plan, config, state_path)
        _check_now_after_logs(now, analyzer.state.max_t)
        unparsed = nothing_parseable(analyzer.state)
    elif backend is not None:
        from irisrl.ops.jobs import job_id_of

        analyzer, problems, plan = _analyze_job(backend, job_id_of(job or ""), plan_path, plan, config,
                                                or_default_mask(mask))
    else:
        from irisrl.ops.jobs import open_job

        with open_job(job or "", local, controller_url, cluster_config) as opened:
            analyzer, problems, plan = _analyze_job(opened.backend, opened.job_id, plan_path, plan, config,
                                                    or_default_mask(mask))
    if not logs:
        now = time.time() if now is None else now
    trials, outcomes, trials_unknown = _trials(trials_dir or plan_info(plan).trials_dir, explicit=bool(trials_dir))
    report = analyzer.verdict(now_log_time=now, trials_completed=trials, trial_outcomes=outcomes)
    report.reasons.extend(f"logs incomplete: {p}" for p in problems)
    return HealthCheck(report, problems, unparsed, trials_unknown)


def check_inputs(job: str | None, logs: Sequence[str], state_path: str | None = None) -> None:
    """Usage errors, before anything is opened or read."""
    if bool(job) == bool(logs):
        raise UsageError("give either a job or log files, not both and not neither",
                         "e.g. health('/alice/dense8b-r1') or health(logs=['rank0.log.gz'])")
    if job and state_path:
        raise UsageError("--state works with --log files", "for a live job use `irisrl watch JOB --watchdog`")


def load_plan(plan_path: str | None, job_id: str | None) -> PlanDict | None:
    """The plan at `plan_path` (`launch --dry-run --json` output), else the ledger's for
    `job_id`, else None (the ladder infers from the logs)."""
    if plan_path:
        from irisrl.util.jsonio import loads_document

        try:
            data = loads_document(Path(plan_path).read_bytes())
        except OSError as exc:
            raise UndeterminedError(f"cannot read plan {plan_path}: {exc.strerror}", PLAN_FIX) from None
        except json.JSONDecodeError as exc:
            raise UndeterminedError(f"plan {plan_path} is not JSON (line {exc.lineno}: {exc.msg})", PLAN_FIX) from None
        except ValueError as exc:
            raise UndeterminedError(f"plan {plan_path} is not JSON ({exc})", PLAN_FIX) from None
        if not isinstance(data, dict):
            raise UndeterminedError(f"plan {plan_path} is not a JSON object", "pass `launch --dry-run --json` output")
        return data
    if job_id:
        try:
            from irisrl.ledger.store import Ledger

            return Ledger().plan_for(job_id)
        except Exception:  # noqa: BLE001 - no ledger entry: the ladder infers from the logs
            return None
    return None


def nothing_parseable(state: "State") -> bool:
    """Bytes were read, yet the analyzer's state holds no dated line and no matched line
    (empty files are a run that printed nothing yet: pending, as before)."""
    read = sum(src.offset for src in state.sources.values())
    return bool(read) and not state.hit_lines and state.max_t is None and state.last_line_t is None


def _check_now_after_logs(now: float | None, newest: float | None) -> None:
    """Files judged at a --now before their newest dated line would read silence as negative
    ("last output -1510s before now"); lines after --now are still counted, so refuse it."""
    if now is not None and newest is not None and now < newest:
        from irisrl.observe.causes import iso_time

        raise UsageError(f"--now {iso_time(now)} is before the newest dated line in the logs ({iso_time(newest)})",
                         "pass a time at or after it (UTC unless it names a zone), or leave --now out "
                         "to judge at that line")


def warn_truncated(path: str, read: int) -> None:
    emit(f"warning: {path} is a truncated .gz; read the {read:,} bytes before the cut", err=True)


def _analyze_logs(logs: Sequence[str], plan: PlanDict | None, config: LadderConfig | None,
                  state_path: str | None) -> "Analyzer":
    import gzip

    from irisrl.observe.analyzer import Analyzer, TruncatedLog, feed_file

    analyzer = Analyzer(plan, config)
    if state_path and Path(state_path).exists():
        try:
            analyzer = Analyzer.load(state_path, plan, config)
        except ValueError as exc:
            raise UndeterminedError(f"state file {state_path}: {exc}", "delete it to start a full pass") from None
    for path in logs:
        try:
            feed_file(analyzer, path)
        except TruncatedLog as exc:
            if not exc.read:
                raise UndeterminedError(f"cannot read log file {path}: not a readable .gz", "check the file") from None
            warn_truncated(str(path), exc.read)
        except (OSError, gzip.BadGzipFile) as exc:
            raise UndeterminedError(f"cannot read log file {path}: {exc}", "check the file (plain or .gz)") from None
    if state_path:
        try:
            analyzer.save(state_path)
        except OSError as exc:
            raise UndeterminedError(f"cannot write state file {state_path}: {exc.strerror}",
                                    "choose a writable --state path (its directory must exist)") from None
    return analyzer


def _analyze_job(backend: "Backend", job_id: str, plan_path: str | None, plan: PlanDict | None,
                 config: LadderConfig | None, mask: Callable[[bytes], bytes]
                 ) -> "tuple[Analyzer, list[str], PlanDict | None]":
    from irisrl.observe.analyzer import Analyzer
    from irisrl.observe.pull import JobFeeder
    from irisrl.observe.status_feed import describe
    from irisrl.ops.jobs import JobLogs

    plan = load_plan(plan_path, job_id) if plan_path or plan is None else plan
    analyzer = Analyzer(plan, config)
    feeder = JobFeeder(job_id, mask)   # also feeds each task's and the job's Iris status
    problems = feeder.feed_new(JobLogs(backend, job_id), analyzer.feed)
    if not feeder.log_bytes:
        said = feeder.job.last
        problems.append(f"no log line fetched for {job_id} (not started yet, or no task logs)"
                        + (f"; Iris: job {describe(said)}" if said is not None else ""))
    return analyzer, problems, plan


def or_default_mask(mask: LogMask | None) -> LogMask:
    """The caller's mask, else the one for the environment's default secrets file."""
    return mask if mask is not None else log_mask(None)


def log_mask(secrets_env: str | None) -> LogMask:
    """Masks, in pulled lines, every secret value launch would have forwarded: the operator's
    environment and secrets file (`secrets_env`, default $DC_AGENT_SECRET_ENV; the ledger keeps
    only the masked plan). Built once by the caller and handed to health / pull_logs / progress
    (`mask=`), so the secrets file is read once and an unreadable one is refused before any
    cluster is reached; those take None as this with the default file."""
    from irisrl.config.masking import operator_masker

    mask: LogMask = operator_masker(secrets_env)
    return mask


def _trials(uri: str | None, explicit: bool) -> "tuple[int | None, list[TrialOutcome] | None, str]":
    """(completed trials, their outcomes, why the count is unknown) from the trials dir's
    result.json files."""
    if not uri:
        return None, None, "no --trials-dir"
    from irisrl.observe.trials import read_trials

    count, outcomes, note = read_trials(uri)
    if count is None and explicit:
        emit(f"warning: trials not counted: {note}", err=True)
    return count, (outcomes if count is not None else None), note
