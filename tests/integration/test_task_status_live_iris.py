"""The task's own status from a real Iris local cluster reaches the health analyzer: one task
prints an error-shaped line no cause names (`ValueError: bad shape`) and exits 1; another
kills itself with SIGKILL (the shape of an OOM kill). `health JOB` feeds each attempt's
`irisrl-task-status:` line (state, exit code, Iris's error text) into that task's stream, and
`logs JOB` saves the same lines, so `health --log` reads the same evidence offline.

What Iris's local runtime reports (marin-iris 0.2.20.dev202606180959), asserted below: exit 1
-> state FAILED, exit_code 1, error "Exit code: 1. stderr: <the task's last stderr line>"
(iris/cluster/worker/task_attempt.py); SIGKILL from outside Iris -> FAILED, exit_code -9, error
"Exit code: -9" (the process runtime keeps Popen.returncode, iris/cluster/runtime/process.py;
the job's own status says the same); the healthy rank of a gang whose rank 0 failed ->
COSCHED_FAILED, exit_code 0, error "Coscheduled sibling <job>/0 failed"."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import irisrl_cli as _irisrl  # noqa: E402
from iris_plans import trivial_plan  # noqa: E402

pytestmark = pytest.mark.slow

TAG = "irisrl-task-status:"
CRASH = "echo '[irisrl] Ray nodes alive: 1/1'; sleep 0.2; echo 'ValueError: bad shape' >&2; sleep 0.2; exit 1"
SIGKILLED = "echo '[irisrl] Ray nodes alive: 1/1'; sleep 0.2; echo 'allocating'; sleep 0.2; kill -9 $$"
# A gang of 2: rank 0 fails, rank 1 (healthy, still printing) is cancelled by Iris.
GANG = r"""
r=${IRIS_TASK_ID##*/}; r=${r%%:*}
if [ "$r" = 0 ]; then echo 'rank0 up'; sleep 2; echo 'RuntimeError: boom' >&2; exit 1; fi
for i in $(seq 600); do echo heartbeat; sleep 0.5; done
"""


def _run_to_end(env: dict[str, str], name: str, script: str, ws: Path, nodes: int = 1) -> str:
    from irisrl.ops import LaunchSettings, Target, launch

    plan = trivial_plan(name, ["bash", "-c", script], ws, nodes=nodes, role="trainer")
    assert launch(plan, LaunchSettings(Target(local=True), no_wait=True)).exit_code == 0
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if _irisrl(env, "status", plan.job_id, "--local", "--json").returncode in (0, 1):
            return plan.job_id
        time.sleep(1)
    raise AssertionError(f"{plan.job_id} not terminal after 90s")


def _health_inputs(job: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> tuple[dict, list[str]]:
    """`health JOB --local --json` in-process: (report, every status line fed to the analyzer)."""
    from irisrl.cli.main import main
    from irisrl.observe import analyzer as A

    fed: list[str] = []
    real_feed = A.Analyzer.feed
    monkeypatch.setattr(A.Analyzer, "feed", lambda self, name, data: (fed.extend(
        f"{name}: {ln}" for ln in data.decode().splitlines() if TAG in ln), real_feed(self, name, data))[1])
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["health", job, "--local", "--json"])
    return json.loads(capsys.readouterr().out), fed


@pytest.fixture(scope="module")
def ended_jobs(iris_cluster):
    """(crashed job, SIGKILLed job, gang job), run once for the module."""
    with pytest.MonkeyPatch.context() as mp:   # launch in-process on the session's cluster
        for key in ("HOME", "IRISRL_HOME"):
            mp.setenv(key, iris_cluster.env[key])
        return (_run_to_end(iris_cluster.env, "tstatus-crash", CRASH, iris_cluster.ws),
                _run_to_end(iris_cluster.env, "tstatus-sigkill", SIGKILLED, iris_cluster.ws),
                _run_to_end(iris_cluster.env, "tstatus-gang", GANG, iris_cluster.ws, nodes=2))


def test_failed_task_status_reaches_health_and_the_pulled_logs(ended_jobs, on_iris_cluster, monkeypatch, capsys,
                                                               tmp_path):
    crash, killed, _ = ended_jobs
    _, fed = _health_inputs(crash, monkeypatch, capsys)
    task_line = next(ln for ln in fed if ln.startswith("task-0.attempt-0: "))
    # Iris appends the task's last stderr line (iris/cluster/worker/task_attempt.py)
    assert 'state=FAILED exit_code=1 error="Exit code: 1. stderr: ValueError: bad shape"' in task_line, fed
    assert any(ln.startswith("job: ") and "state=FAILED" in ln for ln in fed), fed

    _, fed = _health_inputs(killed, monkeypatch, capsys)
    task_line = next(ln for ln in fed if ln.startswith("task-0.attempt-0: "))
    # the local runtime's Popen.returncode: -9, not 137 (iris/cluster/runtime/process.py); 137 and
    # "killed by SIGKILL (possibly OOM ...)" only when Iris itself kills it or a container exits so
    assert 'state=FAILED exit_code=-9 error="Exit code: -9"' in task_line, fed

    out = tmp_path / "pulled"
    pulled = _irisrl(on_iris_cluster.env, "logs", crash, "--local", "--out", str(out), "--json")
    assert pulled.returncode == 0, pulled.stdout + pulled.stderr
    combined = (out / "combined.log").read_text().splitlines()
    at = next(i for i, ln in enumerate(combined) if "ValueError: bad shape" in ln)
    after = [ln for ln in combined[at + 1:] if TAG in ln]
    assert after and after[0].startswith("[0/0] ") and "state=FAILED exit_code=1" in after[0], combined
    assert "state=FAILED" in (out / "job.log").read_text()


def test_health_verdicts_from_the_task_status(ended_jobs, on_iris_cluster, monkeypatch, capsys):
    crash, killed, _ = ended_jobs
    report, _ = _health_inputs(crash, monkeypatch, capsys)
    # KILL on the error the process ended on: named (python_crash) or "crashed: unrecognized error"
    assert report["verdict"] == "KILL" and "ValueError: bad shape" in " ".join(report["reasons"]), report["reasons"]
    # exit_code=-9 (the local runtime's SIGKILL) reads like Kubernetes' 137
    report, _ = _health_inputs(killed, monkeypatch, capsys)
    assert report["verdict"] == "KILL" and (report["cause_of_death"] or {}).get("kind") == "pod_oomkilled"


def test_a_gang_sibling_cancelled_by_iris_did_not_end_badly(ended_jobs, on_iris_cluster, monkeypatch, capsys):
    """Iris cancels the healthy rank of a failed gang: COSCHED_FAILED, exit code 0 or none, error
    "Coscheduled sibling <job>/0 failed": its line must not read as that rank's own death."""
    from irisrl.observe.task_status import parse_status

    *_, gang = ended_jobs
    _, fed = _health_inputs(gang, monkeypatch, capsys)
    by_stream = {ln.split(": ", 1)[0]: parse_status(ln) for ln in fed}
    failed, sibling = by_stream["task-0.attempt-0"], by_stream["task-1.attempt-0"]
    assert failed is not None and failed.ended_badly and failed.error == "Exit code: 1. stderr: RuntimeError: boom"
    # exit code 0 when its process had started and was stopped, none when Iris cancelled it first
    assert sibling is not None and sibling.state == "COSCHED_FAILED" and sibling.exit_code in (0, None), fed
    assert sibling.error == f"Coscheduled sibling {gang}/0 failed" and not sibling.ended_badly
    assert by_stream["job"] is not None and by_stream["job"].state == "FAILED"
