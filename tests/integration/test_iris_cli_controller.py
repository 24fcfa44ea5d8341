"""`launch --controller-url` against a controller started as a separate process by the real
`iris` CLI (`iris --config local.yaml cluster start --local`), with the client-age lift
injected through irisrl's sitecustomize shim; then the same CLI checks our submission."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from iris_plans import trivial_plan  # noqa: E402

from irisrl.backends import local_cluster  # noqa: E402
from irisrl.ops import LaunchSettings, Target, launch  # noqa: E402

pytestmark = pytest.mark.slow
IRIS = str(Path(sys.executable).parent / "iris")


def test_client_age_shim_widens_the_window_in_a_fresh_process(tmp_path):
    shim = local_cluster.write_client_age_shim(tmp_path / "shim")
    env = {**os.environ, "PYTHONPATH": str(shim.parent)}
    code = "import iris.cluster.controller.service as s; print(s.FRESHNESS_WINDOW.days)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr  # the shim raises if the attribute moved
    assert out.stdout.strip() == str(local_cluster.CLIENT_AGE_WINDOW.days)


@pytest.fixture(scope="module")
def cli_controller(tmp_path_factory):
    root = tmp_path_factory.mktemp("iris-cli")
    (root / "home").mkdir()
    config = root / "local.yaml"
    config.write_text(local_cluster.local_cluster_yaml(2))
    shim = local_cluster.write_client_age_shim(root / "shim")
    env = local_cluster.scrubbed_env({"HOME": str(root / "home"), "PYTHONPATH": str(shim.parent)})
    log = open(root / "iris-cli.log", "wb")
    proc = subprocess.Popen([IRIS, "--config", str(config), "cluster", "start", "--local"], cwd=root, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = _await_url(root / "home" / ".iris" / "tokens.sqlite", proc, deadline_s=90)
        yield SimpleNamespace(url=url, env=env, root=root)
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=10)
        log.close()


def _await_url(store: Path, proc: subprocess.Popen, deadline_s: float) -> str:
    """The CLI's LocalCluster records its URL in the token store under $HOME/.iris (SDK API)."""
    from iris.cluster.token_store import load_token

    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        assert proc.poll() is None, "iris cluster start --local exited early"
        if store.exists():
            cred = load_token("irisrl-local", store_path=store)
            if cred and local_cluster.is_listening(cred.url):
                return cred.url
        time.sleep(0.2)
    raise AssertionError(f"iris CLI controller did not come up within {deadline_s}s")


def test_launch_controller_url_is_seen_by_the_iris_cli(cli_controller, tmp_path, capsys, ops_on_terminal):
    (tmp_path / "f.txt").write_text("x")
    plan = trivial_plan("cli-gang", ["bash", "-c", "echo hi from $IRIS_TASK_ID"], tmp_path, nodes=2,
                        priority="batch", max_retries=1, mode="remote")
    assert launch(plan, LaunchSettings(Target(controller_url=cli_controller.url), interval=0.5)).exit_code == 0
    assert "[rank 1] hi from /tester/cli-gang/1" in capsys.readouterr().out

    # Two outside CLI reads, run side by side (each `iris` start costs seconds here).
    summary_cmd = ["job", "summary", "/tester/cli-gang", "--json"]
    query_cmd = ["query", "SELECT job_id, priority_band, coscheduling_group_by, max_retries_failure FROM job_config",
                 "-f", "json"]
    procs = [subprocess.Popen([IRIS, "--controller-url", cli_controller.url, *args], env=cli_controller.env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for args in (summary_cmd, query_cmd)]
    outs = [p.communicate(timeout=90) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1][-2000:] for o in outs]
    summary, rows = (json.loads(o[0]) for o in outs)

    assert summary["state"] == "succeeded" and summary["task_count"] == 2  # replicas
    assert len({t["worker_id"] for t in summary["tasks"]}) == 2
    ours = [r for r in rows if r["job_id"] == "/tester/cli-gang"]  # filtered here: no job id in SQL text
    assert ours and ours[0]["priority_band"] == 3 and ours[0]["coscheduling_group_by"] == "leafgroup"
    assert ours[0]["max_retries_failure"] == 1
