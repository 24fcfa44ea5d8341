"""`irisrl health`, `irisrl logs`, `irisrl progress`: verdicts, log pulls and per-step
tables from a run's logs (files, or a live job through its cluster's Backend, opened here
with ops/jobs.open_job and handed to ops/health_check.py and ops/observing.py)."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import click

from irisrl.cli.options import flag, json_flag
from irisrl.util.errors import UndeterminedError, UsageError
from irisrl.util.exitcodes import Exit

def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False, emoji=False)


def _target_options(fn: Any) -> Any:
    from irisrl.cli.target_opts import target_options

    return target_options(fn)


def _check_inputs(job: str | None, logs: tuple[str, ...]) -> None:
    if bool(job) == bool(logs):
        raise UsageError("give either a JOB or one or more --log FILE, not both and not neither",
                         "e.g. `irisrl health /alice/dense8b-r1` or `irisrl health --log rank0.log.gz --log rank1.log`")
    for path in logs:
        p = Path(path)
        if not p.is_file():
            raise UndeterminedError(f"cannot read log file {path}: {'not a file' if p.exists() else 'no such file'}",
                                    "check the path (plain or .gz files)")
        try:
            with open(p, "rb") as fh:
                fh.read(1)
        except OSError as exc:
            raise UndeterminedError(f"cannot read log file {path}: {exc.strerror}", "check its permissions") from None


@dataclass
class _Opened:
    """A live job opened where it runs, and the mask its pulled lines get (built once)."""
    backend: Any
    job_id: str
    mask: Callable[[bytes], bytes]


@contextmanager
def _opened(job: str | None, target: dict[str, Any], secrets_env: str | None) -> Iterator[_Opened | None]:
    """The live job opened where it runs, None for log files. The secrets mask is built first, so
    an unreadable --secrets-env is refused before the cluster is reached and nothing is pulled."""
    if not job:
        yield None
        return
    from irisrl.ops.health_check import log_mask
    from irisrl.ops.jobs import open_job

    mask = log_mask(secrets_env)
    with open_job(job, bool(target.get("local")), target.get("controller_url"), target.get("cluster_config")) as opened:
        yield _Opened(opened.backend, opened.job_id, mask)


def _secrets_env_option(fn: Any) -> Any:
    return flag("secrets-env", default=None, metavar="FILE",
                help="Mask the allowlisted secrets of this dotenv file too, besides the environment's "
                     "[default: $DC_AGENT_SECRET_ENV].")(fn)


# ---- health -----------------------------------------------------------------------------------
HEALTH_EPILOG = """\b
Examples:
  irisrl health --log traces/dense8b-r1/combined.log --plan plan.json
  irisrl health --log rank0.log.gz --log rank1.log --json
  irisrl health /alice/dense8b-r1                       # pulls the live job's logs
  irisrl health --log big.log --state /tmp/h.state      # re-run reads only new bytes
  irisrl health --log combined.log --now 2026-12-02T14:00:00Z   # judge silence at that time

