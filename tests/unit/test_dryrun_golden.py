"""Golden dry runs: the text and JSON of `irisrl launch --dry-run` for the three examples
(fixed job names and rendezvous dirs, no timestamps, fixed terminal width). A change in the
rendering shows up as a diff in review. Regenerate with IRISRL_UPDATE_GOLDEN=1."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from irisrl.cli.main import main

REPO = Path(__file__).resolve().parents[2]
GOLDEN = REPO / "tests" / "golden"
WIDTH = "100"
SECRET_NAMES = ("HF_TOKEN", "WANDB_API_KEY", "WANDB_ENTITY", "WANDB_PROJECT", "DAYTONA_API_KEY",
                "DAYTONA_API_URL", "DAYTONA_ORGANIZATION_ID", "IRISRL_SECRETS_ALLOWLIST", "DC_AGENT_SECRET_ENV")
CASES = {
    "dense8b_disagg": ["--num-nodes", "7", "--model_path", "Qwen/Qwen3-8B"],
    "moe30b_ep4_r3_dcp2": ["--num-nodes", "4", "--model_path", "Qwen/Qwen3-Coder-30B-A3B-Instruct"],
    "smoke_colocated": ["--num-nodes", "2", "--model_path", "Qwen/Qwen3-0.6B"],
}


@pytest.fixture
def cli(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    monkeypatch.setenv("COLUMNS", WIDTH)
    monkeypatch.setenv("IRISRL_USER", "golden")
    # the storage-root line names the cluster config: a repo fixture, not whatever this machine has
    monkeypatch.setenv("IRISRL_CLUSTER_CONFIG", "tests/fixtures/clusters/cw-us-east-02a.yaml")
    for name in (*SECRET_NAMES, "WANDB_ENTITY", "WANDB_PROJECT"):  # W&B routing: the profile's defaults
        monkeypatch.delenv(name, raising=False)

    def run(*argv: str) -> tuple[int, str, str]:
        with pytest.raises(SystemExit) as exit_info:
            main(list(argv))
        out = capsys.readouterr()
        return exit_info.value.code, out.out, out.err

    return run


def _argv(stem: str, *extra: str) -> list[str]:
    return ["launch", "--rl_config", f"examples/configs/{stem}.yaml", *CASES[stem],
            "--train_data", '["DCAgent/golden-tasks"]', "--workspace", "examples/workspace",
            "--job-name", f"{stem.replace('_', '-')}-golden",
            "--rendezvous-dir", f"s3://marin-us-east-02a/iris/rl-golden/{stem}", "--dry-run", *extra]


def _steady(text: str) -> str:
    """The dry run with the sizes of irisrl's own shipped runtime masked (any runtime edit would
    move them) and this checkout's path (the recorded launch flags' paths are absolute) as
    <repo>; the workspace's own files and their sizes stay in the golden."""
    text = text.replace(str(REPO), "<repo>")
    text = re.sub(r"Workspace bundle \(\d+ files, [^;]+;", "Workspace bundle (N files, SIZE;", text)
    return re.sub(r"^ +\S+ \S+  \.irisrl/ \(irisrl's runtime and the plan: \d+ files\)$",
                  "  SIZE  .irisrl/ (irisrl's runtime and the plan: N files)", text, flags=re.M)


