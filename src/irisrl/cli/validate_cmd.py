"""`irisrl validate`: run the config-scope rule catalogue and show the GPU budget."""

from __future__ import annotations

import click

from irisrl.cli.options import flag, json_flag
from irisrl.util.exitcodes import Exit

EPILOG = """\b
Examples:
  irisrl validate examples/configs/dense8b_disagg.yaml --workspace examples/workspace --num-nodes 7
  irisrl validate cfg.yaml --num-nodes 4 --skyrl_override generator.num_inference_engines=2
  irisrl validate cfg.yaml --model_path ./models/my-moe --json

\b
Exit codes: 0 no errors (warnings allowed), 1 errors found, 64 usage error.
Without --num-nodes the node count is not checked (the budget still shows the required nodes).
"""


@click.command("validate", epilog=EPILOG, context_settings={"max_content_width": 100})
@click.argument("config", type=click.Path(dir_okay=False))
@flag("num-nodes", type=click.IntRange(min=1), default=None, help="Nodes the launch will request (checked against the budget).")
@flag("gpus-per-node", type=click.IntRange(min=1), default=None, help="GPUs per node; overrides the YAML [default: the profile's, 8].")
@flag("model_path", default=None, help="Model (HF id or local dir); overrides trainer.policy.model.path.")
@flag("workspace", type=click.Path(exists=True, file_okay=False), default=None,
      help="Workspace uploaded to /app; referenced assets must exist under it [default: current directory].")
@flag("skyrl_override", multiple=True, help="Hydra override, repeatable, last wins (e.g. ++trainer.max_steps=2).")
@flag("fetch-model-config", is_flag=True, default=False, help="Fetch the model's config.json from the Hub if not known locally.")
@flag("profile", default="cw-us-east-02a", help="Cluster profile: a shipped name, or the path of a TOML profile file.")
@json_flag
@click.pass_context
def validate(ctx: click.Context, config: str, num_nodes: int | None, gpus_per_node: int | None, model_path: str | None,
             workspace: str | None, skyrl_override: tuple[str, ...], fetch_model_config: bool, profile: str,
             as_json: bool) -> None:
    """Check an RL config against the rule catalogue and print its GPU budget."""
    from irisrl.cli import render_findings as render
    from irisrl.ops.validation import validate as check

    report = check(config, num_nodes=num_nodes, gpus_per_node=gpus_per_node, model_path=model_path,
                   workspace=workspace, overrides=skyrl_override, profile=profile,
                   fetch_model_config=fetch_model_config)
    if as_json:
        click.echo(render.dumps(report.to_dict()))
    else:
        render.render_text(report.findings, report.budget, render.make_console(), title=f"irisrl validate {config}")
    ctx.exit(int(Exit.OK if report.ok else Exit.FAIL))