\b
Rungs (runbook section 8): 1 skyrl-ref checkout, 2 every rank staged its data, 3 Ray nodes
alive N/N, 4 weights loaded, 5 vLLM generating, 6 DCP+R3 guard, 7 trainer + rollout
coordinator, 8 trials completing; 9 output, steps and weight sync moving. KILL when 2, 4, 5,
6 or 9 fails, rung 8 finds a step whose trials mostly failed on infrastructure (sandbox,
quota, timeouts: from the trials' result.json), the trainer is up with no rollout
coordinator, the log ends in a crash, or a fatal cause of death is seen (NCCL timeout or
error, CUDA OOM, Ray node/worker/actor death or OOM kill, vLLM engine dead or failed to
start, placement group timeout, Hydra error, HF download failure without retry, ...; the
text ends with the cause and its fix, --json lists `causes`). Pending is never a failure.
Wedge (rung 5): Waiting >= 4 x max(Running, 1) with flat or falling generation throughput
over >= 60 s of consecutive reports of one engine (--wedge-ratio, --wedge-window).
KILL is advice with evidence: nothing here kills a job (that is `irisrl kill JOB --yes`).

\b
The clock (silence counts): a live JOB is judged at the wall clock; files at --now (ISO
8601, UTC when no zone is given), else at their newest dated line. Against it: rung 5 fails
when an engine whose last report had requests waiting says nothing for --engine-silence;
rung 9 (KILL) fails, once the trainer is up, on no dated line from any task for --silence,
a weight sync (`Started: 'sync_weights'`) with no `Finished:` for --sync-timeout, or a
step running longer than --stall-factor x the median step time (and --stall-min).
Hang (rung 9, KILL, cause `hang`): the runtime samples every task's process tree every 30 s
(`irisrl-liveness:` lines); a rank whose processes show no progress (no CPU, no bytes, no
wakeups, same wait channel and stack) for --hang-after is named, judged across the gang (a
waiter is not hung while a peer progresses), with since when and where it sits.

\b
Exit codes: 0 NO-KILL, 1 KILL, 3 unreadable input or logs not fetchable, 64 usage error.
"""


@click.command("health", epilog=HEALTH_EPILOG, context_settings={"max_content_width": 100})
@click.argument("job", required=False)
@click.option("--log", "logs", multiple=True, metavar="FILE", help="Log file (plain or .gz), repeatable, any order: one per task or combined.")
@click.option("--plan", "plan_path", default=None, metavar="PLAN.json", help="PLAN.json from `irisrl launch --dry-run --json` [JOB: from the ledger].")
@flag("trials-dir", default=None, help="Read Harbor's result.json files here: trials completed, and why rewards "
                                      "were 0 per step [default: the plan's trials dir].")
@click.option("--state", "state_path", default=None, metavar="FILE",
      help="State file: resume from the saved byte offsets (only new bytes are read) and save back.")
@flag("wedge-ratio", type=click.FloatRange(min=1.0), default=4.0, help="Waiting >= this x max(Running, 1) is a queue.")
@flag("wedge-window", type=click.FloatRange(min=1.0), default=60.0, help="Seconds of log time a wedge must last.")
@click.option("--now", "now_text", default=None, metavar="TIME",
              help="Judge silence at this time, ISO 8601 (UTC unless a zone is given) [default: JOB: the wall "
                   "clock; files: the newest dated line].")
@flag("silence", type=click.FloatRange(min=1.0), default=1800.0, help="Seconds with no dated line from any task: rung 9 fails.")
@flag("engine-silence", type=click.FloatRange(min=1.0), default=600.0,
      help="Seconds an engine may stay silent after a report with requests waiting.")
@flag("stall-factor", type=click.FloatRange(min=1.0), default=4.0, help="A step longer than this x the median step time stalls...")
@flag("stall-min", type=click.FloatRange(min=1.0), default=1200.0, help="...and longer than this many seconds.")
@flag("sync-timeout", type=click.FloatRange(min=1.0), default=1200.0, help="Seconds a started weight sync may take.")
@flag("hang-after", type=click.FloatRange(min=1.0), default=180.0,
      help="Seconds a rank's liveness samples may show no progress before it is a hang (cause `hang`).")
@_secrets_env_option
@json_flag
@_target_options
@click.pass_context
def health(ctx: click.Context, /, job: str | None, logs: tuple[str, ...], plan_path: str | None, trials_dir: str | None,
           state_path: str | None, wedge_ratio: float, wedge_window: float, now_text: str | None, silence: float,
           engine_silence: float, stall_factor: float, stall_min: float, sync_timeout: float,
           hang_after: float, secrets_env: str | None, as_json: bool, **target: Any) -> None:
    """KILL / NO-KILL verdict from a run's logs, with the evidence for every rung."""
    from irisrl.ops.health_check import LadderConfig, check_inputs
    from irisrl.ops.health_check import health as health_check

    _check_inputs(job, logs)
    check_inputs(job, logs, state_path)   # before the job's cluster is opened
    config = LadderConfig(wedge_ratio=wedge_ratio, wedge_window_s=wedge_window, silence_s=silence,
                          engine_silence_s=engine_silence, stall_factor=stall_factor, stall_min_s=stall_min,
                          sync_timeout_s=sync_timeout, hang_after_s=hang_after)
    with _opened(job, target, secrets_env) as opened:
        check = health_check(opened.job_id if opened else None, logs=logs, plan_path=plan_path,
                             trials_dir=trials_dir, state_path=state_path, config=config,
                             now=parse_now(now_text) if now_text else None,
                             mask=opened.mask if opened else None, backend=opened.backend if opened else None)
    if as_json:
        click.echo(json.dumps(check.to_dict(), indent=2))
    else:
        from irisrl.ops.observing import render_health

        render_health(check.report, _console(), title=f"irisrl health {job or ', '.join(logs)}",
                      trials_unknown=check.trials_unknown)
    if check.unparsed:   # a verdict from no evidence is no verdict (issue 16, D12)
        click.echo(f"warning: nothing parseable was read from {', '.join(logs)}: no dated line and no line "
                   "the health ladder recognises (not a run's log? random bytes? a .gz name on plain data?); "
                   "the verdict above rests on no evidence", err=True)
    ctx.exit(check.exit_code)


def parse_now(text: str) -> float:
    """`--now`: ISO 8601 (a trailing Z allowed); no zone means UTC. Seconds since the epoch."""
    import datetime as dt

    try:
        when = dt.datetime.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--now {text!r} is not an ISO 8601 time",
                         "e.g. --now 2026-12-02T14:00:00Z (UTC) or --now '2026-12-02 15:00:00+01:00'") from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    return when.timestamp()


