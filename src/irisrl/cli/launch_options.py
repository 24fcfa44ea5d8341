"""`irisrl launch`'s flags, shared by `launch` and `fit` (which takes launch's flags to build
the plan as `launch --dry-run` does), split by what they are about: what runs (ops PlanInputs),
where (ops Target), how the result is shown (Presentation) and what submit may do
(allow_queue, policy: LaunchArgs)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click

from irisrl.cli.options import allow_queue_flag, flag, json_flag

if TYPE_CHECKING:
    from irisrl.ops.types import PlanInputs, Target

# the flags that are not PlanInputs fields
TARGET_FLAGS = ("local", "controller_url", "cluster_config")
PRESENTATION_FLAGS = ("dry_run", "as_json", "no_wait")
SUBMIT_FLAGS = ("allow_queue", "policy")


@dataclass(frozen=True)
class Presentation:
    """How `launch` shows its result: print the plan instead of submitting (dry_run), one JSON
    object (as_json), submit and return without following (no_wait)."""
    dry_run: bool = False
    as_json: bool = False
    no_wait: bool = False


@dataclass(frozen=True)
class LaunchArgs:
    inputs: "PlanInputs"        # what runs
    target: "Target"            # where
    show: Presentation          # how it is shown
    allow_queue: bool = False   # submit a gang that can never fit now
    policy: str | None = None   # standing-constraints policy file for the live rules


def launch_options(func: Any) -> Any:
    """Every `irisrl launch` flag, on `func` (a click command)."""
    decorators = [
        flag("rl_config", default=None, metavar="YAML",
             help="The RL config (trainer/generator/... sections). Required, except with --resume (then: JOB's)."),
        flag("num-nodes", type=click.IntRange(min=1), default=None,
             help="Whole nodes (one Iris task each). Default: what the GPU budget needs."),
        flag("gpus_per_node", type=click.IntRange(min=1), default=None,
             help="GPUs per node; forces policy/ref per-node GPUs. Default: the profile's (8)."),
        flag("skyrl_override", multiple=True, metavar="OVR",
             help="Hydra override for the trainer, repeatable; last wins (e.g. ++trainer.max_steps=2)."),
        flag("model_path", default=None, help="HF id or local path of the policy model."),
        flag("train_data", default=None, metavar="JSON", help="JSON list of datasets/task sets, e.g. '[\"org/x\"]'."),
        flag("job-name", default=None, help="Job name (DNS label). Default: <config stem>-<UTC stamp>."),
        flag("max-retries", type=click.IntRange(min=0), default=1, help="Gang re-bring-ups on failure."),
        flag("rendezvous-dir", default=None,
             help="Shared store for the Ray rendezvous. Default: a fresh path under the profile's storage root."),
        flag("rendezvous-timeout", type=click.IntRange(min=1), default=None,
             help="Seconds to wait for all nodes. Default: 1800 (--local: 120)."),
        flag("skyrl-ref", default=None, help="git ref of MarinSkyRL to check out over the image's baked one."),
        flag("skyrl-checkout", default=None, metavar="DIR",
             help="Local SkyRL checkout; warns (LCH-SKYRL-REF) when its HEAD is not the image's commit."),
        flag("cluster-config", default=None, metavar="YAML",
             help="Iris cluster config. Default: $IRISRL_CLUSTER_CONFIG, else <cluster>.yaml in ~/Documents/marin/lib/iris/config, $MARIN_ROOT/lib/iris/config or the Iris SDK's config dirs"),
        flag("profile", default=None, help="irisrl cluster profile: a shipped name, or the path of a TOML profile file (read as given). Default: cw-us-east-02a."),
        flag("dry-run", is_flag=True, help="Print the resolved plan; do not submit."),
        flag("no-wait", is_flag=True, help="Submit and return without following the job."),
        allow_queue_flag,
        flag("cpu", type=click.FloatRange(min=0, min_open=True), default=None, help="CPUs per node (default 48)."),
        flag("memory", default=None, help="Memory per node (default: the profile's, 1700GB; 512GB with --local)."),
        flag("disk", default=None, help="Disk per node (default: the profile's, 21800Gi)."),
        flag("priority", type=click.Choice(["production", "interactive", "batch"]), default="interactive",
             help="Iris priority band."),
        flag("secrets-env", default=None, metavar="FILE",
             help="dotenv file with HF_TOKEN, WANDB_*, DAYTONA_* (default: $DC_AGENT_SECRET_ENV)."),
        click.option("--secret", "secret_names", multiple=True, metavar="NAME", help="Add NAME to the secrets allowlist."),
        flag("workspace", default=None, metavar="DIR", help="Directory uploaded to /app (default: current dir)."),
        json_flag,
        flag("local", is_flag=True, help="Run on an embedded local Iris cluster (fake GPUs, real Ray)."),
        flag("controller-url", default=None, help="A running Iris controller to submit to."),
        flag("role", type=click.Choice(["trainer", "rehearsal"]), default=None,
             help="What rank 0 runs. Default: trainer (--local: rehearsal)."),
        flag("rehearse", is_flag=True, help="Run the placement rehearsal instead of the trainer, on any target."),
        flag("series", default=None, help="Run series (default: the job name up to its first '-')."),
        flag("policy", default=None, metavar="FILE", help="Standing-constraints policy file (live rules)."),
        flag("fetch-model-config", is_flag=True, help="Allow a network lookup of the model's config.json."),
        flag("resume", default=None, metavar="JOB",
             help="Continue JOB from its latest complete checkpoint (same hparams and layout), with the config and "
                  "flags JOB's ledger row recorded; flags given as well win (--skyrl_override: added after JOB's)."),
        flag("allow-layout-change", is_flag=True, help="With --resume: accept a layout (nodes, placement, parallelism) unlike JOB's."),
    ]
    for decorate in reversed(decorators):
        func = decorate(func)
    return func


def options_from_flags(params: dict[str, Any]) -> LaunchArgs:
    """LaunchArgs from launch's parsed flags (click's keyword arguments)."""
    from irisrl.ops.types import PlanInputs, Target

    kwargs = dict(params)
    if not kwargs["rl_config"] and not kwargs["resume"]:
        raise click.UsageError("Missing option '--rl_config': a new launch needs its RL config. Pass --rl_config "
                               "YAML, or --resume JOB to continue a run with the config and flags it was launched with.")
    target = Target(**{k: kwargs.pop(k) for k in TARGET_FLAGS})
    show = Presentation(**{k: bool(kwargs.pop(k)) for k in PRESENTATION_FLAGS})
    allow_queue, policy = bool(kwargs.pop("allow_queue")), kwargs.pop("policy")
    kwargs["skyrl_overrides"] = tuple(kwargs.pop("skyrl_override"))
    kwargs["secret_names"] = tuple(kwargs["secret_names"])
    return LaunchArgs(PlanInputs(**kwargs), target, show, allow_queue, policy)


def parse_launch_flags(args: list[str]) -> LaunchArgs:
    """LaunchArgs from launch's command-line flags (click.UsageError on bad ones)."""
    parser = launch_options(click.command("launch")(lambda **_: None))
    with parser.make_context("launch", list(args)) as ctx:
        return options_from_flags(ctx.params)
