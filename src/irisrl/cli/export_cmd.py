"""`irisrl export JOB`: parse -> ops.export.export -> render (text or --json)."""

from __future__ import annotations

import json
import sys

import click

from irisrl.cli.options import allow_queue_flag, flag, json_flag
from irisrl.cli.target_opts import target_options
from irisrl.ops.export import DEFAULT_TIMEOUT_S, PRIORITIES, UPLOAD_MODES, ExportPlan, ExportResult, ExportSettings, \
    export as run_export, parse_entrypoint
from irisrl.util.exitcodes import Exit


@click.command(epilog="""\b
Examples:
  irisrl export /alice/dense8b-r1 --dry-run
  irisrl export dense8b-r1 --export-hf alice/dense8b-r1-policy --step 40 --json
  irisrl export dense8b-r1 --gpus 8 --nodes 2 --dry-run
  irisrl export smoke-1 --local --cpu-only --export-entrypoint "python my_export.py" --workspace ./ws

\b
The job runs the image's own export entrypoint (python -m skyrl_train.entrypoints.checkpoint_export
with ++checkpoint_export.* args) on the saved policy's GPUs, as MarinSkyRL does for every
strategy: its trainer.placement.policy_num_nodes nodes, each with the run's GPUs per node and
per-node cpu/memory/disk (a multi-node gang coscheduled, under irisrl's runtime). It is followed
to the end, and the repo is then checked for config.json, a weight shard and a tokenizer file.
Before submitting, the gang is checked against the cluster as launch does: one that can never
fit is refused (the fit tables and the fix), unless --allow-queue.
Exit: 0 exported and checked (or dry run), 1 refused / job failed / files missing,
2 JOB not in the ledger, 3 could not determine, 64 usage.""")
@click.argument("job")
@click.option("--export-hf", "--export_hf", "repo", default=None, help="Hub repo ORG/NAME (default: the config's trainer.hf_hub_repo_id).")
@click.option("--step", type=click.IntRange(min=0), default=None,
              help="Checkpoint step to export (default: the latest complete one).")
@click.option("--dry-run", is_flag=True, help="Show the export job's request; submit nothing.")
@flag("export-entrypoint", default=None,
      help="Command the job runs instead of the image's export module (shell-quoted).")
@click.option("--workspace", type=click.Path(file_okay=False, exists=True), default=None,
              help="Directory shipped with the job (default: none; the image's entrypoint needs none).")
@click.option("--revision", default="main", show_default=True, help="Hub branch to publish to.")
@click.option("--private", is_flag=True, help="Create the repo private.")
@flag("upload-mode", type=click.Choice(UPLOAD_MODES), default="latest",
      help="latest: the repo root; all: also checkpoints/step_<N>/.")
@click.option("--priority", type=click.Choice(PRIORITIES), default="batch", show_default=True,
              help="Iris priority band of the export job.")
@click.option("--cpu-only", is_flag=True,
              help="No GPU (not the source's way: for an --export-entrypoint that converts on CPU).")
@click.option("--gpus", type=click.IntRange(min=0), default=None,
              help="GPUs per node (default: the run's; never fewer than the saved policy's).")
@click.option("--nodes", type=click.IntRange(min=1), default=None,
              help="Nodes (default: the saved policy's trainer.placement.policy_num_nodes).")
@click.option("--cpu", type=click.FloatRange(min=0, min_open=True), default=None,
              help="CPUs per node (default: the run's; 8 with --cpu-only).")
@click.option("--memory", default=None, help="Memory per node (default: the run's; 64GB with --cpu-only).")
@click.option("--disk", default=None, help="Disk per node (default: the run's; 256GB with --cpu-only).")
@click.option("--timeout", "timeout_s", type=click.FloatRange(min=1), default=DEFAULT_TIMEOUT_S, show_default=True,
              help="Seconds to follow the job before terminating it.")