# ---- logs -------------------------------------------------------------------------------------
LOGS_EPILOG = """\b
Examples:
  irisrl logs /alice/dense8b-r1                         # -> ./traces/alice_dense8b-r1_<UTC stamp>/
  irisrl logs dense8b-r1 --out /tmp/r1 --follow         # keep appending until the job ends

\b
Writes one file per task and attempt (task-<i>.attempt-<a>.log), combined.log (each line
prefixed `[<i>/<a>] `; `irisrl health --log` and `progress --log` read it) and manifest.json
(lines, bytes and pages per file, what could not be fetched). The whole history, paged.
Secret values (the allowlist's, from the environment and --secrets-env /
$DC_AGENT_SECRET_ENV, and IRISRL_S3_SECRET_ACCESS_KEY) are saved as ***.

\b
Exit codes: 0 everything fetched, 3 something could not be fetched (listed), 64 usage error.
"""


@click.command("logs", epilog=LOGS_EPILOG, context_settings={"max_content_width": 100})
@click.argument("job")
@flag("out", default=None, help="Directory [default: ./traces/<job>_<UTC stamp>/].")
@click.option("--follow", "-f", is_flag=True, help="Keep pulling new lines until the job ends.")
@flag("interval", type=click.FloatRange(min=1.0), default=30.0, help="Seconds between pulls with --follow.")
@flag("max-follow", type=click.FloatRange(min=1.0), default=12 * 3600.0, help="Stop following after this many seconds.")
@_secrets_env_option
@json_flag
@_target_options
@click.pass_context
def logs(ctx: click.Context, /, job: str, out: str | None, follow: bool, interval: float, max_follow: float,
         secrets_env: str | None, as_json: bool, **target: Any) -> None:
    """Pull a job's whole log history (every task and attempt) into a directory."""
    from irisrl.ops.observing import pull_logs

    with _opened(job, target, secrets_env) as opened, _progress_bar(as_json) as on_progress:
        assert opened is not None   # JOB is a required argument of `logs`
        manifest = pull_logs(opened.backend, opened.job_id, out, follow=follow, interval_s=interval,
                             max_follow_s=max_follow, mask=opened.mask, on_progress=on_progress)
    if as_json:
        click.echo(json.dumps(manifest, indent=2))
    else:
        _render_manifest(manifest)
    ctx.exit(int(Exit.OK if manifest["complete"] else Exit.UNKNOWN))


