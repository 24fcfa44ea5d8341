"""What `port` and `smoke-config` share below the CLI: load the input config, derive and
write the output (or refuse with an IrisrlError), and check the written file with the rule
catalogue as `validate` does. Rendering is cli/render_rewrite.py."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol, TypeVar

from irisrl.core.findings import Finding, has_errors
from irisrl.util.errors import IrisrlError, UsageError

if TYPE_CHECKING:
    from irisrl.config.budget import Budget
    from irisrl.config.profile import ClusterProfile


class Rewritten(Protocol):
    """A rewrite's result: the mapping to write (and its changes, which the CLI renders)."""
    @property
    def config(self) -> "dict[str, object]": ...


R = TypeVar("R", bound=Rewritten)


@dataclass(frozen=True)
class CheckResult:
    findings: tuple[Finding, ...]
    budget: "Budget | None"     # None when the written YAML is unusable

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
                     derive: "Callable[[dict[str, object], ClusterProfile], R]") -> "tuple[ClusterProfile, R]":
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


def check_config(path: str, profile: "ClusterProfile", workspace: str | None = None) -> CheckResult:
    """Run the config scope of the rule catalogue on the written file, as `validate` does."""
    from irisrl.rules.catalogue import run_rules
    from irisrl.rules.context import build_context

    ctx = build_context(path, gpus_per_node=profile.gpus_per_node, workspace=workspace, profile=profile)
    findings = tuple(run_rules(ctx, ("config",)))
    return CheckResult(findings, ctx.budget if ctx.loaded else None)
