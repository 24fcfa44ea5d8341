"""Hostile input (issue 16): each test is one of the probe's repros, with its expected
clear error and exit code, and no traceback."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pytest

from irisrl.util.exitcodes import Exit

REPO = Path(__file__).resolve().parents[2]
SMOKE = str(REPO / "examples" / "configs" / "smoke_colocated.yaml")
WORKSPACE = str(REPO / "examples" / "workspace")
Cli = Callable[..., tuple[int, str, str]]


def _no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text, text


# ------------------------------------------------------------------ D1: YAML billion laughs


def _billion_laughs(path: Path) -> Path:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 10)]
    path.write_text("\n".join(lines) + "\ntrainer: {x: *a9}\ngenerator: {}\n")
    return path


@pytest.mark.parametrize("command", ["validate", "port"])
def test_d1_billion_laughs_is_refused_within_a_second(command: str, tmp_path: Path, cli: Cli) -> None:
    cfg = _billion_laughs(tmp_path / "laughs.yaml")
    argv = [command, str(cfg)] + (["-o", str(tmp_path / "out.yaml")] if command == "port" else [])
    start = time.monotonic()
    code, out, err = cli(*argv)
    assert time.monotonic() - start < 1.0
    assert code == Exit.FAIL
    assert "expands to more than" in out + err
    _no_traceback(out, err)


def test_d1_recursive_alias_is_refused(tmp_path: Path, cli: Cli) -> None:
    cfg = tmp_path / "cycle.yaml"
    cfg.write_text("a: &a [1, *a]\ntrainer: {x: *a}\ngenerator: {}\n")
    code, out, err = cli("validate", str(cfg))
    assert code == Exit.FAIL and "recursive structure" in out
    _no_traceback(out, err)


def test_d1_a_config_sharing_anchors_a_few_times_still_loads(tmp_path: Path) -> None:
    from irisrl.config.load import load_config

    cfg = tmp_path / "shared.yaml"
    cfg.write_text("common: &c {lr: 1.0e-6, n: [1, 2, 3]}\ntrainer: {a: *c, b: *c}\ngenerator: {c: *c}\n")
    assert load_config(cfg).ok
