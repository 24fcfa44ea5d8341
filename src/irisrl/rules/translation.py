"""Rules about what the config becomes in the container: the context budget's arithmetic, the
entrypoint module, and host paths of the old (Jupiter/Apptainer) cluster that cannot exist in
an Iris pod.

Sources: context_budget — marin-community/MarinSkyRL cloud/iris/rl_config_translation.py
@ 00ee4e42fbac0db25750f35062b7838378b77c41 (`resolve_context_budget`); entrypoint — run_rl.py
@ f2e41858f1fb72ab8023db6ff51c85d5a467e38b runs `python -m <entrypoint>` with cwd
$SKYRL_HOME/skyrl-train; Jupiter host paths and `backend.kind: apptainer` — the runbook's
porting section (no container/SIF/apptainer in an Iris config; the gpu-rl image is the runtime).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator, Mapping

from irisrl.config.context_budget import parse_context_budget
from irisrl.config.hydra_args import entry_module, foreign_backend
from irisrl.core.findings import Finding
from irisrl.rules.catalogue import rule
from irisrl.rules.context import RuleContext
from irisrl.runtime.contract import FR_ENV_VARS

# Jupiter (JSC) filesystems: /e/data1, /e/fscratch, /e/scratch, ... mounted only there.
JUPITER_PATH = re.compile(r"(?<![\w/.])/e/[A-Za-z0-9_.-]+")


@rule("CFG-CONTEXT-BUDGET", "error", "context_budget fields or arithmetic are invalid")
def cfg_context_budget(ctx: RuleContext) -> Iterator[Finding]:
    _, problems = parse_context_budget(ctx.raw)
    for problem in problems:
        yield cfg_context_budget.finding(problem.path, problem.message, problem.fix)


@rule("CFG-HOST-PATH", "error", "A host path of the old Jupiter cluster, which no Iris pod mounts")
def cfg_host_path(ctx: RuleContext) -> Iterator[Finding]:
    for path, value in _strings(ctx.raw, ""):
        match = JUPITER_PATH.search(value)
        if match and not _flight_recorder_env(path):
            yield cfg_host_path.finding(
                path, f"{path} names {match.group(0)}, a Jupiter filesystem; Iris pods see only the image, "
                f"the synced workspace (/app) and the object store",
                f"point it at an object-store URI under {ctx.profile.storage_root}, an HF id, or a path "
                f"relative to the workspace; or delete it")


def _flight_recorder_env(path: str) -> bool:
    """The NCCL flight-recorder dump path: launch re-scopes it to a node-local path of the job
    (runtime/flight_recorder.py) and the runtime copies the dumps to the store, so a Jupiter
    value there is harmless (an object-store URI would not work: torch writes a local file)."""
    return path.rsplit(".", 1)[-1] in FR_ENV_VARS and path.split(".", 1)[0] == "extra_env"


@rule("CFG-BACKEND", "error", "backend.kind names a launcher other than Iris (e.g. apptainer)")
def cfg_backend(ctx: RuleContext) -> Iterator[Finding]:
    kind = foreign_backend(ctx.raw)
    if kind:
        where = "backend.kind" if isinstance(ctx.raw.get("backend"), Mapping) else "backend"
        yield cfg_backend.finding(
            where, f"{where} is {kind!r}: irisrl launches on Iris with the gpu-rl Docker image; "
            f"a SIF/Apptainer backend has nothing to run here",
            "delete the backend block (irisrl port does this); the image comes from the cluster profile")


@rule("LCH-ENTRYPOINT", "error", "The entrypoint module is not in the given --skyrl-checkout", "launch")
def lch_entrypoint(ctx: RuleContext) -> Iterator[Finding]:
    facts = ctx.launch
    checkout = getattr(facts, "skyrl_checkout", None)
    if not checkout:
        return
    module = entry_module(ctx.raw)
    if not Path(checkout).is_dir():
        yield lch_entrypoint.finding(
            "--skyrl-checkout", f"--skyrl-checkout {checkout} is not a directory, so `python -m {module}` "
            f"cannot be checked against it", "pass the path of a MarinSkyRL checkout (the dir holding skyrl-train/)")
        return
    roots = skyrl_import_roots(Path(checkout))
    if not any(module_file(root, module) for root in roots):
        where = ", ".join(str(r) for r in roots)
        yield lch_entrypoint.finding(
            "entrypoint", f"python -m {module} would fail: no {module.replace('.', '/')}.py (or package) under "
            f"{where}; the trainer runs from the SkyRL tree",
            "name a module that exists in that tree (runbook-era configs: "
            "examples.terminal_bench.entrypoints.main_tbench), or pass --skyrl-ref for the commit that has it")


def skyrl_import_roots(checkout: Path) -> list[Path]:
    """Where `python -m` looks in a MarinSkyRL checkout: its skyrl-train dir (the trainer's cwd),
    or the checkout itself when it is that dir."""
    inner = checkout / "skyrl-train"
    return [inner] if inner.is_dir() else [checkout]


def module_file(root: Path, module: str) -> Path | None:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__main__.py"):
        if candidate.is_file():
            return candidate
    return None


def _strings(root: Any, path: str) -> Iterator[tuple[str, str]]:
    """(key path, value) of every string, iteratively: YAML anchors can nest deep or loop."""
    stack, seen = [(path, root)], set()
    while stack:
        where, node = stack.pop()
        if isinstance(node, (Mapping, list)):
            if id(node) in seen:
                continue
            seen.add(id(node))
            items = node.items() if isinstance(node, Mapping) else enumerate(node)
            for key, value in reversed(list(items)):
                sub = f"{where}[{key}]" if isinstance(node, list) else (f"{where}.{key}" if where else str(key))
                stack.append((sub, value))
        elif isinstance(node, str):
            yield where, node
