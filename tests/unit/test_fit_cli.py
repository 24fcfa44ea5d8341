"""`irisrl fit` on recorded cluster states: verdicts, exit codes, --json, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from _cfgutil import CONFIGS, WORKSPACE  # noqa: E402

from irisrl.backends.fit import GIB, ClusterState, Holder, Node  # noqa: E402
from irisrl.cli.main import main  # noqa: E402

PLAN = {"num_nodes": 2, "coscheduling": {"group_by": "leafgroup"},
        "resources": {"cpu": 48.0, "memory": "512GB", "disk": "512GB",
                      "device": {"type": "gpu", "variant": "H100", "count": 8}}}


def _node(name: str, group: str, holder: str | None = None) -> Node:
    held = dict(held_cpu_m=48000, held_memory=512 * GIB, held_gpus=8, holders=(holder,)) if holder else {}
    return Node(name, 128000, 2048 * GIB, 8, "gpu", "h100", attributes={"leafgroup": group}, **held)


def _files(tmp_path: Path, *nodes: Node, plan: dict | None = None) -> tuple[str, str]:
    state = ClusterState(nodes=nodes, jobs={"/bob/rl-a": Holder("/bob/rl-a", "running", 1_000, 1)},
                         source="recorded", read_at_ms=7_201_000)
    (tmp_path / "state.json").write_text(json.dumps(state.to_dict()))
    (tmp_path / "plan.json").write_text(json.dumps(plan or PLAN))
    return str(tmp_path / "plan.json"), str(tmp_path / "state.json")


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(args)
    out, err = capsys.readouterr()
    return int(exc.value.code), out, err


def test_fit_cli_free_leafgroup_exits_0_and_names_the_nodes(tmp_path, capsys):
    plan, state = _files(tmp_path, _node("n1", "lg-a"), _node("n2", "lg-a"))
    rc, out, _ = run_cli(["fit", "--plan", plan, "--state", state], capsys)
    assert rc == 0
    assert "FITS: fits now in leafgroup lg-a on n1, n2" in out


def test_fit_cli_held_group_exits_4_and_json_names_holder_with_age(tmp_path, capsys):
    plan, state = _files(tmp_path, _node("n1", "lg-a"), _node("n2", "lg-a", holder="/bob/rl-a"))
    rc, out, _ = run_cli(["fit", "--plan", plan, "--state", state, "--json"], capsys)
    data = json.loads(out)
    assert rc == 4 and data["verdict"] == "queues"
    assert data["holders"] == [{"job_id": "/bob/rl-a", "state": "running", "age_s": 7200, "nodes": 1}]


def test_fit_cli_split_leafgroups_exit_1_with_fix(tmp_path, capsys):
    plan, state = _files(tmp_path, _node("n1", "lg-a"), _node("n2", "lg-b"))
    rc, out, _ = run_cli(["fit", "--plan", plan, "--state", state], capsys)
    assert rc == 1
    assert "NEVER" in out and "fix:  --num-nodes 1" in out


def test_fit_cli_builds_the_plan_from_launch_flags(tmp_path, capsys):
    nodes = [_node(f"n{i}", "lg-a") for i in range(7)]
    _, state = _files(tmp_path, *nodes)
    rc, out, _ = run_cli(["fit", "--rl_config", str(CONFIGS / "dense8b_disagg.yaml"), "--num-nodes", "7",
                          "--workspace", str(WORKSPACE), "--state", state, "--json"], capsys)
    data = json.loads(out)
    assert rc == 0 and data["request"]["nodes"] == 7 and len(data["nodes"]) == 7


@pytest.mark.parametrize("args, needle", [
    ([], "nothing to check"),
    (["--plan", "/nonexistent/plan.json"], "cannot read the plan"),
])
def test_fit_cli_bad_input_is_a_usage_error_without_traceback(args, needle, capsys):
    rc, _, err = run_cli(["fit", *args], capsys)
    assert rc == 64 and needle in err and "Traceback" not in err


def test_fit_cli_plan_without_resources_is_refused(tmp_path, capsys):
    plan, state = _files(tmp_path, _node("n1", "lg-a"), plan={"ok": False})
    rc, _, err = run_cli(["fit", "--plan", plan, "--state", state], capsys)
    assert rc == 64 and "is not a launch plan" in err


BAD_STATES = {
    "a list": [],
    "nodes not a list": {"nodes": "n1"},
    "a node's cpu not a number": {"nodes": [{"id": "n1", "cpu_m": "lots", "memory": 1, "gpus": 8}]},
    "a scale group without template": {"scale_groups": [{"name": "g", "num_vms": 2, "free_slices": 1}]},
    "a job not a mapping": {"jobs": {"/a/b": 5}},
}


@pytest.mark.parametrize("content", BAD_STATES.values(), ids=BAD_STATES.keys())
def test_fit_cli_malformed_state_file_is_a_usage_error_without_traceback(tmp_path, capsys, content):
    plan, _ = _files(tmp_path, _node("n1", "lg-a"))
    (tmp_path / "bad.json").write_text(json.dumps(content))
    rc, _, err = run_cli(["fit", "--plan", plan, "--state", str(tmp_path / "bad.json")], capsys)
    assert rc == 64 and "cannot read the cluster state" in err and "Traceback" not in err


BAD_PLANS = {
    "resources null": {**PLAN, "resources": None},
    "device a string": {**PLAN, "resources": {**PLAN["resources"], "device": "gpu"}},
    "coscheduling a string": {**PLAN, "coscheduling": "leafgroup"},
    "zero nodes": {**PLAN, "num_nodes": 0},
}


@pytest.mark.parametrize("plan_data", BAD_PLANS.values(), ids=BAD_PLANS.keys())
def test_fit_cli_malformed_plan_is_a_usage_error_not_a_verdict(tmp_path, capsys, plan_data):
    plan, state = _files(tmp_path, _node("n1", "lg-a"), _node("n2", "lg-a"), plan=plan_data)
    rc, _, err = run_cli(["fit", "--plan", plan, "--state", state], capsys)
    assert rc == 64 and "the plan's resources cannot be read" in err and "Traceback" not in err


def test_fit_cli_without_a_cluster_to_ask_exits_3_not_never_fits(tmp_path, capsys, monkeypatch):
    """Exit 1 is fit's "can never fit": no local cluster up must not read as that verdict."""
    monkeypatch.setenv("IRISRL_HOME", str(tmp_path / "home"))
    plan, _ = _files(tmp_path, _node("n1", "lg-a"))
    rc, _, err = run_cli(["fit", "--plan", plan, "--local"], capsys)
    assert rc == 3 and "no local cluster is up" in err


