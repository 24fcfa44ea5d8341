"""irisrl.ops as a Python API (README "Python API"): light to import, launch's flags split
into what runs / where / how it is shown, and the README's plan-building call really builds
the plan."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from irisrl import ops
from irisrl.ops import LaunchSettings, Launched

REPO = Path(__file__).resolve().parents[2]


def test_importing_ops_loads_no_iris_ray_or_fsspec():
    code = ("import sys, irisrl.ops\n"
            "print(sorted(m for m in ('iris', 'ray', 'fsspec', 'rich') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def test_launch_flags_split_into_what_runs_where_and_how_it_is_shown():
    """issue 17: no bag of flags crosses layers: the plan gets PlanInputs and a Target, the
    CLI keeps --dry-run/--json/--no-wait, submit gets --allow-queue/--policy."""
    from irisrl.cli.launch_options import Presentation, parse_launch_flags

    args = parse_launch_flags(["--rl_config", "x.yaml", "--local", "--no-wait", "--json", "--policy", "p.toml",
                               "--series", "a3", "--allow-queue", "--num-nodes", "2"])
    assert args.target == ops.Target(local=True)
    assert args.show == Presentation(dry_run=False, as_json=True, no_wait=True)
    assert (args.allow_queue, args.policy) == (True, "p.toml")
    assert args.inputs == ops.PlanInputs(rl_config="x.yaml", num_nodes=2, series="a3")
    assert not {"local", "controller_url", "cluster_config", "dry_run", "as_json", "no_wait", "policy"} \
        & set(ops.PlanInputs.__dataclass_fields__)
    assert set(LaunchSettings.__dataclass_fields__) >= {"target", "no_wait", "policy", "allow_queue"}


def test_launched_carries_the_cli_exit_code_and_no_job_when_refused():
    refused = Launched(None, "http://127.0.0.1:1", 1)
    assert refused.job_id is None and refused.exit_code == 1


def test_the_readme_plan_call_builds_a_local_plan(monkeypatch):
    monkeypatch.chdir(REPO)
    planned = ops.plan_launch(ops.PlanInputs(rl_config="examples/configs/smoke_colocated.yaml",
                                             workspace="examples/workspace", num_nodes=2), ops.Target(local=True))
    plan = planned.plan
    assert plan is not None, [f.to_dict() for f in planned.findings if f.severity == "error"]
    assert planned.ok and plan.num_nodes == 2 and plan.mode == "local"
    readme = (REPO / "README.md").read_text()
    assert 'rl_config="examples/configs/smoke_colocated.yaml", workspace="examples/workspace"' in readme
    assert "ops.plan_launch(ops.PlanInputs(" in readme and "plan.build" not in readme


def test_kill_job_needs_yes_and_confirms_the_state_on_an_injected_backend():
    """ops.kill's core (`irisrl kill`'s engine) over the in-memory backend: never terminates
    without `yes` or a job already ended; with `yes`, terminates and reports the state read after."""
    sys.path.insert(0, str(REPO / "tests"))
    from support.memory_backend import MemoryBackend

    from irisrl.backends.base import JobSnapshot
    from irisrl.ops.jobs import kill_job

    running, killed = JobSnapshot("/u/j", "running", 0), JobSnapshot("/u/j", "killed", 0)
    refused = kill_job(MemoryBackend(script=[running]), "/u/j")
    assert (refused.outcome, refused.exit_code) == ("refused", 1)
    backend = MemoryBackend(script=[running, killed])
    done = kill_job(backend, "/u/j", yes=True, wait_s=5)
    assert backend.terminated == ["/u/j"] and (done.outcome, done.snap.state, done.exit_code) == ("terminated", "killed", 0)
    stuck = kill_job(MemoryBackend(script=[running]), "/u/j", yes=True, wait_s=0)
    assert (stuck.outcome, stuck.exit_code) == ("terminated", 3)   # not confirmed killed within the wait
    ended = MemoryBackend(script=[JobSnapshot("/u/j", "succeeded", 0)])
    assert kill_job(ended, "/u/j", yes=True).exit_code == 0 and ended.terminated == []


def test_ops_health_on_files_is_what_the_cli_prints(capsys):
    """`irisrl health --log ... --json` renders ops.health's report, and exits with its code."""
    import json

    import pytest

    from irisrl import ops
    from irisrl.cli.main import main

    fixture = REPO / "tests" / "fixtures" / "logs" / "wedge"
    log, plan = str(fixture / "combined.log"), str(fixture / "plan.json")
    check = ops.health(logs=[log], plan_path=plan)
    with pytest.raises(SystemExit) as exc:
        main(["health", "--log", log, "--plan", plan, "--json"])
    assert json.loads(capsys.readouterr().out) == check.to_dict()
    assert exc.value.code == check.exit_code == 1 and check.verdict == "KILL" and check.rungs[4].status == "fail"


def test_ops_validate_and_fit_are_what_the_cli_prints(capsys, tmp_path, monkeypatch):
    """issue 17: `irisrl validate --json` and `irisrl fit --json` render ops.validate's and
    ops.fit's reports, and exit with their verdicts (one engine, two front ends)."""
    import json

    import pytest

    from irisrl.cli.main import main
    from irisrl.ops.fit_check import exit_code

    monkeypatch.chdir(REPO)
    config = "examples/configs/dense8b_disagg.yaml"
    with pytest.raises(SystemExit) as validated:
        main(["validate", config, "--workspace", "examples/workspace", "--num-nodes", "5", "--json"])
    api = ops.validate(config, num_nodes=5, workspace="examples/workspace")
    assert json.loads(capsys.readouterr().out) == api.to_dict()
    assert not api.ok and validated.value.code == 1       # 5 nodes are too few for this layout

    state = "tests/fixtures/fit/state-256.json"
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"num_nodes": 11, "coscheduling": {"group_by": "leafgroup"},
                                "resources": {"cpu": 48.0, "memory": "512GB", "disk": "512GB",
                                              "device": {"type": "gpu", "variant": "H100", "count": 8}}}))
    with pytest.raises(SystemExit) as fitted:
        main(["fit", "--plan", str(plan), "--state", state, "--json"])
    report = ops.fit(str(plan), state_file=state)
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(report.to_dict()))
    assert report.verdict == "queues" and fitted.value.code == exit_code(report) == 4
