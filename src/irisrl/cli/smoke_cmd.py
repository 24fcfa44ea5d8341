"""`irisrl smoke-config`: a throwaway colocated bring-up config derived from a real one."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.render_rewrite import emit_json, json_payload, render_text, rewrite_or_refuse
from irisrl.ops.rewrite import check_config
from irisrl.util.exitcodes import Exit

EPILOG = """\b
Examples:
  irisrl smoke-config examples/configs/dense8b_disagg.yaml -o /tmp/dense8b_smoke.yaml
  irisrl smoke-config examples/configs/moe30b_ep4_r3_dcp2.yaml -o smoke.yaml --max-steps 3 --nodes 2 --json

\b
What it changes (each change printed with its rule ID):
  colocate_all: true and colocate_policy_ref: true; engine TP/PP/DP kept
  policy/ref nodes: the fewest whole nodes where policy GPUs == engine GPUs
    (lcm(8, tp*pp*dp) / 8), or --nodes N when that holds a whole number of engines
  num_inference_engines: null (derived: policy GPUs / GPUs per engine)
  max_steps: --max-steps; eval_before_train: false
  checkpoints off: ckpt_interval 0, hf_save_interval 0, resume_mode null
  trace_upload.enabled: false; enable_db_registration: false
Then it validates the result and prints the `irisrl launch` command for it.

\b
Exit codes: 0 written and clean; 1 refused (nothing written) or still has errors; 64 bad flags.
"""


@click.command(epilog=EPILOG, context_settings={"max_content_width": 100}, short_help="Derive a throwaway colocated bring-up config.")
@click.argument("config", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False),
              help="Where to write the smoke YAML (no comments).")
@flag("max-steps", type=click.IntRange(min=1), default=2, help="trainer.max_steps of the smoke run.")
@flag("nodes", type=click.IntRange(min=1), default=None, help="Node count to use instead of the smallest layout.")
@flag("workspace", type=click.Path(file_okay=False), default=None,
      help="Workspace the config's assets are relative to (as for validate; default: the current directory).")
@flag("profile", default="cw-us-east-02a", help="Cluster profile: a shipped name, or the path of a TOML profile file.")
@json_flag
@click.pass_context
def smoke_config(ctx: click.Context, config: str, output: str, max_steps: int, nodes: int | None,
                 workspace: str | None, profile: str, as_json: bool) -> None:
    """Write a colocated smoke config derived from CONFIG, validate it, print its launch command."""
    from irisrl.config.smoke import smoke_config as derive

    cluster, result = rewrite_or_refuse(ctx, config, output, profile, as_json,
                                        lambda raw, cluster: derive(raw, cluster, max_steps, nodes))
    check = check_config(output, cluster, workspace)
    launch = launch_command(output, result.config, check.num_nodes or result.num_nodes, cluster.gpus_per_node,
                            workspace)
    if as_json:
        emit_json(json_payload(config, output, result.changes, check, launch_command=launch,
                               num_inference_engines=result.num_inference_engines))
    else:
        footer = [f"dry run:  {launch} --dry-run", f"launch:   {launch}"]
        render_text(f"smoke-config {config} -> {output}", result.changes, check, output, footer)
    ctx.exit(Exit.OK if check.ok else Exit.FAIL)


def launch_command(path: str, cfg: dict[str, Any], num_nodes: int, gpus_per_node: int,
                   workspace: str | None = None) -> str:
    """The runbook's canonical launch line for the smoke config (values shell-quoted)."""
    argv = ["irisrl", "launch", "--rl_config", path, "--num-nodes", str(num_nodes),
            "--gpus_per_node", str(gpus_per_node)]
    model = _get(cfg, "trainer", "policy", "model", "path")
    if isinstance(model, str) and model:
        argv += ["--model_path", model]
    data = _get(cfg, "data", "train_data")
    if isinstance(data, list) and data and all(isinstance(d, str) for d in data):
        argv += ["--train_data", json.dumps(data)]
    if workspace:
        argv += ["--workspace", workspace]
    argv += ["--job-name", job_name_for(path), "--max-retries", "1"]
    return " ".join(shlex.quote(a) for a in argv)


def job_name_for(path: str) -> str:
    """A valid job name from the file name: lowercase, [a-z0-9-], at most 63 characters."""
    stem = re.sub(r"[^a-z0-9-]+", "-", Path(path).stem.lower()).strip("-") or "run"
    name = stem if stem.endswith("smoke") else f"{stem}-smoke"
    return name[:63].strip("-")


def _get(cfg: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(cfg, dict):
            return None
        cfg = cfg.get(key)
    return cfg
