"""`launch --resume JOB` from JOB's recorded launch flags (plan/build.launch_flags, kept in
its ledger row): the real CLI's dry run on a local plan whose checkpoints are a local dir;
rows from before the flags were recorded, a moved or edited config, a masked override."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

from irisrl.cli.main import main
from irisrl.core.target import Target
from irisrl.ledger.store import Ledger
from irisrl.ops.checkpoints import ckpt_path_of_plan
from irisrl.plan.build import PlanInputs, build_plan

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LR = "++trainer.policy.optimizer_config.lr=3e-06"
JOB = "/tester/orig-run"
SETTINGS_PREFIX = ("++trainer.resume_mode=", "++trainer.resume_path=", "++trainer.ckpt_path=")

Cli = Callable[..., "tuple[int, str]"]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Cli:
    def run(*argv: str) -> tuple[int, str]:
        with pytest.raises(SystemExit) as exit_info:
            main(list(argv))
        out = capsys.readouterr()
        return int(exit_info.value.code or 0), out.out + out.err
    return run


@pytest.fixture
def config(tmp_path: Path) -> Path:
    cfg = tmp_path / "cfg" / "orig.yaml"
    cfg.parent.mkdir()
    cfg.write_text((EXAMPLES / "configs/smoke_colocated.yaml").read_text())
    return cfg


def _launched(config: Path, *overrides: str, old_row: bool = False) -> dict[str, Any]:
    """The ledger row of a launch of `config` with `overrides` (as launch records it), with a
    complete checkpoint at step 2 under its ckpt_path; `old_row`: as irisrl wrote it before
    it recorded launch flags."""
    plan, findings, _ = build_plan(PlanInputs(rl_config=str(config), num_nodes=2, job_name="orig-run",
                                              skyrl_overrides=overrides, workspace=str(EXAMPLES / "workspace")),
                                   Target(local=True))
    assert plan is not None, findings
    data = plan.to_dict()
    if old_row:
        del data["launch_flags"]
    Ledger().record_launch(type("Recorded", (), {"to_dict": lambda self: data})(), "local", "local")
    ckpt = Path(str(ckpt_path_of_plan(data)))
    (ckpt / "global_step_2" / "policy").mkdir(parents=True)
    (ckpt / "global_step_2" / "trainer_state.pt").write_bytes(b"s")
    (ckpt / "latest_ckpt_global_step.txt").write_text("2")
    return data


def _resume(cli: Cli, *flags: str) -> tuple[int, str]:
    return cli("launch", "--local", "--resume", JOB, "--dry-run", "--json", *flags)


def test_a_launch_records_the_flags_a_resume_repeats(config: Path) -> None:
    data = _launched(config, LR)
    flags = Ledger().plan_for(JOB)["launch_flags"]   # type: ignore[index]
    assert flags == data["launch_flags"]
    assert flags["rl_config"] == str(config) and flags["skyrl_override"] == [LR]
    assert flags["workspace"] == str(EXAMPLES / "workspace") and flags["profile"] == "cw-us-east-02a"
    assert flags["gpus_per_node"] is None and flags["skyrl_ref"] is None and flags["model_path"] is None


def test_resume_alone_takes_the_recorded_config_and_overrides(cli: Cli, config: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _launched(config, LR)
    monkeypatch.chdir(config.parent.parent)   # another directory than the launch's: paths are absolute
    code, out = _resume(cli)
    assert code == 0, out[-3000:]
    plan = json.loads(out)
    assert plan["config_path"] == str(config) and plan["workspace"] == str(EXAMPLES / "workspace")
    assert LR in plan["hydra_args"] and plan["hydra_args"][-3:][0].startswith(SETTINGS_PREFIX[0])
    assert plan["tags"]["resume_of"] == JOB and plan["tags"]["resume_step"] == "2"
    # what this resumed run records: the original's flags, not this resume's settings
    assert plan["launch_flags"]["skyrl_override"] == [LR]


def test_given_flags_win_and_a_changed_hparam_is_still_refused(cli: Cli, config: Path) -> None:
    _launched(config, LR)
    code, out = _resume(cli, "--skyrl_override", "++trainer.max_steps=9")   # may change: extends the run
    assert code == 0, out[-3000:]
    args = json.loads(out)["hydra_args"]
    assert args.index("++trainer.max_steps=9") > args.index(LR)   # after the recorded ones: it wins
    code, out = _resume(cli, "--skyrl_override", "++trainer.policy.optimizer_config.lr=5e-06")
    assert code == 1 and "lr: 3e-06 -> 5e-06" in out, out[-3000:]


def test_text_dry_run_names_what_it_resumes(cli: Cli, config: Path) -> None:
    _launched(config, LR)
    code, out = cli("launch", "--local", "--resume", JOB, "--dry-run")
    assert code == 0, out[-3000:]
    assert f"{JOB} from step 2" in out and out.rstrip().endswith("not submitting (dry run)")


def test_a_row_from_before_recorded_flags_says_which_to_repeat(cli: Cli, config: Path) -> None:
    _launched(config, LR, old_row=True)
    code, out = _resume(cli)
    assert code == 64 and "Traceback" not in out, out
    repeat = ["--rl_config", str(config), "--workspace", str(EXAMPLES / "workspace")]
    assert "from before irisrl recorded launch flags" in out and " ".join(repeat) in out
    # with those but without the override: refused, naming the override to pass
    code, out = _resume(cli, *repeat)
    assert code == 1 and "hyperparameters differ" in out
    assert f"--skyrl_override '{LR}'" in out
    code, out = _resume(cli, *repeat, "--skyrl_override", LR)
    assert code == 0, out[-3000:]


def test_a_recorded_config_that_is_gone_is_named_with_the_fix(cli: Cli, config: Path) -> None:
    _launched(config, LR)
    config.rename(config.with_suffix(".bak"))
    code, out = _resume(cli)
    assert code == 64 and f"its recorded config {config} no longer exists" in out and "--rl_config" in out, out
    code, out = _resume(cli, "--rl_config", str(config.with_suffix(".bak")))
    assert code == 0, out[-3000:]


def test_an_edited_config_is_noted_when_hparams_match_and_refused_when_not(cli: Cli, config: Path) -> None:
    _launched(config, LR)
    config.write_text(config.read_text() + "\n# a comment only\n")
    code, out = _resume(cli)
    assert code == 0, out[-3000:]
    assert f"config {config} changed since {JOB}" in json.loads(out)["tags"]["resume_note"]
    _edit_an_hparam(config)
    code, out = _resume(cli)
    assert code == 1 and "hyperparameters differ" in out and "changed since" in out, out[-3000:]


def _edit_an_hparam(config: Path) -> None:
    import yaml

    raw = yaml.safe_load(config.read_text())
    raw["trainer"]["seed"] = int(raw["trainer"].get("seed", 42) or 42) + 1
    config.write_text(yaml.safe_dump(raw))


def test_a_masked_override_must_be_given_again(cli: Cli, config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    secret = "hf_resume-secret-value-1"
    monkeypatch.setenv("HF_TOKEN", secret)
    _launched(config, LR, f"++generator.api_key={secret}")
    assert secret.encode() not in Ledger().path.read_bytes()
    code, out = _resume(cli)
    assert code == 64 and "held a secret value" in out and "++generator.api_key=***" in out, out[-3000:]


def test_a_new_launch_still_needs_rl_config(cli: Cli) -> None:
    code, out = cli("launch", "--local", "--dry-run")
    assert code == 64 and "Missing option '--rl_config'" in out and "--resume JOB" in out
