"""No warning cries wolf: every agentic config that ran in production (MarinSkyRL
cloud/iris/configs, reconstructed in tests/fixtures/production_agentic/) validates at its
launch with no error and no warning, except where the source says the config was wrong there
(SOURCE_SAYS_WRONG). And ENV-LD-LIBRARY-PATH fires only on a value that can hurt."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
import yaml

from irisrl.rules.catalogue import run_rules
from irisrl.rules.context import build_context

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "production_agentic"
WORKSPACE = REPO / "examples" / "workspace"
FLAGS = {"--num-nodes": ("num_nodes", int), "--gpus_per_node": ("gpus_per_node", int),
         "--model_path": ("model_path", str)}
# (fixture stem, rule id) -> where the source says the config was wrong there.
_DB = ("the tasktrove sweeps set enable_db_registration: true; the operator runbook says false in every "
       "Iris RL yaml (registration is a manual cleanup step) and the launcher notes list it as a standing "
       "constraint (shared/reference/operator-runbook.txt section 4; search index id 54558832368)")
SOURCE_SAYS_WRONG: dict[tuple[str, str], str] = {
    ("tasktrove_30b_4nodes", "CFG-DB-REGISTRATION"): _DB,
    ("tasktrove_30b_cp2_6nodes", "CFG-DB-REGISTRATION"): _DB,
    ("tasktrove_30b_gb200_12nodes", "CFG-DB-REGISTRATION"): _DB,
}
RL_LIB = "/opt/openthoughts/envs/rl/lib"


def _findings(path: Path) -> list:
    first = path.read_text().splitlines()[0]
    assert first.startswith("# validate: "), f"{path.name}: first line must be `# validate: FLAGS`"
    words = shlex.split(first[len("# validate: "):])
    launch = {FLAGS[flag][0]: FLAGS[flag][1](value) for flag, value in zip(words[::2], words[1::2])}
    ctx = build_context(path, workspace=WORKSPACE, **launch)
    assert ctx.budget.num_nodes == ctx.num_nodes, f"{path.name}: the launch flags do not match its GPU budget"
    return run_rules(ctx)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.yaml")), ids=lambda p: p.stem)
def test_production_config_raises_no_error_and_no_warning(path: Path) -> None:
    loud = [f for f in _findings(path) if f.severity in ("error", "warning")
            and (path.stem, f.rule) not in SOURCE_SAYS_WRONG]
    assert loud == [], [f.to_dict() for f in loud]


def test_the_ten_production_configs_and_their_ld_library_path() -> None:
    """The issue's count: ten agentic configs, nine of them without LD_LIBRARY_PATH."""
    envs = {p.stem: yaml.safe_load(p.read_text()).get("extra_env") or {} for p in FIXTURES.glob("*.yaml")}
    assert len(envs) == 10
    assert sorted(stem for stem, env in envs.items() if "LD_LIBRARY_PATH" in env) == ["coder30b_ep4_dcp2_4nodes"]


def _ld_rules(tmp_path: Path, value: str | None) -> set[str]:
    raw = yaml.safe_load((FIXTURES / "tasktrove_30b_4nodes.yaml").read_text())
    if value is not None:
        raw["extra_env"]["LD_LIBRARY_PATH"] = value
    path = tmp_path / "cfg.yaml"
    path.write_text((FIXTURES / "tasktrove_30b_4nodes.yaml").read_text().splitlines()[0] + "\n" + yaml.safe_dump(raw))
    return {f.rule for f in _findings(path) if f.rule in ("ENV-LD-LIBRARY-PATH", "ENV-UNEXPANDED")}


@pytest.mark.parametrize("value, rules", [
    (None, set()),                                              # absent: how nine production configs ran
    (RL_LIB, set()),                                            # the notes' literal
    ("/usr/local/cuda/lib64:/usr/lib/x86_64-linux-gnu", set()),  # any absolute directories
    (f"{RL_LIB}:", {"ENV-LD-LIBRARY-PATH"}),                    # trailing colon: the working directory
    (f"lib:{RL_LIB}", {"ENV-LD-LIBRARY-PATH"}),                 # relative entry
    ("$CONDA_PREFIX/lib", {"ENV-UNEXPANDED"}),                  # the notes' point: ENV-UNEXPANDED's, once
])
def test_ld_library_path_warns_only_on_a_value_that_can_hurt(tmp_path: Path, value: str | None,
                                                              rules: set[str]) -> None:
    assert _ld_rules(tmp_path, value) == rules


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.yaml")), ids=lambda p: p.stem)
def test_production_launch_dry_run_raises_no_error_and_no_warning(path: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The launch rules too (LCH-*), with the secrets a production launch has in its environment
    (without them LCH-SECRETS rightly warns)."""
    import json

    from irisrl.cli.main import main

    for key, value in {"IRISRL_HOME": tmp_path / "state", "HOME": tmp_path / "home", "HF_TOKEN": "hf_dummy-token",
                       "DAYTONA_API_KEY": "dtn-dummy-key", "WANDB_API_KEY": "wandb-dummy-key"}.items():
        monkeypatch.setenv(key, str(value))
    flags = shlex.split(path.read_text().splitlines()[0][len("# validate: "):])
    with pytest.raises(SystemExit) as done:
        main(["launch", "--rl_config", str(path), "--workspace", str(WORKSPACE), *flags, "--dry-run", "--json",
              "--job-name", "prod-check", "--train_data", '["DCAgent/tasks"]'])
    plan = json.loads(capsys.readouterr().out)
    loud = [f for f in plan["findings"] if f["severity"] in ("error", "warning")
            and (path.stem, f["rule"]) not in SOURCE_SAYS_WRONG]
    assert loud == [], loud
    assert done.value.code == (1 if any(stem == path.stem for stem, _ in SOURCE_SAYS_WRONG) else 0)
