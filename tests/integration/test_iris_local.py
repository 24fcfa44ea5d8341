"""irisrl against a real Iris local cluster, started by `irisrl cluster up --local` (the
session's, tests/integration/conftest.py), with real task subprocesses. Trivial commands
only: keep it quick on 2 cores."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import trivial_plan  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from sigint import sigint_default  # noqa: E402

from irisrl.backends import local_cluster  # noqa: E402
from irisrl.ops import LaunchSettings, Target, launch  # noqa: E402
from irisrl.cli.main import main  # noqa: E402
from irisrl.util.errors import IrisrlError  # noqa: E402

pytestmark = pytest.mark.slow

SECRET = "s3cr3t-value-never-printed"
PRINT_ENV = ["bash", "-c", "echo task=$IRIS_TASK_ID worker=$IRIS_WORKER_ID; "
             "echo KEYS: $(env | cut -d= -f1 | sort | tr '\\n' ' '); ls $IRIS_WORKDIR/.irisrl/lib/irisrl/runtime "
             "$IRIS_WORKDIR/.irisrl/plan.json $IRIS_WORKDIR/hello.txt"]


@pytest.fixture
def on_cluster(on_iris_cluster, monkeypatch):
    monkeypatch.setenv("HF_TOKEN", "hf_test-process-leak")  # the SDK would forward it; irisrl must not
    return on_iris_cluster


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out = capsys.readouterr()
    return int(done.value.code or 0), out.out, out.err


def wait_state(url: str, job_id: str, states: set[str], timeout: float = 60) -> str:
    from irisrl.backends.iris_client import IrisBackend

    deadline = time.monotonic() + timeout
    with IrisBackend(url) as backend:
        while time.monotonic() < deadline:
            state = backend.snapshot(job_id, detail=False).state
            if state in states:
                return state
            time.sleep(0.3)
    raise AssertionError(f"{job_id} did not reach {states} within {timeout}s")


def wait_task_running(url: str, job_id: str, timeout: float = 60) -> None:
    """Until a task really runs (Iris calls a job RUNNING while its tasks are only assigned)."""
    from irisrl.backends.iris_client import IrisBackend

    deadline = time.monotonic() + timeout
    with IrisBackend(url) as backend:
        while backend.snapshot(job_id, detail=False).task_states.get("running", 0) == 0:
            assert time.monotonic() < deadline, f"{job_id}: no task running within {timeout}s"
            time.sleep(0.3)


def test_client_age_lift_attribute_is_where_irisrl_expects(monkeypatch):
    import iris.cluster.controller.service as service

    assert hasattr(service, local_cluster.CLIENT_AGE_ATTR), "FRESHNESS_WINDOW moved: update local_cluster.CLIENT_AGE_*"
    # the lift is meant for a controller's own process: undo it in pytest's, for later tests
    monkeypatch.setattr(service, local_cluster.CLIENT_AGE_ATTR, getattr(service, local_cluster.CLIENT_AGE_ATTR))
    local_cluster.lift_client_age_check()
    assert getattr(service, local_cluster.CLIENT_AGE_ATTR) == local_cluster.CLIENT_AGE_WINDOW


def test_cluster_status_reports_the_local_cluster(on_cluster, capsys, ops_on_terminal):
    code, out, _ = run_cli(capsys, "cluster", "status", "--json")
    data = json.loads(out)
    assert code == 0 and data["up"] and data["url"] == on_cluster.url and data["nodes"] == 2


def test_two_node_gang_lands_on_distinct_workers_with_env_and_no_leaks(on_cluster, capsys, ops_on_terminal):
    plan = trivial_plan("gang-env", PRINT_ENV, on_cluster.ws, nodes=2,
                        env={"MY_SECRET": SECRET, "PLAIN_SETTING": "1"}, secret_keys=("MY_SECRET",))
    assert launch(plan, LaunchSettings(Target(local=True))).exit_code == 0
    out = capsys.readouterr().out
    assert "[rank 0] task=/tester/gang-env/0" in out and "[rank 1] task=/tester/gang-env/1" in out
    keys = [ln for ln in out.splitlines() if "KEYS:" in ln]
    assert len(keys) == 2 and all("MY_SECRET" in k and "PLAIN_SETTING" in k and "IRIS_PORT_RAY" in k for k in keys)
    assert not any(leak in out for leak in ("AWS_", "R2_", "HF_TOKEN")), "shell credentials reached the task"
    assert "plan.json" in out and "hello.txt" in out  # runtime + plan shipped with the workspace bundle

    code, js, _ = run_cli(capsys, "status", "/tester/gang-env", "--json")
    status = json.loads(js)
    assert code == 0 and status["state"] == "succeeded" and status["exit_code"] == 0
    assert status["task_count"] == 2 and len({t["worker"] for t in status["tasks"]}) == 2

    from iris.client.client import IrisClient

    with IrisClient.remote(on_cluster.url) as client:
        attrs = {w.worker_id: dict(w.metadata.attributes) for w in client.list_workers()}
    groups = {str(attrs[t["worker"]].get("leafgroup")) for t in status["tasks"]}
    # one leaf group: the gang constraint. Which one depends on what the session's earlier
    # 1-node jobs scaled up (two idle lg-1 slices hold a 2-node gang as well as one lg-2 slice)
    assert len(groups) == 1 and groups.pop().strip().startswith('string_value: "lg-'), groups

    state_files = b"".join(p.read_bytes() for p in Path(on_cluster.env["IRISRL_HOME"]).rglob("*") if p.is_file())
    assert SECRET.encode() not in state_files and SECRET not in out + js
    assert json.loads(run_cli(capsys, "runs", "--series", "gang", "--json")[1])[0]["plan"]["env"]["MY_SECRET"] == "***"


def test_watch_exit_0_on_success_and_1_on_failure(on_cluster, capsys, ops_on_terminal):
    ok = trivial_plan("watch-ok", ["true"], on_cluster.ws)
    bad = trivial_plan("watch-bad", ["bash", "-c", "echo failing; exit 3"], on_cluster.ws)
    assert launch(ok, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    assert launch(bad, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    assert run_cli(capsys, "watch", "watch-ok", "--interval", "0.5", "--timeout", "60s")[0] == 0
    code, out, _ = run_cli(capsys, "watch", "watch-bad", "--interval", "0.5", "--timeout", "60s")
    assert code == 1 and "state=failed" in out
    code, js, _ = run_cli(capsys, "status", "watch-bad", "--json")
    assert code == 1 and json.loads(js)["exit_code"] == 3  # rank 0's exit code, not Iris's job-level 0


def test_kill_needs_yes_and_then_ends_killed(on_cluster, capsys, ops_on_terminal):
    plan = trivial_plan("kill-me", ["sleep", "120"], on_cluster.ws)
    assert launch(plan, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    wait_state(on_cluster.url, "/tester/kill-me", {"running"})
    code, _, err = run_cli(capsys, "kill", "/tester/kill-me")
    assert code == 1 and "without --yes" in err
    assert wait_state(on_cluster.url, "/tester/kill-me", {"running"}) == "running"
    code, out, _ = run_cli(capsys, "kill", "/tester/kill-me", "--yes")
    assert code == 0 and "state=killed" in out


def test_status_of_unknown_job_is_absent_exit_2(on_cluster, capsys, ops_on_terminal):
    code, out, _ = run_cli(capsys, "status", "/tester/never-submitted", "--json")
    assert code == 2 and json.loads(out)["absent"] is True


def test_concurrency_cap_refuses_the_next_daytona_launch(on_cluster, capsys, tmp_path, ops_on_terminal):
    policy = tmp_path / "policy.toml"
    policy.write_text("daytona_cap = 1\n")
    tags = {"kind": "agentic-rl", "sandbox": "daytona", "series": "conc"}
    first = trivial_plan("conc-1", ["sleep", "120"], on_cluster.ws, tags=tags)
    second = trivial_plan("conc-2", ["true"], on_cluster.ws, tags=tags)
    assert launch(first, LaunchSettings(Target(local=True), no_wait=True, policy=str(policy))).exit_code == 0
    wait_task_running(on_cluster.url, "/tester/conc-1")
    capsys.readouterr()
    assert launch(second, LaunchSettings(Target(local=True), no_wait=True, policy=str(policy))).exit_code == 1
    err = capsys.readouterr().err
    assert "POL-CONCURRENCY" in err and "/tester/conc-1" in err
    assert run_cli(capsys, "status", "/tester/conc-2")[0] == 2  # nothing submitted
    assert run_cli(capsys, "kill", "/tester/conc-1", "--yes")[0] == 0


def test_concluded_series_drift_and_reused_rendezvous_are_refused(on_cluster, capsys, ops_on_terminal):
    assert launch(trivial_plan("a3-refill", ["true"], on_cluster.ws), LaunchSettings(Target(local=True), no_wait=True)).exit_code == 1
    assert "POL-SERIES-CONCLUDED" in capsys.readouterr().err
    base = trivial_plan("drift-1", ["true"], on_cluster.ws, series="drift", hparams_fingerprint="fp-1",
                        rendezvous_dir="s3://bucket/iris/rl/drift-1")
    opts = LaunchSettings(Target(local=True), no_wait=True, series_explicit=True)  # --series given: drift is checked
    assert launch(base, opts).exit_code == 0
    changed = trivial_plan("drift-2", ["true"], on_cluster.ws, series="drift", hparams_fingerprint="fp-2",
                           rendezvous_dir="s3://bucket/iris/rl/drift-2")
    assert launch(changed, opts).exit_code == 1
    assert "POL-SERIES-DRIFT" in capsys.readouterr().err
    reused = trivial_plan("drift-3", ["true"], on_cluster.ws, series="drift", hparams_fingerprint="fp-1",
                          rendezvous_dir="s3://bucket/iris/rl/drift-1/")
    assert launch(reused, opts).exit_code == 1
    assert "LCH-RDZV-REUSED" in capsys.readouterr().err


def test_launch_local_no_wait_without_a_cluster_says_to_start_one(tmp_path):
    plan = trivial_plan("nowait", ["true"], tmp_path)
    with pytest.raises(IrisrlError) as err:
        launch(plan, LaunchSettings(Target(local=True), no_wait=True)).exit_code
    assert "cluster up --local" in err.value.fix


def test_launch_local_without_a_cluster_runs_a_temporary_one_and_cleans_up(tmp_path, capsys, monkeypatch, ops_on_terminal):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f.txt").write_text("x")
    plan = trivial_plan("ephemeral", ["bash", "-c", "echo ran-on-$IRIS_NUM_TASKS"], tmp_path, nodes=2)
    assert launch(plan, LaunchSettings(Target(local=True))).exit_code == 0
    out = capsys.readouterr().out
    assert "temporary local cluster" in out and "[rank 0] ran-on-2" in out
    mine = f"irisrl.backends.local_controller.*--parent-pid {os.getpid()}$"  # ours, not other sessions'
    leftovers = subprocess.run(["pgrep", "-f", mine], capture_output=True, text=True).stdout.split()
    assert leftovers == [], "the temporary controller outlived the command"


def test_watch_checkin_runs_the_health_analysis_on_the_live_logs(on_cluster, capsys, ops_on_terminal):
    plan = trivial_plan("checkin", ["bash", "-c", "echo '[irisrl] Ray nodes alive: 1/1'; sleep 4"], on_cluster.ws)
    assert launch(plan, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    code, out, _ = run_cli(capsys, "watch", "checkin", "--interval", "0.5", "--checkins", "1s", "--timeout", "60s")
    assert code == 0 and "check-in 1s: health" in out


def test_launch_local_smoke_config_end_to_end_rehearsal(on_cluster):
    """The whole chain: `irisrl launch --local` of the smoke config -> plan -> bundle with the
    runtime -> 2 gang tasks -> rendezvous in IRISRL_HOME (under /tmp here) -> real Ray ->
    placement rehearsal -> SUCCEEDED."""
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-m", "irisrl", "launch", "--local", "--rl_config",
         str(repo / "examples/configs/smoke_colocated.yaml"), "--num-nodes", "2", "--workspace",
         str(repo / "examples/workspace"), "--job-name", "smoke-e2e"],
        env={**on_cluster.env, "HF_TOKEN": "hf_e2e-secret-value"}, cwd=Path.cwd(), capture_output=True, text=True,
        timeout=300)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    assert "finished: succeeded" in out and "result: SUCCEEDED" in out
    # The saved logs are the complete record (the live follower may show Iris's local output late).
    saved = "".join(p.read_text() for p in Path.cwd().glob("traces/tester_smoke-e2e_*/combined.log"))
    assert "PLACEMENT_MAP" in saved and "Ray nodes alive: 2/2" in saved
    assert "hf_e2e-secret-value" not in out + saved


def test_ctrl_c_while_following_detaches_and_never_kills(on_cluster, capsys, ops_on_terminal):
    import signal

    script = (f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parent)!r}); from pathlib import Path\n"
              "from iris_plans import trivial_plan\nfrom irisrl.ops import LaunchSettings, Target, launch\n"
              f"plan = trivial_plan('ctrl-c', ['sleep', '120'], Path({str(on_cluster.ws)!r}))\n"
              "sys.exit(launch(plan, LaunchSettings(Target(local=True), interval=0.3)).exit_code)\n")
    proc = subprocess.Popen(sigint_default([sys.executable, "-c", script]), env=on_cluster.env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        wait_state(on_cluster.url, "/tester/ctrl-c", {"running"})
        time.sleep(1.0)  # let it enter the follow loop
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, out + err
    assert "detached from /tester/ctrl-c" in err and "irisrl watch /tester/ctrl-c" in err
    assert "irisrl kill /tester/ctrl-c --yes" in err
    assert wait_state(on_cluster.url, "/tester/ctrl-c", {"running"}) == "running"  # not killed
    assert run_cli(capsys, "kill", "/tester/ctrl-c", "--yes")[0] == 0


def test_launch_local_gang_larger_than_the_cluster_is_refused_before_submit(on_cluster, capsys, ops_on_terminal):
    plan = trivial_plan("too-big", ["true"], on_cluster.ws, nodes=3)
    with pytest.raises(IrisrlError) as err:
        launch(plan, LaunchSettings(Target(local=True))).exit_code
    assert "--nodes 3" in err.value.fix
    assert run_cli(capsys, "status", "/tester/too-big")[0] == 2
