"""`port(src, out, ...)` and `smoke(src, out, ...) -> Rewritten`, the engines of `irisrl port`
and `irisrl smoke-config`: load the input config, derive the output (config/port.py,
config/smoke.py) and write it (or refuse with an IrisrlError, nothing written), check the
written file with the rule catalogue as `validate` does, and say the `irisrl launch` line
for it. Rendering is cli/render_rewrite.py."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol, TypeVar

from irisrl.config.budget import Budget
from irisrl.config.edits import Change
from irisrl.config.profile import DEFAULT_PROFILE, ClusterProfile
from irisrl.core.findings import Finding, has_errors, sort_findings
from irisrl.util.errors import IrisrlError, UsageError

if TYPE_CHECKING:
    from irisrl.config.port import PortResult
    from irisrl.config.smoke import SmokeResult


class _Result(Protocol):
    @property
    def config(self) -> dict[str, object]: ...

    @property
    def changes(self) -> tuple[Change, ...]: ...


R = TypeVar("R", bound=_Result)   # a rewrite result: the mapping to write and its changes


@dataclass(frozen=True)
class CheckResult:
    findings: tuple[Finding, ...]   # sorted: errors, warnings, info
    budget: Budget | None           # None when the written YAML is unusable

    @property
    def ok(self) -> bool:
        return not has_errors(self.findings)

    @property
    def num_nodes(self) -> int | None:
        return self.budget.num_nodes if self.budget is not None else None


def load_input(path: str) -> dict[str, object]:
    """The input config as a mapping; unreadable or not a mapping is an error (exit 1)."""
    from irisrl.config.load import load_config

    loaded = load_config(path)
    bad = [f for f in loaded.findings if f.severity == "error" and not f.message.startswith("required section")]
    if bad or not loaded.raw:
        first = bad[0] if bad else None
        raise IrisrlError(f"{path}: {first.message if first else 'the config is empty'}",
                          first.fix if first else "pass an RL config YAML with trainer: and generator: sections")
    return loaded.raw


def derive_and_write(src: str, out: str, profile_name: str,
                     derive: Callable[[dict[str, object], ClusterProfile], R]) -> tuple[ClusterProfile, R]:
    """(cluster profile, result) of `derive(input config, profile)`, its config written to
    OUT. Raises IrisrlError (nothing written) when it cannot be."""
    from irisrl.config.edits import write_yaml
    from irisrl.config.profile import load_profile

    check_output_path(src, out)
    cluster = load_profile(profile_name)
    result = derive(load_input(src), cluster)
    write_yaml(out, result.config)
    return cluster, result


def check_output_path(src: str, out: str) -> None:
    if Path(out).resolve() == Path(src).resolve():
        raise UsageError(f"-o {out} is the input file itself", "write the result to a new file")
    if Path(out).is_dir():
        raise UsageError(f"-o {out} is a directory", "give a file path such as out/config.yaml")


def check_config(path: str, profile: ClusterProfile, workspace: str | None = None) -> CheckResult:
    """Run the config scope of the rule catalogue on the written file, as `validate` does."""
    from irisrl.rules.catalogue import run_rules
    from irisrl.rules.context import build_context

    ctx = build_context(path, gpus_per_node=profile.gpus_per_node, workspace=workspace, profile=profile)
    findings = tuple(sort_findings(run_rules(ctx, ("config",))))
    return CheckResult(findings, ctx.budget if ctx.loaded else None)


@dataclass(frozen=True)
class Rewritten:
    """What port / smoke-config wrote and found. `launch_command`: the `irisrl launch` line
    for the written file; `num_inference_engines`: smoke-config's derived count."""
    changes: tuple[Change, ...]
    check: CheckResult
    launch_command: str
    num_inference_engines: int | None = None

    def to_dict(self, src: str, out: str) -> dict[str, object]:
        """`port --json` / `smoke-config --json`."""
        extra = {} if self.num_inference_engines is None else {"num_inference_engines": self.num_inference_engines}
        return {"config": src, "output": out, "ok": self.check.ok, "written": True,
                "changes": [c.to_dict() for c in self.changes],
                "findings": [f.to_dict() for f in self.check.findings],
                "budget": self.check.budget.to_dict() if self.check.budget is not None else None,
                "num_nodes": self.check.num_nodes, "launch_command": self.launch_command, **extra}


def port(src: str, out: str, *, from_gpus_per_node: int = 4, from_num_nodes: int | None = None,
         workspace: str | None = None, profile: str = DEFAULT_PROFILE) -> Rewritten:
    """`irisrl port`: a Jupiter (Apptainer SIF, 4-GPU GH200) config rewritten for Iris to OUT."""
    from irisrl.config.port import port_config

    def derive(raw: dict[str, object], cluster: ClusterProfile) -> "PortResult":
        return port_config(raw, cluster, from_gpus_per_node, from_num_nodes)

    cluster, result = derive_and_write(src, out, profile, derive)
    check = check_config(out, cluster, workspace)
    argv = ["irisrl", "launch", "--rl_config", out]
    argv += ["--num-nodes", str(check.num_nodes)] if check.num_nodes else []
    argv += ["--workspace", workspace] if workspace else []
    return Rewritten(result.changes, check, shlex.join(argv + ["--dry-run"]))


def smoke(src: str, out: str, *, max_steps: int = 2, nodes: int | None = None, workspace: str | None = None,
          profile: str = DEFAULT_PROFILE) -> Rewritten:
    """`irisrl smoke-config`: a throwaway colocated bring-up config derived from SRC, to OUT."""
    from irisrl.config.smoke import smoke_config

    def derive(raw: dict[str, object], cluster: ClusterProfile) -> "SmokeResult":
        return smoke_config(raw, cluster, max_steps, nodes)

    cluster, result = derive_and_write(src, out, profile, derive)
    check = check_config(out, cluster, workspace)
    launch = smoke_launch_command(out, result.config, check.num_nodes or result.num_nodes, cluster.gpus_per_node,
                                  workspace)
    return Rewritten(result.changes, check, launch, result.num_inference_engines)


def smoke_launch_command(path: str, cfg: dict[str, object], num_nodes: int, gpus_per_node: int,
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
    return shlex.join(argv)


def job_name_for(path: str) -> str:
    """A valid job name from the file name: lowercase, [a-z0-9-], at most 63 characters."""
    stem = re.sub(r"[^a-z0-9-]+", "-", Path(path).stem.lower()).strip("-") or "run"
    name = stem if stem.endswith("smoke") else f"{stem}-smoke"
    return name[:63].strip("-")


def _get(cfg: object, *keys: str) -> object:
    for key in keys:
        if not isinstance(cfg, dict):
            return None
        cfg = cfg.get(key)
    return cfg