def _check(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("IRISRL_UPDATE_GOLDEN") == "1":
        path.write_text(actual)
    assert path.exists(), f"missing golden {path}; run with IRISRL_UPDATE_GOLDEN=1"
    assert actual == path.read_text(), f"{name} differs from its golden (IRISRL_UPDATE_GOLDEN=1 regenerates)"


@pytest.mark.parametrize("stem", sorted(CASES))
def test_dryrun_golden_text(cli, stem):
    rc, out, err = cli(*_argv(stem))
    assert rc == 0, err
    assert out.rstrip("\n").splitlines()[-1] == "not submitting (dry run)"
    assert "Workspace bundle (" in out and "  README.md" in out   # the listing, from the backend's dry run
    _check(f"dryrun_{stem}.txt", _steady(out))


@pytest.mark.parametrize("stem", sorted(CASES))
def test_dryrun_golden_json(cli, stem):
    rc, out, err = cli(*_argv(stem, "--json"))
    assert rc == 0, err
    data = json.loads(out)
    for key in ("ok", "job_name", "cluster", "image", "num_nodes", "gpus_per_node", "total_gpus", "replicas",
                "coscheduling", "resources", "priority", "max_retries", "rendezvous_dir", "skyrl_ref",
                "entrypoint", "hydra_args", "env", "secret_env_keys", "budget", "findings", "mode", "role",
                "runtime_argv", "ports", "placement_groups", "request"):
        assert key in data, key
    assert data["ok"] is True and data["budget"]["total_gpus"] == data["total_gpus"]
    request = data["request"]   # remote: sent as planned, on the plan's image
    assert request["argv"] == data["entrypoint"] and request["env"] == data["env"]
    assert request["task_image"] == data["image"] and request["replicas"] == data["num_nodes"]
    bundle = data.pop("bundle")   # every file with its size: checked here, kept out of the golden
    paths = {f["path"] for f in bundle["files"]}
    assert {"README.md", ".irisrl/plan.json", ".irisrl/lib/irisrl/runtime/controller.py"} <= paths
    assert bundle["bytes"] == sum(f["bytes"] for f in bundle["files"]) and bundle["cap_bytes"] > 0
    _check(f"dryrun_{stem}.json", json.dumps(data, indent=2).replace(str(REPO), "<repo>") + "\n")


def test_dryrun_golden_local_request_shows_the_rewritten_argv_and_loopback_env(cli, monkeypatch):
    monkeypatch.setenv("IRISRL_HOME", "/tmp/irisrl-golden-home")   # host paths under /tmp: rewritten
    argv = _argv("smoke_colocated", "--local", "--json")
    argv[argv.index("--rendezvous-dir") + 1] = "/tmp/irisrl-golden/smoke"
    rc, out, err = cli(*argv)
    assert rc == 0, err
    request = json.loads(out)["request"]
    assert "/./tmp/irisrl-golden/smoke" in request["argv"] and request["task_image"] is None
    assert request["env"]["IRIS_BIND_HOST"] == "127.0.0.1"
    _check("request_smoke_local.json", json.dumps(request, indent=2) + "\n")


def test_dryrun_errors_json_is_one_object_exit_1(cli):
    argv = _argv("dense8b_disagg", "--json")
    argv[argv.index("7")] = "4"
    rc, out, _ = cli(*argv)
    data = json.loads(out)
    assert rc == 1 and data["ok"] is False and set(data) == {"ok", "findings", "budget"}
    assert any(f["rule"] == "TOPO-NODES" for f in data["findings"])


def test_dryrun_errors_text_has_no_plan(cli):
    argv = _argv("dense8b_disagg")
    argv[argv.index("7")] = "4"
    rc, out, _ = cli(*argv)
    assert rc == 1 and "TOPO-NODES" in out and "not submitting" not in out and "Hydra" not in out


PLANTED = {
    "HF_TOKEN": "hf_PLANTEDenvTOKEN_1234567890",
    "DAYTONA_API_KEY": "dtn-planted 'quoted' key",
    "WANDB_ENTITY": "planted-entity-value",
}
FILE_SECRET = "wandb-planted-from-file-0987"
EXTRA_SECRET = "planted-extra-env-api-key"


def test_dryrun_secrets_appear_nowhere(cli, monkeypatch, tmp_path):
    for name, value in PLANTED.items():
        monkeypatch.setenv(name, value)
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f'export WANDB_API_KEY="{FILE_SECRET}"\nAWS_SECRET_ACCESS_KEY=aws-planted-never\n')
    config = tmp_path / "cfg.yaml"
    text = (REPO / "examples/configs/dense8b_disagg.yaml").read_text()
    config.write_text(text.replace("extra_env:\n", f"extra_env:\n  MY_SERVICE_API_KEY: {EXTRA_SECRET}\n"))
    argv = ["launch", "--rl_config", str(config), "--num-nodes", "7", "--workspace", "examples/workspace",
            "--train_data", '["d"]', "--job-name", "leak-test", "--secrets-env", str(secrets), "--dry-run",
            "--skyrl_override", f"++trainer.note={PLANTED['HF_TOKEN']}"]
    planted = [*PLANTED.values(), FILE_SECRET, EXTRA_SECRET, "aws-planted-never"]
    for extra in ([], ["--json"]):
        rc, out, err = cli(*argv, *extra)
        assert rc == 0, err
        for value in planted:
            assert value not in out and value not in err, (extra, value)
            assert json.dumps(value)[1:-1] not in out
        assert "***" in out
    data = json.loads(cli(*argv, "--json")[1])
    assert {"HF_TOKEN", "WANDB_API_KEY", "DAYTONA_API_KEY", "MY_SERVICE_API_KEY"} <= set(data["secret_env_keys"])
    assert all(data["env"][k] == "***" for k in data["secret_env_keys"])


def test_dryrun_error_path_never_prints_a_secret(cli, monkeypatch):
    token = "hf_ERRORPATH_planted_987654"
    monkeypatch.setenv("HF_TOKEN", token)
    argv = _argv("dense8b_disagg", "--skyrl_override", f"trainer.x={token}'unterminated")
    for extra in ([], ["--json"]):
        rc, out, err = cli(*argv, *extra)
        assert rc == 1 and "CFG-OVERRIDE" in out
        assert token not in out and token not in err
