"""`irisrl validate` and `irisrl launch --dry-run` stay light: they import none of iris,
ray, fsspec, huggingface_hub, matplotlib (nor hydra when no override is given). Each runs
in a fresh interpreter, which then reports the modules it loaded."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HEAVY = ("iris", "ray", "fsspec", "huggingface_hub", "matplotlib", "s3fs", "gcsfs", "torch", "daytona")
PROBE = """
import json, sys
from irisrl.cli.main import main
try:
    main(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as fh:
    json.dump(sorted(sys.modules), fh)
"""
DENSE = ["--num-nodes", "7", "--workspace", "examples/workspace"]
COMMANDS = {
    "validate": ["validate", "examples/configs/dense8b_disagg.yaml", *DENSE],
    "dry-run": ["launch", "--rl_config", "examples/configs/dense8b_disagg.yaml", *DENSE,
                "--train_data", '["d"]', "--job-name", "hyg", "--dry-run"],
    "dry-run-json": ["launch", "--rl_config", "examples/configs/smoke_colocated.yaml", "--num-nodes", "2",
                     "--workspace", "examples/workspace", "--dry-run", "--json"],
}


def _modules(tmp_path: Path, argv: list[str]) -> set[str]:
    out = tmp_path / "modules.json"
    env = dict(os.environ, COLUMNS="100")
    proc = subprocess.run([sys.executable, "-c", PROBE, str(out), *argv], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert out.exists(), proc.stderr
    return set(json.loads(out.read_text()))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_import_hygiene_no_heavy_modules(tmp_path, name):
    modules = _modules(tmp_path, COMMANDS[name])
    assert "irisrl.rules.launch" in modules or name == "validate"
    assert _heavy(modules) == []
    assert "irisrl.ops.output" in modules              # the CLI's sinks are installed...
    assert not {"irisrl.ops.launcher", "irisrl.ops.watcher", "irisrl.ops.watching"} & modules   # ...not the engine
    assert not any(m == "hydra" or m.startswith("hydra.") for m in modules)


def test_import_hygiene_probe_can_fail(tmp_path):
    """The probe sees a heavy import when one happens (here: hydra, via an override)."""
    argv = COMMANDS["dry-run"] + ["--skyrl_override", "++trainer.max_steps=2"]
    modules = _modules(tmp_path, argv)
    assert any(m.startswith("hydra") for m in modules)
