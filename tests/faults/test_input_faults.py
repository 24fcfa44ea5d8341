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


# ------------------------------------------------------------------ D14: resources


@pytest.mark.parametrize("flags, named", [
    (["--memory", "lots"], "--memory"), (["--disk", "-5Gi"], "--disk"), (["--cpu", "nan"], "--cpu"),
    (["--cpu", "inf"], "--cpu"), (["--memory", "0"], "--memory"),
])
def test_d14_bad_resources_are_usage_errors(flags: list[str], named: str, cli: Cli) -> None:
    code, out, err = cli("launch", "--dry-run", "--local", "--rl_config", SMOKE, "--workspace", WORKSPACE,
                         "--num-nodes", "2", *flags)
    assert code == Exit.USAGE
    assert f"error: {named} " in err
    _no_traceback(out, err)


# ------------------------------------------------------------------ D7/D4: IRISRL_USER


@pytest.mark.parametrize("user", ["../../etc", "a b", "a\nb", 'a"b', "it's", "x" * 10_000, "-lead", "a/b"])
def test_d7_hostile_irisrl_user_is_refused(user: str, cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRISRL_USER", user)
    code, out, err = cli("launch", "--dry-run", "--local", "--rl_config", SMOKE, "--workspace", WORKSPACE,
                         "--num-nodes", "2")
    assert code == Exit.USAGE
    assert "$IRISRL_USER" in err and "not a valid user name" in err
    assert "job id" not in out
    assert len(err) < 2000   # 10,000 characters are not echoed back
    _no_traceback(out, err)


@pytest.mark.parametrize("user", ["alice", "john.doe", "First_Last", "u-1"])
def test_d7_ordinary_login_names_pass(user: str, cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRISRL_USER", user)
    code, out, _ = cli("launch", "--dry-run", "--local", "--rl_config", SMOKE, "--workspace", WORKSPACE,
                       "--num-nodes", "2")
    assert code == Exit.OK and f"/{user}/smoke-colocated-" in out


def test_d7_status_of_a_bare_name_checks_the_user(cli: Cli, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRISRL_USER", "../../etc")
    code, out, err = cli("status", "some-job", "--controller-url", "http://127.0.0.1:1")
    assert code == Exit.USAGE and "$IRISRL_USER" in err
    _no_traceback(out, err)


# ------------------------------------------------------------------ D16: IRISRL_HOME a file


@pytest.mark.parametrize("under", [False, True])
@pytest.mark.parametrize("argv", [["runs"], ["cluster", "status"],
                                  ["launch", "--local", "--rl_config", SMOKE, "--workspace", WORKSPACE,
                                   "--num-nodes", "2"]])
def test_d16_irisrl_home_a_regular_file(argv: list[str], under: bool, tmp_path: Path, cli: Cli,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "state"
    home.write_text("not a directory")
    monkeypatch.setenv("IRISRL_HOME", str(home / "sub" if under else home))
    code, out, err = cli(*argv)
    assert code == Exit.USAGE
    assert "is not a directory" in err and "$IRISRL_HOME" in err
    _no_traceback(out, err)


# ------------------------------------------------------------------ D18: --profile PATH


def test_d18_an_existing_profile_path_is_used_as_is(tmp_path: Path, cli: Cli) -> None:
    from irisrl.config.profile import PROFILES_DIR

    profile = tmp_path / "x.yaml"    # any name: the file that exists is the profile
    profile.write_text((PROFILES_DIR / "cw-us-east-02a.toml").read_text())
    code, out, err = cli("launch", "--dry-run", "--rl_config", SMOKE, "--workspace", WORKSPACE,
                         "--num-nodes", "2", "--local", "--profile", str(profile))
    assert code == Exit.OK, err
    assert "not found" not in err


def test_d18_a_profile_that_is_not_toml_says_so(tmp_path: Path, cli: Cli) -> None:
    profile = tmp_path / "x.yaml"
    profile.write_text("image: [unclosed\n")
    code, out, err = cli("launch", "--dry-run", "--rl_config", SMOKE, "--workspace", WORKSPACE,
                         "--num-nodes", "2", "--profile", str(profile))
    assert code == Exit.USAGE and "is not TOML" in err and "not found" not in err
    _no_traceback(out, err)
