"""The safety net (observe/unrecognized.py): no error line is dropped, one signature per error
whatever its numbers, a process that ENDED on an unrecognized error is a KILL, one the run went
past (or a log that simply stops) a warning; Iris's task status lines (observe/task_status.py)
and kubectl lines are evidence like any other; benign look-alikes are never a KILL."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from irisrl.cli.main import cli
from irisrl.observe.analyzer import Analyzer
from irisrl.observe.task_status import TaskStatus

T = "2026-12-03 16:{:02d}:{:02d}.000 | {} | skyrl_train.trainer:train:212 - {}"
STEP = "2026-12-03 16:00:30.000 | INFO     | skyrl_train.trainer:train:300 - Step 3: {'loss': 0.1}"
ODD = "ERROR 12-03 16:01:00 [worker.py:88] rollout worker 7 lost its lease 0x7f3a2c10 on 10.0.0.17:4321"


def _analyzer(files: dict[str, list[str]]) -> Analyzer:
    analyzer = Analyzer({"num_nodes": max(1, len(files))})
    for source, lines in files.items():
        analyzer.feed(source, "".join(line + "\n" for line in lines).encode())
    return analyzer


def _report(files: dict[str, list[str]]) -> dict:
    return _analyzer(files).verdict().to_dict()


def test_net_one_error_on_48_engines_is_one_entry_with_its_count() -> None:
    lines = [f"ERROR 12-03 16:01:{i % 60:02d} [worker.py:88] rollout worker {i} lost its lease 0x{i:x}a2c10 on "
             f"10.0.{i}.17:43{i:02d}" for i in range(48)]
    report = _report({"task-0.attempt-0.log": lines})
    [entry] = report["unrecognized"]
    assert entry["count"] == 48 and entry["first"]["rank"] == "0" and "worker 0 " in entry["first"]["line"]
    assert entry["first"]["time"] == "2026-12-03T16:01:00Z" and entry["status"] == "warning"
    assert report["verdict"] == "NO-KILL"


def test_net_a_log_that_simply_stops_after_an_error_is_a_warning_not_a_kill() -> None:
    report = _report({"task-0.attempt-0.log": [STEP, ODD]})
    assert report["verdict"] == "NO-KILL" and report["unrecognized"][0]["status"] == "warning"
    assert any("not fatal" not in r for r in report["reasons"])


def test_net_a_process_that_ended_on_an_unrecognized_error_is_a_kill() -> None:
    report = _report({"task-0.attempt-0.log": [STEP, ODD, "[irisrl] trainer exited with code 1"]})
    assert report["verdict"] == "KILL" and report["phase"] == "crashed"
    assert report["reasons"][0].startswith("crashed: unrecognized error: ") and "lost its lease" in report["reasons"][0]


def test_net_the_end_must_be_on_the_same_rank() -> None:
    report = _report({"task-0.attempt-0.log": [STEP, ODD],
                      "task-1.attempt-0.log": [STEP, "Segmentation fault (core dumped)"]})
    assert report["unrecognized"][0]["status"] == "warning"
    assert report["cause_of_death"]["kind"] == "python_crash" and report["cause_of_death"]["rank"] == "1"


def test_net_failed_task_status_ends_the_process() -> None:
    status = TaskStatus(0, 0, "FAILED", 1, "", "", 1796313700.0).to_line()
    report = _report({"combined.log": [f"[0/0] {STEP}", f"[0/0] {ODD}", status]})
    assert report["verdict"] == "KILL" and "lost its lease" in report["reasons"][0]


def test_net_status_lines_are_classified_and_success_is_benign() -> None:
    def kind(status: TaskStatus) -> str | None:
        report = _report({"combined.log": [f"[0/0] {STEP}", status.to_line()]})
        death = report["cause_of_death"]
        return death["kind"] if death else (report["verdict"] if report["verdict"] == "KILL" else None)

    assert kind(TaskStatus(0, 0, "FAILED", 137, "OOMKilled")) == "pod_oomkilled"
    assert kind(TaskStatus(0, 0, "PENDING", None, "", "ImagePullBackOff: Back-off pulling image")) == "image_pull"
    assert kind(TaskStatus(0, 0, "FAILED", None, "ErrImagePull: manifest unknown")) == "image_pull"
    assert kind(TaskStatus(0, 0, "PREEMPTED", None, "")) == "evicted"
    assert kind(TaskStatus(0, 0, "FAILED", None, "The node was low on resource: memory.")) == "evicted"
    assert kind(TaskStatus(0, 0, "SUCCEEDED", 0, "")) is None
    assert kind(TaskStatus(0, 0, "RUNNING", None, "")) is None
    # a failed task with no named error: the safety net's entry, as the catch-all's cause of death
    assert kind(TaskStatus(0, 0, "FAILED", 2, "")) == "python_crash"


def test_net_an_exception_is_python_crash_fatal_only_once_its_process_ended() -> None:
    crash = "ValueError: advantages has shape (4, 8), expected (4, 16)"
    alone = _report({"task-2.attempt-0.log": [STEP, crash]})
    assert alone["verdict"] == "NO-KILL" and alone["causes"][0]["kind"] == "python_crash"
    assert alone["causes"][0]["status"] == "warning"
    ended = _report({"task-2.attempt-0.log": [STEP, crash, "[irisrl] trainer exited with code 1"]})
    assert ended["verdict"] == "KILL" and ended["cause_of_death"]["kind"] == "python_crash"


def test_net_benign_lookalikes_are_never_a_kill() -> None:
    gloo = ("RuntimeError: [../third_party/gloo/gloo/transport/tcp/pair.cc:534] Connection closed by peer "
            "[10.0.0.2]:25123")
    finished = "2026-12-03 16:00:40.000 | INFO     | skyrl_train.trainer:train:400 - Training complete"
    teardown = _report({"task-0.attempt-0.log": [STEP, finished, gloo]})
    assert teardown["verdict"] == "NO-KILL"
    fallback = _report({"task-0.attempt-0.log": [
        "huggingface_hub.errors.EntryNotFoundError: 404 Client Error. (Request ID: Root=1-6) Entry Not Found for url: "
        "https://huggingface.co/org/m/resolve/main/model.safetensors.",
        "2026-12-03 16:00:05.000 | INFO     | skyrl_train.workers:load:10 - loading weights from pytorch_model.bin", STEP]})
    assert fallback["verdict"] == "NO-KILL"
    noise = _report({"task-0.attempt-0.log": [
        "host:1:2 [0] misc/ibvwrap.cc:108 NCCL WARN NET/IB : No device found.",
        "host:1:2 [0] NCCL INFO NET/Plugin: Could not find: libnccl-net.so.", STEP]})
    assert noise["verdict"] == "NO-KILL" and not noise["causes"] and not noise["unrecognized"]


def test_net_state_survives_save_and_load_with_secrets_masked(tmp_path: Path) -> None:
    token = "hf_" + "Zz9Yy8Xx7Ww6Vv5U"
    analyzer = _analyzer({"task-0.attempt-0.log": [STEP, f"ERROR 12-03 16:01:00 [x.py:1] login failed token={token}",
                                                    "Traceback (most recent call last):"]})
    state = tmp_path / "s.json"
    analyzer.save(state)
    assert token not in state.read_text()
    loaded = Analyzer.load(state, {"num_nodes": 1})
    loaded.feed("task-0.attempt-0.log", b"[irisrl] trainer exited with code 1\n")
    report = loaded.verdict().to_dict()
    assert report["verdict"] == "KILL" and token not in json.dumps(report)
    assert [u["count"] for u in report["unrecognized"]] == [1, 1]   # the open traceback is kept too


def test_net_health_cli_json_and_text_show_the_entries(tmp_path: Path) -> None:
    log = tmp_path / "one.log"
    log.write_text(ODD + "\n")
    out = CliRunner().invoke(cli, ["health", "--log", str(log), "--json"])
    report = json.loads(out.output)
    assert out.exit_code == 0 and report["verdict"] == "NO-KILL"
    [entry] = report["unrecognized"]
    assert set(entry) >= {"signature", "count", "first"} and set(entry["first"]) == {"line", "rank", "time"}
    assert "<ip>" in entry["signature"] and "<addr>" in entry["signature"]
    text = CliRunner().invoke(cli, ["health", "--log", str(log)])
    assert "error lines no cause names" in text.output and "lost its lease" in text.output


def test_net_a_process_ends_on_its_last_error_and_a_named_cause_beats_the_catch_all() -> None:
    early = "ValueError: tool call returned invalid JSON"        # an agent error the run went past
    last = "KeyError: 'advantages'"
    exit_line = "[irisrl] trainer exited with code 1"
    report = _report({"task-0.attempt-0.log": [early, STEP, last, exit_line]})
    assert report["cause_of_death"]["kind"] == "python_crash" and report["cause_of_death"]["line"] == last
    named = _report({"task-0.attempt-0.log": [early, STEP, "RuntimeError: CUDA error: an illegal memory access was "
                                                           "encountered", exit_line]})
    assert named["cause_of_death"]["kind"] == "cuda_error"
    odd_early = "ERROR 12-03 16:00:10 [x.py:1] sandbox pool degraded"
    unnamed = _report({"task-0.attempt-0.log": [odd_early, STEP, ODD, exit_line]})
    assert unnamed["verdict"] == "KILL" and "lost its lease" in unnamed["reasons"][0]