@flag("secrets-env", default=None, help="dotenv file with HF_TOKEN (default: $DC_AGENT_SECRET_ENV).")
@allow_queue_flag
@json_flag
@target_options
def export(job: str, repo: str | None, step: int | None, dry_run: bool, export_entrypoint: str | None,
           workspace: str | None, revision: str, private: bool, upload_mode: str, cpu_only: bool, gpus: int | None,
           nodes: int | None, cpu: float | None, memory: str | None, disk: str | None, priority: str, timeout_s: float,
           secrets_env: str | None, allow_queue: bool, as_json: bool, local: bool,
           controller_url: str | None, cluster_config: str | None) -> None:
    """Export JOB's final (or --step N) policy to the Hugging Face Hub as its own job on Iris."""
    settings = ExportSettings(repo=repo, step=step, entrypoint=parse_entrypoint(export_entrypoint),
                              workspace=workspace or None, revision=revision, private=private,
                              upload_mode=upload_mode, cpu=cpu, memory=memory, disk=disk, cpu_only=cpu_only,
                              gpus=gpus, nodes=nodes, timeout_s=timeout_s,
                              secrets_env=secrets_env, priority=priority, allow_queue=allow_queue)
    from irisrl.cli.render_fit import tables_on_refusal

    with tables_on_refusal():
        done = run_export(job, settings, dry_run=dry_run, local=local, controller_url=controller_url,
                          cluster_config=cluster_config)
    if as_json:
        click.echo(json.dumps(done.to_dict(), indent=2))
    else:
        render(done)
    raise click.exceptions.Exit(int(Exit.OK if isinstance(done, ExportPlan) or done.ok else Exit.FAIL))


def _resources(plan: ExportPlan) -> str:
    request, geo = plan.request(), plan.geometry
    device = f"{geo.gpus_per_node} x {geo.gpu_variant or 'GPU'}" if geo.gpus_per_node else "no GPU"
    gang = f"coscheduled by {request.group_by}, " if request.group_by else ""
    return (f"{request.replicas} task(s), each {device}, cpu {request.resources.cpu:g}, memory "
            f"{request.resources.memory}, disk {request.resources.disk}; {gang}max retries "
            f"{request.max_retries_failure}, {request.priority_band}")


def render(done: ExportPlan | ExportResult) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, markup=False, width=None if sys.stdout.isatty() else 160)   # log text as is
    plan = done if isinstance(done, ExportPlan) else done.export
    request = plan.request()
    secret = set(request.secret_env_keys)
    table = Table("item", "value", title=f"export of {plan.source_job}")
    rows = [("export job", plan.job_id),
            ("checkpoint", f"{plan.checkpoint.path} (step {plan.checkpoint.step}; "
                           f"latest complete {plan.checkpoint.latest_complete})"),
            ("hub repo", f"{plan.repo}@{plan.revision} (upload mode {plan.upload_mode})"),
            ("image", request.task_image or "- (local cluster: this host)"),
            ("resources", _resources(plan)),
            ("why", plan.geometry.why),
            ("argv", " ".join(request.argv)),
            ("env", ", ".join(f"{k}={'***' if k in secret else v}" for k, v in sorted(request.env.items()))),
            ("expected files", ", ".join(plan.to_dict().get("expected_files", [])))]
    for name, value in rows:
        table.add_row(name, value)
    console.print(table)
    if isinstance(done, ExportPlan):
        console.print("not submitting (dry run)")
        return
    console.print(f"{done.export.job_id}: {done.state} (exit {done.exit_code})")
    if done.state != "succeeded":
        console.print(f"error: the export job failed: {done.error or 'no error message'}")
        for line in done.log_tail:
            console.print(f"  | {line}")
        return
    console.print(f"repo files ({len(done.files)}): {', '.join(done.files) or '-'}")
    if done.missing:
        console.print(f"error: {done.export.repo} lacks {', '.join(done.missing)} after the export job succeeded")
    else:
        console.print(f"OK: {done.export.repo} holds a portable HF model")
