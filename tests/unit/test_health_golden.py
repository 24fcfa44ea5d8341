"""Golden verdicts: each fixture (one failure mode or healthy phase) against expected.json.
Regenerate with tests/fixtures/logs/make_fixtures.py --golden and review the diff."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from irisrl.cli.main import main
from irisrl.observe.analyzer import analyze_files

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
SCENARIOS = sorted(p.name for p in FIXTURES.iterdir() if (p / "expected.json").exists())
EXPECTED_VERDICT = {
    "healthy_bringup_15min": ("NO-KILL", "bring-up"), "healthy_serving_0_trials": ("NO-KILL", "serving"),
    "healthy_training_step12": ("NO-KILL", "training"), "healthy_finished": ("NO-KILL", "finished"),
    "wedge": ("KILL", "serving"), "starved_ranks": ("KILL", "serving"), "vllm_never_serving": ("KILL", "serving"),
    "stale_image_crash_no_retry": ("KILL", "crashed"), "stale_image_with_retry": ("NO-KILL", "serving"),
    "norm_topk_prob_crash": ("KILL", "crashed"), "dcp_guard_rejected": ("KILL", "crashed"),
    "moe_dcp_healthy": ("NO-KILL", "serving"), "skyrl_ref_missing": ("NO-KILL", "serving"),
    "rehearsal_passed": ("NO-KILL", "finished"),
    "stale_image_combined_by_task": ("KILL", "crashed"), "step_stall_after_step1": ("KILL", "training"),
    "engines_silent_queued": ("KILL", "serving"), "weight_sync_hang": ("KILL", "training"),
    "container_prefixes_serving": ("NO-KILL", "serving"), "ray_dedup_engines": ("NO-KILL", "serving"),
}


def _logs(name: str) -> list[Path]:
    return sorted((FIXTURES / name).glob("*.log*"))


def _plan(name: str) -> dict:
    return json.loads((FIXTURES / name / "plan.json").read_text())


def test_golden_fixture_set_covers_every_mode() -> None:
    assert set(SCENARIOS) == set(EXPECTED_VERDICT)


@pytest.mark.parametrize("name", SCENARIOS)
def test_health_fixture_matches_golden_verdict(name: str) -> None:
    report = analyze_files(_logs(name), _plan(name))
    assert report.to_dict() == json.loads((FIXTURES / name / "expected.json").read_text())
    assert (report.verdict, report.phase) == EXPECTED_VERDICT[name]


@pytest.mark.parametrize("name", ["healthy_serving_0_trials", "moe_dcp_healthy", "skyrl_ref_missing"])
def test_health_zero_trials_never_called_healthy_or_done(name: str) -> None:
    report = analyze_files(_logs(name), _plan(name))
    assert "rollouts executing, 0 trials completed yet" in report.reasons
    assert not any("healthy" in r or "done" in r for r in report.reasons)


def test_health_failed_rungs_name_the_evidence() -> None:
    starved = analyze_files(_logs("starved_ranks"), _plan("starved_ranks"))
    assert "missing rank(s) 3, 5" in starved.rungs[1].evidence
    dcp = analyze_files(_logs("dcp_guard_rejected"), _plan("dcp_guard_rejected"))
    assert dcp.rungs[5].status == "fail" and "VLLM_ALLOW_ROUTED_EXPERTS_DCP=1" in dcp.rungs[5].evidence


def test_health_rung1_fails_without_checkout_but_verdict_follows_the_kill_rule() -> None:
    report = analyze_files(_logs("skyrl_ref_missing"), _plan("skyrl_ref_missing"))
    assert report.rungs[0].status == "fail" and report.verdict == "NO-KILL"
    assert any("rung 1" in r for r in report.reasons)


def _run(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out = capsys.readouterr()
    return int(exc.value.code or 0), out.out, out.err


@pytest.mark.parametrize("name,rc", [("wedge", 1), ("healthy_training_step12", 0), ("starved_ranks", 1)])
def test_health_cli_json_and_exit_code(name: str, rc: int, capsys: pytest.CaptureFixture) -> None:
    argv = ["health", "--plan", str(FIXTURES / name / "plan.json"), "--json"]
    for log in _logs(name):
        argv += ["--log", str(log)]
    code, out, _ = _run(argv, capsys)
    assert code == rc
    assert json.loads(out) == json.loads((FIXTURES / name / "expected.json").read_text())


def test_health_cli_text_ends_with_verdict_and_reasons(capsys: pytest.CaptureFixture) -> None:
    code, out, _ = _run(["health", "--log", str(_logs("wedge")[0])], capsys)
    assert code == 1
    tail = out[out.index("verdict: KILL"):]
    assert "throughput-starvation wedge" in tail and "rung 5" in tail


def test_health_cli_usage_and_unreadable_input(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert _run(["health"], capsys)[0] == 64
    assert _run(["health", "job", "--log", str(_logs("wedge")[0])], capsys)[0] == 64
    code, _, err = _run(["health", "--log", str(tmp_path / "missing.log")], capsys)
    assert code == 3 and "no such file" in err and "Traceback" not in err
    bad = tmp_path / "plan.json"
    bad.write_text("{not json")
    code, _, err = _run(["health", "--log", str(_logs("wedge")[0]), "--plan", str(bad)], capsys)
    assert code == 3 and "not JSON" in err
    gz = tmp_path / "bad.log.gz"
    gz.write_bytes(b"\x1f\x8b\x08garbage")
    assert _run(["health", "--log", str(gz)], capsys)[0] == 3


def test_health_cli_counts_trials_from_trials_dir(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    for i in range(3):
        (tmp_path / f"trial-{i}").mkdir()
        (tmp_path / f"trial-{i}" / "result.json").write_text("{}")
    (tmp_path / "trial-9").mkdir()  # still running: no result.json
    name = "healthy_serving_0_trials"
    argv = ["health", "--plan", str(FIXTURES / name / "plan.json"), "--json", "--trials-dir", str(tmp_path)]
    for log in _logs(name):
        argv += ["--log", str(log)]
    code, out, _ = _run(argv, capsys)
    data = json.loads(out)
    assert code == 0 and data["trials_completed"] == 3 and data["rungs"][7]["status"] == "pass"


def test_health_text_shows_log_brackets_literally(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    log = tmp_path / "r.log"
    log.write_text("2026-12-02 10:00:00.000 | ERROR | m:f:1 - Training failed: [bold]boom[/bold] in [rank 3]\n")
    code, out, _ = _run(["health", "--log", str(log)], capsys)
    assert code == 1 and "[bold]boom[/bold] in [rank 3]" in out.replace("\n", "")


def test_health_counts_trials_in_s3_on_loopback(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    server = _s3("trials")
    try:
        s3 = server.client()
        for i in range(2):
            s3.put_object(Bucket="trials", Key=f"job/trace_jobs/t{i}/result.json", Body=b"{}")
        s3.put_object(Bucket="trials", Key="job/trace_jobs/t9/agent.log", Body=b"running")
        for key, value in server.env().items():
            monkeypatch.setenv(key, value)
        name = "healthy_training_step12"
        code, out, _ = _run(["health", "--log", str(_logs(name)[0]), "--json", "--trials-dir",
                             "s3://trials/job/trace_jobs"], capsys)
        assert code == 0 and json.loads(out)["trials_completed"] == 2
    finally:
        server.stop()


def _s3(bucket: str):  # noqa: ANN202 - tests/support is not on the type-checked path
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from support.s3_server import S3Server

    return S3Server(bucket)