def test_fit_cli_config_that_builds_no_plan_exits_3(tmp_path, capsys):
    rc, _, err = run_cli(["fit", "--rl_config", str(tmp_path / "missing.yaml"), "--num-nodes", "2"], capsys)
    assert rc == 3 and "does not build a plan" in err


def test_fit_record_to_an_unwritable_path_is_a_usage_error(tmp_path):
    """fit's engine over the in-memory backend (the CLI opens a real one and hands it the same
    way): --record into a missing directory is exit 64 with the fix, no traceback."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from support.memory_backend import MemoryBackend

    from irisrl.backends.fit import GangRequest
    from irisrl.ops.fit_check import fit_on
    from irisrl.util.errors import UsageError

    backend = MemoryBackend(cluster=ClusterState(nodes=(_node("n1", "lg-a"),)))
    with pytest.raises(UsageError) as refused:
        fit_on(backend, GangRequest.from_plan(PLAN), record=str(tmp_path / "no-such-dir" / "state.json"))
    assert refused.value.exit_code == 64 and "cannot write the cluster state" in refused.value.message
    assert backend.calls == 1   # the cluster was read once, through the injected backend


def test_fit_cli_state_with_record_is_a_usage_error_not_a_silent_no_op(tmp_path, capsys):
    plan, state = _files(tmp_path, _node("n1", "lg-a"))
    rc, _, err = run_cli(["fit", "--plan", plan, "--state", state, "--record", str(tmp_path / "r.json")], capsys)
    assert rc == 64 and "--record" in err and not (tmp_path / "r.json").exists()


def test_fit_cli_piped_refused_dry_run_names_its_first_error(tmp_path, capsys):
    refused = {"ok": False, "findings": [{"rule": "TOPO-NODES", "severity": "error", "message": "got 11"}]}
    plan, state = _files(tmp_path, _node("n1", "lg-a"), plan=refused)
    rc, _, err = run_cli(["fit", "--plan", plan, "--state", state], capsys)
    assert rc == 64 and "built no plan (1 error(s): TOPO-NODES got 11)" in err


def test_fit_cli_empty_plan_file_says_it_is_empty(tmp_path, capsys):
    plan, state = _files(tmp_path, _node("n1", "lg-a"))
    Path(plan).write_text("")
    rc, _, err = run_cli(["fit", "--plan", plan, "--state", state], capsys)
    assert rc == 64 and "it is empty" in err


def test_launch_help_offers_allow_queue(capsys):
    rc, out, _ = run_cli(["launch", "--help"], capsys)
    assert rc == 0 and "--allow-queue" in out


def test_fit_cli_unknown_launch_flag_is_a_fit_usage_error(capsys):
    rc, _, err = run_cli(["fit", "--rl_config", str(CONFIGS / "dense8b_disagg.yaml"), "--bogus", "1"], capsys)
    assert rc == 64 and "fit: No such option '--bogus'" in err and "launch --help" in err
