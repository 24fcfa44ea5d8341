"""`irisrl smoke-config`: a throwaway colocated bring-up config derived from a real one."""

from __future__ import annotations

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.render_rewrite import emit_json, render_text, rewrite_or_refuse
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
    from irisrl.ops.rewrite import smoke

    done = rewrite_or_refuse(ctx, config, as_json, lambda: smoke(
        config, output, max_steps=max_steps, nodes=nodes, workspace=workspace, profile=profile))
    if as_json:
        emit_json(done.to_dict(config, output))
    else:
        launch = done.launch_command
        footer = [f"dry run:  {launch} --dry-run", f"launch:   {launch}"]
        render_text(f"smoke-config {config} -> {output}", done, output, footer)
    ctx.exit(Exit.OK if done.check.ok else Exit.FAIL)
