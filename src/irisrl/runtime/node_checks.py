"""--node-checks: cheap per-node facts checked before Ray, so a bad node fails the gang in
seconds with its rank named (GPUs visible, train data present, model config resolvable)."""

from __future__ import annotations

import os
import subprocess

from irisrl.runtime.identity import Identity
from irisrl.runtime.log import say
from irisrl.runtime.model_config import resolve_model_config


class NodeCheckError(RuntimeError):
    pass


def visible_gpus() -> int | None:
    """GPUs this container can see (nvidia-smi -L), or None when there is no NVIDIA tooling."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return None
    return sum(1 for line in out.stdout.splitlines() if line.startswith("GPU "))


def run_node_checks(me: Identity, gpus_per_node: int | None, local: bool,
                    landed: dict[str, str], model_path: str | None,
                    model_config: str | None = None, model_timeout: float = 120.0) -> None:
    problems, facts = [], []
    if local:
        facts.append(f"gpus {gpus_per_node} fake (local mode)")
    elif gpus_per_node:
        seen = visible_gpus()
        if seen is None or seen < gpus_per_node:
            problems.append(f"{seen or 0} GPUs visible, {gpus_per_node} expected (nvidia-smi -L)")
        else:
            facts.append(f"gpus {seen}/{gpus_per_node}")
    for item, path in landed.items():
        if not os.path.exists(path) or (os.path.isdir(path) and not os.listdir(path)):
            problems.append(f"train_data {item} missing or empty at {path}")
    if landed:
        facts.append(f"train_data {len(landed)} present")
    if model_path:
        if not os.path.exists(os.path.join(model_path, "config.json")):
            problems.append(f"model snapshot at {model_path} has no config.json")
        else:
            facts.append("model config ok")
    if model_config:
        check = resolve_model_config(model_config, local, model_timeout)
        (facts if check.ok else problems).append(check.detail)
    if problems:
        raise NodeCheckError(f"node checks failed on rank {me.rank}/{me.num_tasks}: " + "; ".join(problems))
    say(f"Node checks ok (rank {me.rank}/{me.num_tasks}): {', '.join(facts) or 'nothing to check'}")
