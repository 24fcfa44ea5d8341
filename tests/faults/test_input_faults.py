"""Hostile input (issue 16): each test is one of the probe's repros, with its expected
clear error and exit code, and no traceback."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from irisrl.util.exitcodes import Exit

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from fault_kit import REPO, SMOKE, WORKSPACE, Cli, no_traceback  # noqa: E402


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
    no_traceback(out, err)


def test_d1_recursive_alias_is_refused(tmp_path: Path, cli: Cli) -> None:
    cfg = tmp_path / "cycle.yaml"
    cfg.write_text("a: &a [1, *a]\ntrainer: {x: *a}\ngenerator: {}\n")
    code, out, err = cli("validate", str(cfg))
    assert code == Exit.FAIL and "recursive structure" in out
    no_traceback(out, err)


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
    no_traceback(out, err)


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
    no_traceback(out, err)


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
    no_traceback(out, err)


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
    no_traceback(out, err)


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
    no_traceback(out, err)


# ------------------------------------------------------------------ D17: the launch summary


def test_d17_summary_masks_and_dedups_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """WANDB_API_KEY exported and --model_path set to its value (the probe's repro): the
    rank-0 error that quotes the model path shows *** in the summary and summary.json, once."""
    import json
    import sys
    from types import SimpleNamespace

    from rich.console import Console

    from irisrl.cli.render_summary import render_summary
    from irisrl.observe.phases import ENTERED
    from irisrl.ops.summary import LaunchProgress, collect_summary

    sys.path.insert(0, str(REPO / "tests" / "support"))
    from memory_backend import MemoryBackend, finished, line  # type: ignore[import-not-found]

    secret = "wandb-secret-value-123"
    monkeypatch.setenv("WANDB_API_KEY", secret)
    error = (f"[irisrl] ERROR rank 0: node checks failed: model /models/{secret} has no config.json; "
             "mirror https://alice:hunter2pw@mirror.example.com/x")
    backend = MemoryBackend(script=[finished("/u/job", "failed", 1, 1)], lines=[
        line(0, "[irisrl] Runtime controller rank 0/1 on h (task t)", 1000), line(0, error, 2000)])
    plan = SimpleNamespace(num_nodes=1, role="rehearsal", env={}, secret_env_keys=(),
                           to_dict=lambda: {"num_nodes": 1, "role": "rehearsal", "train_data": []})
    progress = LaunchProgress(plan, {ENTERED: 0.5})
    for ln in backend.lines:      # what follow() feeds live; collect_summary replays them again
        progress.on_line(ln)
    summary = collect_summary(backend, "/u/job", plan, progress, 1, out_dir=tmp_path / "logs")
    console = Console(width=200, record=True, color_system=None)
    render_summary(summary, console)
    shown = console.export_text()
    saved = (tmp_path / "logs" / "summary.json").read_text()
    for text in (shown, saved, *[p.read_text() for p in (tmp_path / "logs").glob("*.log")]):
        assert secret not in text and "hunter2pw" not in text
    errors = json.loads(saved)["errors"]
    assert errors == ["ERROR rank 0: node checks failed: model /models/*** has no config.json; "
                      "mirror https://***@mirror.example.com/x"]
    listed = [ln for ln in shown.splitlines() if ln.startswith("ERROR rank 0: node checks failed")]
    assert len(listed) == 1   # was 4: seen live, and again (twice) in the replay


# ------------------------------------------------------------------ D3: URL userinfo


def _config_with_url_credentials(tmp_path: Path) -> Path:
    import yaml

    cfg = yaml.safe_load(Path(SMOKE).read_text())
    cfg.setdefault("extra_env", {})["PIP_INDEX_URL"] = "https://alice:hunter2pw@mirror.example.com/simple"
    cfg["trainer"]["ckpt_path"] = "s3://AKIAX:ckptsecret9@bucket/ckpts"
    path = tmp_path / "url_creds.yaml"
    path.write_text(yaml.safe_dump(cfg))
    return path


URL_SECRETS = ("hunter2pw", "ckptsecret9", "modelpw77", "datapw88")
URL_FLAGS = ("--model_path", "https://bob:modelpw77@hf.example.com/m",
             "--train_data", '["https://carol:datapw88@data.example.com/d"]')


@pytest.mark.parametrize("as_json", [False, True])
def test_d3_dry_run_masks_url_userinfo(as_json: bool, tmp_path: Path, cli: Cli) -> None:
    cfg = _config_with_url_credentials(tmp_path)
    code, out, err = cli("launch", "--dry-run", "--local", "--rl_config", str(cfg), "--workspace", WORKSPACE,
                         "--num-nodes", "2", *URL_FLAGS, *(["--json"] if as_json else []))
    assert code == Exit.OK, err
    for value in URL_SECRETS:
        assert value not in out + err
    for shown in ("https://***@mirror.example.com/simple", "s3://***@bucket/ckpts",
                  "https://***@hf.example.com/m", "https://***@data.example.com/d"):
        assert shown in out


def test_d3_ledger_row_masks_url_userinfo_but_the_pod_gets_the_url(tmp_path: Path) -> None:
    import sqlite3

    from irisrl.ledger.store import Ledger
    from irisrl.core.target import Target
    from irisrl.plan.build import PlanInputs, build_plan
    from irisrl.plan.request import build_request

    cfg = _config_with_url_credentials(tmp_path)
    plan, findings, _ = build_plan(PlanInputs(
        rl_config=str(cfg), workspace=WORKSPACE, num_nodes=2, model_path=URL_FLAGS[1],
        train_data=URL_FLAGS[3]), Target(local=True))
    assert plan is not None, findings
    Ledger().record_launch(plan, "memory://", "url")
    dump = "\n".join(sqlite3.connect(Ledger().path).iterdump())
    for value in URL_SECRETS:
        assert value not in dump
    assert build_request(plan).env["PIP_INDEX_URL"] == "https://alice:hunter2pw@mirror.example.com/simple"


def test_d3_followed_and_saved_log_lines_mask_url_userinfo() -> None:
    from irisrl.config.masking import Masker

    mask = Masker()      # no secret values known: the URL's credentials still go
    assert mask("fetching https://u:pw1234@h/x") == "fetching https://***@h/x"
    assert mask(b"s3://k:s@b/") == b"s3://***@b/"
    assert mask("mail a@b, http://h/p?who=a@b") == "mail a@b, http://h/p?who=a@b"


# ------------------------------------------------------------------ D2: workspace symlinks


@pytest.fixture
def linked_workspace(tmp_path: Path) -> Path:
    import shutil

    ws = tmp_path / "ws"
    shutil.copytree(WORKSPACE, ws)
    outside = tmp_path / "id_rsa"
    outside.write_text("-----BEGIN OPENSSH PRIVATE KEY----- not-a-real-key\n")
    (ws / "p").symlink_to("/etc/passwd")
    (ws / "k").symlink_to(outside)
    (ws / "etc").symlink_to("/etc")                       # a directory link: the bundler does not enter it
    (ws / "readme_link").symlink_to(ws / "README.md")     # inside the workspace: fine
    return ws


@pytest.mark.parametrize("dry_run", [True, False])
def test_d2_symlinks_leaving_the_workspace_are_refused(dry_run: bool, linked_workspace: Path, cli: Cli) -> None:
    code, out, err = cli("launch", "--local", "--rl_config", SMOKE, "--workspace", str(linked_workspace),
                         "--num-nodes", "2", *(["--dry-run"] if dry_run else []))
    assert code == Exit.FAIL
    text = out + err
    assert "LCH-WORKSPACE-LINKS" in text and "k -> " in text and "p -> /etc/passwd" in text
    assert "readme_link" not in text and "etc ->" not in text
    assert "submitted" not in text.replace("not submitted", "")
    no_traceback(out, err)


def test_d2_staging_refuses_links_leaving_the_workspace(linked_workspace: Path) -> None:
    """The bundle builder's own check (a plan built elsewhere reaches it without the rule)."""
    from irisrl.backends.bundle import staged_workspace
    from irisrl.util.errors import IrisrlError

    pytest.importorskip("iris.cluster.client.bundle")
    with pytest.raises(IrisrlError) as exc:
        with staged_workspace(linked_workspace, "{}", 25 << 20):
            pass
    assert "k -> " in exc.value.message and "p -> /etc/passwd" in exc.value.message
    (linked_workspace / "p").unlink()
    (linked_workspace / "k").unlink()
    with staged_workspace(linked_workspace, "{}", 25 << 20) as stage:
        assert (stage / "readme_link").read_text() == (linked_workspace / "README.md").read_text()


# ------------------------------------------------------------------ D12: health --log on noise


@pytest.mark.parametrize("name", ["noise.log", "noise.log.gz"])
def test_d12_health_on_random_bytes_says_nothing_was_parseable(name: str, tmp_path: Path, cli: Cli) -> None:
    import json
    import random

    log = tmp_path / name
    log.write_bytes(random.Random(16).randbytes(64 * 1024))
    code, out, err = cli("health", "--log", str(log))
    assert code == Exit.UNKNOWN
    assert "nothing parseable was read" in err
    code, out, err = cli("health", "--log", str(log), "--json")
    assert code == Exit.UNKNOWN and "nothing parseable was read" in err
    assert json.loads(out)["verdict"]          # the document is still printed
    no_traceback(out, err)


def test_d12_a_real_log_is_not_called_unparseable(tmp_path: Path, cli: Cli) -> None:
    log = tmp_path / "one.log"
    log.write_text("INFO 12-02 14:00:00 [irisrl] Ray nodes alive: 2/2\n")
    code, out, err = cli("health", "--log", str(log))
    assert "nothing parseable" not in err


# ------------------------------------------------------------------ D13: hostile plan JSON


def _deep_json(path: Path) -> Path:
    path.write_text("[" * 100_000)
    return path


def _not_utf8(path: Path) -> Path:
    path.write_bytes(b'\xff\xfe{"num_nodes": 1}')
    return path


@pytest.mark.parametrize("make", [_deep_json, _not_utf8])
@pytest.mark.parametrize("command, expected", [("health", Exit.UNKNOWN), ("fit", Exit.USAGE)])
def test_d13_hostile_plan_json(make: Callable[[Path], Path], command: str, expected: int, tmp_path: Path,
                               cli: Cli) -> None:
    plan = make(tmp_path / "plan.json")
    log = tmp_path / "x.log"
    log.write_text("x\n")
    argv = ["health", "--log", str(log), "--plan", str(plan)] if command == "health" else ["fit", "--plan", str(plan)]
    code, out, err = cli(*argv)
    assert code == expected
    assert "nested too deeply" in err or "not UTF-8" in err
    no_traceback(out, err)


@pytest.mark.parametrize("make", [_deep_json, _not_utf8])
def test_d13_hostile_fit_state_json(make: Callable[[Path], Path], tmp_path: Path, cli: Cli) -> None:
    state = make(tmp_path / "state.json")
    code, out, err = cli("fit", "--rl_config", SMOKE, "--workspace", WORKSPACE, "--num-nodes", "2", "--local",
                         "--state", str(state))
    assert code == Exit.USAGE and ("nested too deeply" in err or "not UTF-8" in err)
    no_traceback(out, err)


# ------------------------------------------------------------------ D5: Starlette's warning


@pytest.mark.parametrize("argv", [["status", "/u/x"], ["logs", "/u/x"], ["kill", "/u/x", "--yes"],
                                  ["health", "/u/x"]])
def test_d5_no_starlette_warning_against_a_cluster_config(argv: list[str], tmp_path: Path) -> None:
    """A fresh interpreter (the warning fires once, at the first import of Iris's dashboards);
    the config is bad YAML, so the command ends right after the import with a clear error."""
    import os
    import subprocess
    import sys

    pytest.importorskip("iris.cluster.config")
    config = tmp_path / "remote.yaml"
    config.write_text("name: x\nbogus: [\n")
    done = subprocess.run([sys.executable, "-m", "irisrl", *argv, "--cluster-config", str(config)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert done.returncode == Exit.USAGE, done.stderr
    assert "is invalid" in done.stderr
    assert "Warning" not in done.stderr and "deprecated" not in done.stderr


def test_d12_an_empty_log_is_still_pending_not_unparseable(tmp_path: Path, cli: Cli) -> None:
    log = tmp_path / "empty.log"
    log.write_text("")
    code, out, err = cli("health", "--log", str(log))
    assert code == Exit.OK and "nothing parseable" not in err


@pytest.mark.parametrize("job_id", ["/" + "u" * 10_000 + "/job", "/../../etc/x", "/a b/c\nd", "/x/.."])
def test_d4_logs_out_dir_is_one_safe_name(job_id: str) -> None:
    """`irisrl logs` of a job whose id another tool made hostile: one directory under traces/
    (the probe's OSError: File name too long came from here)."""
    from irisrl.observe.pull import default_out_dir

    out = default_out_dir(job_id)
    assert out.parent == Path("traces") and len(out.name) < 255
    assert out.name not in (".", "..") and "\n" not in out.name and " " not in out.name


def test_d3_validate_masks_url_userinfo_its_findings_quote(tmp_path: Path, cli: Cli) -> None:
    cfg = _config_with_url_credentials(tmp_path)
    for extra in ([], ["--json"]):
        code, out, err = cli("validate", str(cfg), "--workspace", WORKSPACE, "--num-nodes", "2",
                             "--model_path", URL_FLAGS[1], *extra)
        assert "https://***@hf.example.com/m" in out
        for value in URL_SECRETS:
            assert value not in out + err
