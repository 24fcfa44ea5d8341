"""`irisrl port`: rewrite a Jupiter (Apptainer SIF, 4-GPU GH200) config into the Iris form."""

from __future__ import annotations

import click

from irisrl.cli.options import flag, json_flag
from irisrl.cli.render_rewrite import emit_json, render_text, rewrite_or_refuse
from irisrl.util.exitcodes import Exit

EPILOG = """\b
Examples:
  irisrl port examples/jupiter/dense8b_gh200_sif.yaml -o cloud/iris/configs/dense8b.yaml --from-num-nodes 14
  irisrl port jupiter.yaml -o iris.yaml --from-gpus-per-node 4 --json

\b
What it does (runbook section 4), each change printed with its rule ID:
  CFG-CONTAINER        drop container/sif/apptainer/conda/binds/pydeps blocks; move
                       container.extra_env into top-level extra_env (top level wins a collision)
  ENV-MISPLACED        move any other <section>.extra_env into top-level extra_env too
  ENV-SIF              drop APPTAINERENV_X/SINGULARITYENV_X duplicates (rename when X is unset),
                       TRITON_LIBCUDA_PATH, LIBRARY_PATH into /.singularity.d
  ENV-OFFLINE          drop HF_HUB_OFFLINE, TRANSFORMERS_OFFLINE, HF_DATASETS_OFFLINE
  ENV-NCCL-CRIPPLE     drop NCCL_P2P_DISABLE, NCCL_NVLS_ENABLE, NCCL_COLLNET_ENABLE
  ENV-UNEXPANDED       $CONDA_PREFIX -> the image's RL prefix; drop other $VAR uses
  ENV-LD-LIBRARY-PATH  a kept LD_LIBRARY_PATH starts with the literal RL prefix lib
  ENV-CLOUD-CREDS      drop AWS_*/R2_* (they clobber the pod's injected credentials)
  TOPO-NODES           *_num_nodes x FROM_GPUS / 8 (refused when not whole)
  TOPO-GPUS-PER-NODE-FORCED  *_num_gpus_per_node -> 8
  ENG-EXPLICIT         disaggregated with num_inference_engines null: pinned to
                       (FROM_NODES x FROM_GPUS - trainer GPUs) / (tp x pp x dp)
  CFG-DB-REGISTRATION  enable_db_registration -> false
  CFG-BACKEND          drop backend: {kind: apptainer} (the gpu-rl image is the runtime)
vLLM serve flags and disable_custom_all_reduce are kept. Env values are never printed.
Nothing is invented: absent placement/critic keys stay absent, null node counts stay null.
Jupiter host paths (/e/data1, /e/fscratch, ...) are left as they are: the validation
reports each as CFG-HOST-PATH with a fix, so the port exits 1 until you replace them
(the NCCL flight-recorder dump path becomes /tmp/fr_dumps/job/<file>: launch scopes it).
The result is validated like `irisrl validate`; exit 1 if it still has errors.

\b
Exit codes: 0 ported and clean; 1 refused (nothing written) or still has errors; 64 bad flags.
"""


@click.command(epilog=EPILOG, context_settings={"max_content_width": 100}, short_help="Port a Jupiter (Apptainer/SIF, GH200) config to Iris.")
@click.argument("jupiter_config", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False),
              help="Where to write the ported YAML (no comments).")
@flag("from-gpus-per-node", type=click.IntRange(1, 64), default=4, help="GPUs per node of the source cluster.")
@flag("from-num-nodes", type=click.IntRange(min=1), default=None,
      help="Node count of the Jupiter launch; needed to pin num_inference_engines when disaggregated.")
@flag("workspace", type=click.Path(file_okay=False), default=None,
      help="Workspace the config's assets are relative to (as for validate; default: the current directory).")
@flag("profile", default="cw-us-east-02a", help="Cluster profile: a shipped name, or the path of a TOML profile file.")
@json_flag
@click.pass_context
def port(ctx: click.Context, jupiter_config: str, output: str, from_gpus_per_node: int,
         from_num_nodes: int | None, workspace: str | None, profile: str, as_json: bool) -> None:
    """Rewrite JUPITER_CONFIG (Apptainer/SIF, 4-GPU GH200 nodes) into the Iris/Docker form."""
    from irisrl.ops.rewrite import port as port_to

    done = rewrite_or_refuse(ctx, jupiter_config, as_json, lambda: port_to(
        jupiter_config, output, from_gpus_per_node=from_gpus_per_node, from_num_nodes=from_num_nodes,
        workspace=workspace, profile=profile))
    if as_json:
        emit_json(done.to_dict(jupiter_config, output))
    else:
        launch = done.launch_command
        footer = [f"next: {launch}"] if done.check.ok else ["fix the errors above in the ported file, then: " + launch]
        render_text(f"port {jupiter_config} -> {output}", done, output, footer)
    ctx.exit(Exit.OK if done.check.ok else Exit.FAIL)