@contextmanager
def _progress_bar(quiet: bool) -> Iterator[Any]:
    if quiet or not sys.stderr.isatty():
        yield lambda pull, n: None
        return
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=_console(stderr=True), transient=True) as bar:
        task = bar.add_task("pulling logs", total=None)
        totals = {"lines": 0}

        def update(pull: Any, n: int) -> None:
            totals["lines"] += n
            bar.update(task, description=f"task {pull.task_index} attempt {pull.attempt}: "
                                         f"{pull.lines:,} lines ({totals['lines']:,} in all)")
        yield update


def _render_manifest(manifest: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=Text(f"{manifest['job_id']} -> {manifest['out_dir']}"))
    for col in ("task", "attempt", "state", "lines", "bytes", "pages"):
        table.add_column(col, justify="left" if col == "state" else "right", no_wrap=True, min_width=len(col))
    table.add_column("fetched", overflow="fold")
    for t in manifest["tasks"]:
        fetched = "complete" if t["complete"] else f"INCOMPLETE: {t['error'] or 'stopped'}"
        table.add_row(str(t["task_index"]), str(t["attempt"]), Text(t["state"]), f"{t['lines']:,}", f"{t['bytes']:,}",
                      str(t["pages"]), Text(fetched))
    console = _console()
    console.print(table)
    console.print(Text(f"{manifest['total_lines']:,} lines in {len(manifest['tasks'])} file(s); combined: "
                       f"{Path(manifest['out_dir']) / manifest['combined']}"))
    for problem in manifest["problems"]:
        console.print(Text("not fetched: ", style="bold red") + Text(problem))


# ---- progress ---------------------------------------------------------------------------------
PROGRESS_EPILOG = """\b
Examples:
  irisrl progress --log traces/dense8b-r1/combined.log --last 10
  irisrl progress /alice/dense8b-r1 --plot r1.png
  irisrl progress --log rank0.log.gz --json

\b
Rows come from `WANDB_MIRROR kind=train step=N metrics={...}` and the console logger's
`Step N: {...}` lines. Columns: reward (avg raw reward), pass@n, entropy, log-ratio, grad
norm, policy loss, mean response length, step time. --plot draws reward, entropy,
log-ratio and grad norm against step (PNG).

\b
Exit codes: 0 ok (also with no step yet), 3 unreadable input, 64 usage error.
"""


@click.command("progress", epilog=PROGRESS_EPILOG, context_settings={"max_content_width": 100})
@click.argument("job", required=False)
@click.option("--log", "logs", multiple=True, metavar="FILE", help="Log file (plain or .gz), repeatable.")
@click.option("--plot", "plot_path", default=None, help="Write the four mandatory curves to this PNG.")
@flag("last", type=click.IntRange(min=1), default=None, help="Only the last N steps (table and JSON).")
@_secrets_env_option
@json_flag
@_target_options
@click.pass_context
def progress(ctx: click.Context, /, job: str | None, logs: tuple[str, ...], plot_path: str | None, last: int | None,
             secrets_env: str | None, as_json: bool, **target: Any) -> None:
    """One row per training step: reward, pass@n, entropy, log-ratio, grad norm, loss, length, time."""
    from irisrl.ops.health_check import warn_truncated
    from irisrl.ops.observing import progress as read_progress, render_progress

    _check_inputs(job, logs)
    with _opened(job, target, secrets_env) as opened:
        result = read_progress(opened.job_id if opened else None, backend=opened.backend if opened else None,
                               logs=logs, last=last, plot_path=plot_path, title=f"{job or Path(logs[0]).name}",
                               mask=opened.mask if opened else None, on_truncated=warn_truncated)
    for problem in result.problems:
        click.echo(f"warning: logs incomplete: {problem}", err=True)
    rows, shown, plot_path = result.rows, result.shown, result.plot
    if as_json:
        click.echo(json.dumps(shown, indent=2))
    elif not rows:
        click.echo("no training step yet (no WANDB_MIRROR kind=train / `Step N:` line)")
    else:
        render_progress(shown, _console())
    if plot_path and not as_json:
        click.echo(f"plot: {plot_path}", err=True)
    ctx.exit(int(Exit.OK))
