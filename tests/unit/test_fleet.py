"""fleet / cost on recorded jobs (the health fixtures' logs replayed through the in-memory
backend): phases, GPU-hours, verdicts, sorting, filters, incremental refreshes, the JSON shape."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from support.memory_backend import MemoryBackend  # noqa: E402
from support.recorded_jobs import RecordedJob, end_ms, recorded  # noqa: E402

from irisrl.backends.base import JobSummary, LogLine  # noqa: E402
from irisrl.observe.cost import JobClock, Milestones, PriceBook, Price, gpu_hours_by_phase, segments  # noqa: E402
from irisrl.ops.cost import find_job, job_cost  # noqa: E402
from irisrl.ops.fleet import Fleet, FleetQuery, parse_filters, price_book  # noqa: E402
from irisrl.util.errors import IrisrlError, UsageError  # noqa: E402

H = 3600_000


def backend_of(*jobs: RecordedJob) -> MemoryBackend:
    return MemoryBackend(jobs=[j.summary for j in jobs], statuses={j.summary.job_id: j.status for j in jobs},
                         job_logs={j.summary.job_id: j.lines for j in jobs})


@pytest.fixture(scope="module")
def fleet_jobs() -> list[RecordedJob]:
    return [recorded("healthy_training_step12", "/alice/train", "running"),
            recorded("wedge", "/bob/wedge", "running"),
            recorded("norm_topk_prob_crash", "/alice/crash", "failed"),
            recorded("healthy_finished", "/carol/done", "succeeded"),
            recorded("healthy_bringup_15min", "/carol/up", "running")]


def test_phases_sum_to_the_total_and_queued_holds_no_gpus():
    clock = JobClock(submitted_ms=0, started_ms=600_000, end_ms=4 * H, first_rollout_ms=H, dead_ms=3 * H)
    by = gpu_hours_by_phase(clock, gpus=56)
    assert by == pytest.approx({"queued": 0.0, "bring-up": 56 * (H - 600_000) / H, "productive": 112.0, "dead": 56.0})
    assert sum(by.values()) == pytest.approx(56 * (4 * H - 600_000) / H)
    assert [s["phase"] for s in segments(clock)] == ["queued", "bring-up", "productive", "dead"]


def test_a_job_that_never_started_is_only_queued_and_costs_nothing():
    clock = JobClock(submitted_ms=0, started_ms=None, end_ms=H)
    assert gpu_hours_by_phase(clock, 8) == {"queued": 0.0, "bring-up": 0.0, "productive": 0.0, "dead": 0.0}
    assert segments(clock) == [{"phase": "queued", "start_ms": 0, "end_ms": H}]


def test_death_before_the_first_rollout_leaves_no_productive_time():
    clock = JobClock(submitted_ms=0, started_ms=0, end_ms=3 * H, first_rollout_ms=2 * H, dead_ms=H)
    by = gpu_hours_by_phase(clock, 1)
    assert by["bring-up"] == pytest.approx(1.0) and by["productive"] == 0.0 and by["dead"] == pytest.approx(2.0)


def test_the_first_rollout_is_a_generating_engine_not_an_idle_one():
    m = Milestones()
    m.observe("INFO 12-02 10:00:00 Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs", 1)
    assert m.first_rollout_ms is None and m.last_output_ms == 1
    m.observe("INFO 12-02 10:00:10 Avg generation throughput: 812.0 tokens/s, Running: 16 reqs, Waiting: 0 reqs", 2)
    m.observe("WANDB_MIRROR kind=train step=1 metrics={}", 3)
    assert m.first_rollout_ms == 2 and m.last_output_ms == 3


def test_price_is_per_node_hour_over_the_gpus_of_a_node_and_unknown_types_have_none():
    book = PriceBook({"H100": Price(49.24, 8, "test")})
    assert book.price("h100").usd(56.0) == pytest.approx(7 * 49.24)   # 7 nodes x 1 hour
    assert book.price("B200") is None
    assert price_book().price("H100").node_hour_usd == pytest.approx(49.24)


def test_fleet_rows_verdicts_phases_and_trouble_first(fleet_jobs):
    now = max(end_ms(j) for j in fleet_jobs)
    report = Fleet(FleetQuery(), price_book()).refresh([backend_of(*fleet_jobs)], now=now)
    rows = {r["job_id"]: r for r in report["jobs"]}
    assert [r["job_id"] for r in report["jobs"]][:2] == ["/bob/wedge", "/alice/crash"]   # running-dead, then failed
    assert rows["/bob/wedge"]["phase"] == "dead" and rows["/bob/wedge"]["verdict"] == "KILL"
    assert rows["/alice/crash"]["cause"] == "norm_topk_prob" and rows["/alice/crash"]["gpu_hours_by_phase"]["dead"] > 0
    assert rows["/alice/train"]["phase"] == "training" and rows["/alice/train"]["step"] == 12
    assert rows["/alice/train"]["last_reward"] is not None and rows["/alice/train"]["gpu_hours_by_phase"]["dead"] == 0
    assert rows["/carol/up"]["phase"] == "bring-up" and rows["/carol/up"]["gpu_hours_by_phase"]["productive"] == 0
    assert rows["/carol/done"]["phase"] == "finished"
    for r in report["jobs"]:
        assert r["gpus"] == 16 and r["gpu_hours"] == pytest.approx(sum(r["gpu_hours_by_phase"].values()), abs=1e-3)
        assert r["cost_usd"] == pytest.approx(r["gpu_hours"] * 49.24 / 8, abs=0.01)
    totals = report["totals"]
    assert totals["gpu_hours_lost_to_dead_runs"] == pytest.approx(sum(r["gpu_hours_by_phase"]["dead"] for r in rows.values()), abs=1e-3)
    assert totals["gpu_hours_lost_to_dead_runs"] > 0 and totals["jobs"] == 5 and totals["running"] == 3


def test_json_has_the_issue_s_keys(fleet_jobs):
    report = Fleet(FleetQuery(), price_book()).refresh([backend_of(*fleet_jobs)], now=max(end_ms(j) for j in fleet_jobs))
    data = json.loads(json.dumps(report))
    assert set(data) == {"jobs", "totals"}
    need = {"job_id", "user", "state", "nodes", "gpus", "phase", "step", "verdict", "cause", "gpu_hours",
            "gpu_hours_by_phase", "cost_usd", "last_output_age_s"}
    assert all(need <= set(row) for row in data["jobs"])
    assert set(data["jobs"][0]["gpu_hours_by_phase"]) == {"queued", "bring-up", "productive", "dead"}


def test_a_refresh_reads_only_new_lines_and_settled_jobs_cost_no_rpc(fleet_jobs):
    backend = backend_of(*fleet_jobs)
    view = Fleet(FleetQuery(), price_book())
    now = max(end_ms(j) for j in fleet_jobs)
    first = view.refresh([backend], now=now)
    # 1 ListJobs + 1 GetJobStatus and 1 FetchLogs per job the first time
    assert first["totals"]["rpcs"] == 1 + 2 * 5
    fed = {job_id: t.watchdog.total_bytes for (_, job_id), t in view.trackers.items()}
    second = view.refresh([backend], now=now + 60_000)
    assert second["totals"]["rpcs"] == 1 + 3          # the two terminal jobs are settled
    assert {job_id: t.watchdog.total_bytes for (_, job_id), t in view.trackers.items()} == fed   # nothing re-read
    # a new line of a running job arrives: only it is read and fed
    train = next(j for j in fleet_jobs if j.summary.job_id == "/alice/train")
    backend.job_logs["/alice/train"] = train.lines + [LogLine(0, 0, "stdout", "one more line", train.lines[-1].timestamp_ms + 5)]
    view.refresh([backend], now=now + 120_000)
    grown = view.trackers[("memory://", "/alice/train")].watchdog.total_bytes - fed["/alice/train"]
    assert 0 < grown < 40


def test_user_hours_and_filters(fleet_jobs):
    backend = backend_of(*fleet_jobs)
    now = max(end_ms(j) for j in fleet_jobs)
    mine = Fleet(FleetQuery(user="alice"), price_book()).refresh([backend], now=now)
    assert {r["user"] for r in mine["jobs"]} == {"alice"}
    dead = Fleet(FleetQuery(filters=parse_filters(["phase=dead", "job=wedge|crash"])), price_book()).refresh([backend], now=now)
    assert {r["job_id"] for r in dead["jobs"]} == {"/bob/wedge", "/alice/crash"}
    later = Fleet(FleetQuery(hours=1), price_book()).refresh([backend], now=now + 48 * H)
    assert {r["state"] for r in later["jobs"]} == {"running"}   # ended more than 1 h ago: gone
    with pytest.raises(UsageError, match="unknown key"):
        FleetQuery(filters=(("colour", "red"),))
    with pytest.raises(UsageError, match="KEY=REGEX"):
        parse_filters(["phase"])


def test_cost_of_one_job_and_bare_name_resolution(fleet_jobs, monkeypatch):
    backend = backend_of(*fleet_jobs)
    monkeypatch.setenv("IRISRL_USER", "zed")
    report = job_cost(backend, "done", price_book(), now=max(end_ms(j) for j in fleet_jobs))
    assert report["job_id"] == "/carol/done" and report["gpu_hours_by_phase"]["bring-up"] > 0
    assert report["gpu_hours"] == pytest.approx(sum(report["gpu_hours_by_phase"].values()), abs=1e-3)
    assert report["seconds_by_phase"]["queued"] == pytest.approx(120.0) and report["node_hour_usd"] == 49.24
    with pytest.raises(IrisrlError, match="no job"):
        find_job(backend, "/carol/nope")
    twice = MemoryBackend(jobs=[JobSummary("/a/x", "running"), JobSummary("/b/x", "running")])
    with pytest.raises(UsageError, match="names 2 jobs"):
        find_job(twice, "x")


def test_unknown_gpu_type_shows_gpu_hours_only(fleet_jobs):
    job = recorded("healthy_finished", "/carol/b200", "succeeded", variant="B200")
    report = job_cost(backend_of(job), "/carol/b200", price_book(), now=end_ms(job))
    assert report["cost_usd"] is None and report["gpu_hours"] > 0 and report["node_hour_usd"] is None


def test_plots_are_written(fleet_jobs, tmp_path):
    from irisrl.observe.plots import plot_cost, plot_fleet

    backend = backend_of(*fleet_jobs)
    now = max(end_ms(j) for j in fleet_jobs)
    fleet_png = plot_fleet(Fleet(FleetQuery(), price_book()).refresh([backend], now=now), tmp_path / "fleet")
    cost_png = plot_cost(job_cost(backend, "/alice/crash", price_book(), now=now), tmp_path / "cost.png")
    assert fleet_png.stat().st_size > 5000 and cost_png.stat().st_size > 5000


def test_listjobs_and_getjobstatus_protos_become_summaries_with_times_and_gpus():
    from iris.rpc import job_pb2

    from irisrl.backends.iris_client import snapshot_from_status, summary_from_status

    status = job_pb2.JobStatus(job_id="/alice/r1", state=job_pb2.JOB_STATE_RUNNING, task_count=7)
    status.submitted_at.epoch_ms = 1000
    status.started_at.epoch_ms = 61000
    row = summary_from_status(status)
    assert (row.user, row.state, row.task_count, row.submitted_ms, row.started_ms, row.finished_ms) == \
        ("alice", "running", 7, 1000, 61000, None)
    assert row.gpus_per_task == 0   # ListJobs rows carry no resources
    status.resources.device.gpu.variant, status.resources.device.gpu.count = "H100", 8
    snap = snapshot_from_status("/alice/r1", status, [])
    assert (snap.gpus_per_task, snap.gpu_variant) == (8, "H100")
    assert "gpus_per_task" not in snap.to_dict()   # `status --json` keeps its shape


@pytest.mark.parametrize("args, message", [
    (["fleet", "--all-users", "--user", "bob"], "mutually exclusive"),
    (["fleet", "--filter", "colour=red", "--controller-url", "http://127.0.0.1:9"], "unknown key"),
    (["fleet", "--filter", "phase", "--controller-url", "http://127.0.0.1:9"], "KEY=REGEX"),
    (["fleet", "--watch", "--json"], "--watch"),
    (["cost", "a/b/c", "--controller-url", "http://127.0.0.1:9"], "neither"),
])
def test_cli_usage_errors_exit_64_without_a_traceback(args, message, capsys):
    from irisrl.cli.main import main

    with pytest.raises(SystemExit) as done:
        main(args)
    err = capsys.readouterr().err
    assert done.value.code == 64 and message in err and "Traceback" not in err


def test_state_files_let_the_next_fleet_process_read_only_new_lines(fleet_jobs, tmp_path):
    backend = backend_of(*fleet_jobs)
    now = max(end_ms(j) for j in fleet_jobs)
    first = Fleet(FleetQuery(), price_book(), state_dir=tmp_path).refresh([backend], now=now)
    later = Fleet(FleetQuery(), price_book(), state_dir=tmp_path)      # a new `irisrl fleet` process
    again = later.refresh([backend], now=now)
    assert again["totals"]["rpcs"] == 1 + 3          # ListJobs + one FetchLogs per running job, nothing else
    assert all(t.watchdog.total_bytes == 0 for t in later.trackers.values())   # nothing re-read
    strip = ("last_output_age_s", "age_s")
    assert [{k: v for k, v in r.items() if k not in strip} for r in again["jobs"]] == \
        [{k: v for k, v in r.items() if k not in strip} for r in first["jobs"]]
    (next(tmp_path.iterdir()) / "tracker.json").write_text("{not json")     # a damaged file: read afresh
    assert Fleet(FleetQuery(), price_book(), state_dir=tmp_path).refresh([backend], now=now)["jobs"] == first["jobs"]


def test_an_unreadable_cluster_or_job_is_a_problem_not_a_crash(fleet_jobs):
    from irisrl.util.errors import UndeterminedError

    class Down(MemoryBackend):
        def list_jobs(self, prefix=None, running_only=False):  # type: ignore[no-untyped-def]
            raise UndeterminedError("could not talk to the Iris controller at memory://down")

    class FlakyLogs(MemoryBackend):
        def read_lines(self, job_id, *a, **k):  # type: ignore[no-untyped-def]
            if job_id == "/alice/train":
                raise UndeterminedError("FetchLogs timed out")
            return super().read_lines(job_id, *a, **k)

    good = backend_of(*fleet_jobs)
    flaky = FlakyLogs(jobs=good.jobs, statuses=good.statuses, job_logs=good.job_logs, where="memory://flaky")
    down = Down(where="memory://down")
    now = max(end_ms(j) for j in fleet_jobs)
    report = Fleet(FleetQuery(), price_book()).refresh([flaky, down], now=now)
    assert len(report["jobs"]) == 5 and report["totals"]["problems"] == [
        "memory://down: could not talk to the Iris controller at memory://down", "/alice/train: FetchLogs timed out"]
    with pytest.raises(UndeterminedError):
        Fleet(FleetQuery(), price_book()).refresh([down], now=now)
    assert Fleet(FleetQuery(), price_book()).refresh([down], now=now, strict=False)["jobs"] == []


def test_watch_loop_refreshes_on_its_interval_and_survives_a_cluster_outage(fleet_jobs):
    from irisrl.cli.fleet_cmds import fleet_table
    from irisrl.ops.fleet import refresh_loop
    from irisrl.util.errors import UndeterminedError

    class Outage(MemoryBackend):
        down = False

        def list_jobs(self, prefix=None, running_only=False):  # type: ignore[no-untyped-def]
            if self.down:
                raise UndeterminedError("controller unreachable")
            return super().list_jobs(prefix, running_only)

    good = backend_of(*fleet_jobs)
    backend = Outage(jobs=good.jobs, statuses=good.statuses, job_logs=good.job_logs)
    slept: list[float] = []
    loop = refresh_loop(Fleet(FleetQuery(hours=1e6), price_book()), [backend], 30.0, refreshes=3, sleep=slept.append)
    first = next(loop)
    backend.down = True
    second = next(loop)
    assert len(first["jobs"]) == 5 and second["jobs"] == [] and second["totals"]["problems"] == [
        "memory://: controller unreachable"]
    backend.down = False
    assert len(next(loop)["jobs"]) == 5 and slept == [30.0, 30.0]
    from rich.console import Console

    console = Console(record=True, width=220)
    console.print(fleet_table(first))
    text = console.export_text()
    assert "GPU-hours lost to dead runs" in text and "wedge" in text and "KILL: norm_topk_prob" in text


def test_a_cause_s_log_time_maps_onto_iris_time_by_the_newest_line():
    from irisrl.observe.cost import log_time_to_ms

    log_end = 1796205900.0                       # 2026-12-02T10:05:00Z on the log's clock
    shipped = int(log_end * 1000) + 30_000       # Iris stamped that line 30 s later
    assert log_time_to_ms("2026-12-02T10:00:00Z", log_end, shipped) == 1796205600_000 + 30_000
    assert log_time_to_ms(None, log_end, shipped) is None and log_time_to_ms("garbage", log_end, shipped) is None


def test_a_running_job_gone_silent_turns_dead_from_its_last_output():
    job = recorded("healthy_training_step12", "/alice/quiet", "running")
    backend = backend_of(job)
    view = Fleet(FleetQuery(hours=1e6), price_book())
    early = view.refresh([backend], now=end_ms(job))["jobs"][0]
    late = view.refresh([backend], now=end_ms(job) + 2 * H)["jobs"][0]
    assert early["verdict"] == "NO-KILL" and early["gpu_hours_by_phase"]["dead"] == 0
    assert late["verdict"] == "KILL" and late["phase"] == "dead" and late["cause"].startswith("rung 9")
    last_output = job.lines[-1].timestamp_ms
    assert late["gpu_hours_by_phase"]["dead"] == pytest.approx(16 * (end_ms(job) + 2 * H - last_output) / H, abs=1e-3)
