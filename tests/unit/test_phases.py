"""observe/phases.py: phase timings from launcher marks, state transitions and runtime lines."""

from __future__ import annotations

from irisrl.observe.phases import (COLLECTED, COMMAND_DONE, ENDED, ENTERED, RAY_FORMED, RUNNING, STARTED,
                                   SUBMITTED, VALIDATED, PhaseClock)

MAP = ('[irisrl] PLACEMENT_MAP {"ok": true, "nodes": [{"node": "rank0", "gpus_total": 8.0, "gpus_used": 8.0, '
       '"groups": [{"name": "colocated", "role": "colocated", "gpus": 8.0}]}], "groups": []}')


def _happy(clock: PhaseClock) -> PhaseClock:
    clock.mark(ENTERED, 100.0)
    clock.mark(VALIDATED, 101.0)
    clock.mark(SUBMITTED, 102.5)
    clock.observe_state("pending", {"pending": 2}, 103.0)
    clock.observe_line("[irisrl] Runtime controller rank 0/2 on 127.0.0.1 (task /u/j/0)", 104.0)
    clock.observe_line("[irisrl] Runtime controller rank 1/2 on 127.0.0.1 (task /u/j/1)", 104.2)
    clock.observe_state("running", {"running": 2}, 105.0)   # seen at poll time, after the lines
    clock.observe_line("[irisrl] Ray nodes alive: 1/2", 110.0)
    clock.observe_line("[irisrl] Ray nodes alive: 2/2", 115.0)
    clock.observe_line(MAP, 116.0)
    clock.observe_line("[irisrl] Command exited with code 0", 116.1)
    clock.observe_line("[irisrl] Ray nodes alive: 1/2", 118.0)   # teardown: not a second formation
    clock.observe_state("succeeded", {"succeeded": 2}, 120.0)
    clock.mark(COLLECTED, 121.0)
    return clock


def test_phases_happy_path_durations_in_order() -> None:
    clock = _happy(PhaseClock(num_tasks=2))
    got = [(p.name, round(p.seconds or 0, 6)) for p in clock.phases()]
    assert got == [("validate", 1.0), ("submit", 1.5), ("submit -> running", 1.7),
                   ("running -> Ray N/N", 10.8), ("rehearsal", 1.0), ("job end", 4.0), ("logs + health", 1.0)]
    assert clock.total() == 21.0
    assert clock.placement and clock.placement["nodes"][0]["node"] == "rank0"
    assert clock.command_exit == 0 and clock.marks[RAY_FORMED] == 115.0


def test_running_is_the_last_rank_start_when_earlier_than_the_poll() -> None:
    clock = _happy(PhaseClock(num_tasks=2))
    assert clock.marks[RUNNING] == 104.2


def test_running_from_state_when_no_controller_line_arrives() -> None:
    clock = PhaseClock(num_tasks=2)
    clock.observe_line("[irisrl] Runtime controller rank 0/2 on h (task t)", 4.0)   # rank 1 never starts
    clock.observe_state("running", {"running": 2}, 6.0)
    assert clock.marks[RUNNING] == 6.0


def test_process_start_counts_into_validate_and_total() -> None:
    clock = _happy(PhaseClock(num_tasks=2))
    clock.mark(STARTED, 99.5)
    assert clock.phases()[0].seconds == 1.5 and clock.total() == 21.5


def test_local_cluster_phase_only_when_a_cluster_was_started() -> None:
    clock = _happy(PhaseClock(num_tasks=2))
    assert "local cluster" not in [p.name for p in clock.phases()]
    clock.mark("cluster_up", 102.0)
    names = {p.name: p.seconds for p in clock.phases()}
    assert names["local cluster"] == 1.0 and names["submit"] == 0.5


def test_failed_placement_is_kept_and_ends_the_rehearsal_phase() -> None:
    clock = PhaseClock(num_tasks=2)
    for name, t in ((ENTERED, 0.0), (VALIDATED, 1.0), (SUBMITTED, 2.0), (RUNNING, 3.0)):
        clock.mark(name, t)
    clock.observe_line("[irisrl] Ray nodes alive: 2/2", 9.0)
    clock.observe_line('[irisrl] PLACEMENT_FAILED policy: 1 bundles (8 GPUs, PACK, role policy) not placed '
                       'within 5 s; free GPUs per node: {"rank0": 4.0, "rank1": 4.0}', 15.0)
    clock.observe_line("[irisrl] ERROR rank 0: something else", 15.5)
    clock.observe_line("[irisrl] Command exited with code 1", 16.0)
    clock.observe_state("failed", {"failed": 1, "succeeded": 1}, 20.0)
    assert clock.placement is None and clock.placement_failed.startswith("PLACEMENT_FAILED policy:")
    assert '"rank0": 4.0' in clock.placement_failed
    assert clock.marks[COMMAND_DONE] == 15.0 and clock.marks[ENDED] == 20.0
    assert clock.command_exit == 1 and clock.errors == ["ERROR rank 0: something else"]
    assert clock.to_dict()["placement_ok"] is False


def test_open_phase_is_reported_not_reached_and_later_ones_omitted() -> None:
    clock = PhaseClock(num_tasks=4)
    clock.mark(ENTERED, 0.0)
    clock.mark(VALIDATED, 1.0)
    clock.mark(SUBMITTED, 2.0)
    clock.observe_state("pending", {"pending": 4}, 3.0)
    phases = clock.phases()
    assert [p.name for p in phases] == ["validate", "submit", "submit -> running"]
    assert phases[-1].seconds is None and phases[-1].note == "not reached"


def test_waiting_for_names_what_each_phase_waits_on() -> None:
    clock = PhaseClock(num_tasks=2)
    assert "submitting" in clock.waiting_for()
    clock.mark(SUBMITTED, 1.0)
    clock.observe_state("pending", {"pending": 2}, 2.0)
    assert "scheduling 2 task(s)" in clock.waiting_for() and "pending:2" in clock.waiting_for()
    clock.observe_state("running", {"running": 2}, 3.0)
    clock.observe_line("[irisrl] Ray nodes alive: 1/2", 4.0)
    assert "Ray: 1/2 nodes joined" in clock.waiting_for()
    clock.observe_line("[irisrl] Ray nodes alive: 2/2", 5.0)
    assert "rehearsal: running on rank 0" in clock.waiting_for()
    clock.observe_line("[irisrl] Command exited with code 0", 6.0)
    assert "Ray stopping" in clock.waiting_for()
    clock.observe_state("succeeded", {"succeeded": 2}, 7.0)
    assert "pulling the logs" in clock.waiting_for()


def test_trainer_role_labels_the_command_phase_and_garbage_lines_are_ignored() -> None:
    clock = PhaseClock(num_tasks=1, command_label="command")
    clock.mark(ENTERED, 0.0)
    for line in ("no prefix Ray nodes alive: 1/1", "[irisrl] PLACEMENT_MAP {not json",
                 "[irisrl] Ray nodes alive: x/1", ""):
        clock.observe_line(line, 1.0)
    assert clock.alive is None and clock.placement is None
    clock.observe_line("[irisrl] PLACEMENT_MAP [1, 2]", 1.0)    # JSON, but not an object
    assert clock.placement is None
    assert "command: running" not in clock.waiting_for()
    for name, t in ((VALIDATED, 1.0), (SUBMITTED, 2.0), (RUNNING, 3.0), (RAY_FORMED, 4.0), (COMMAND_DONE, 5.0)):
        clock.mark(name, t)
    assert [p.name for p in clock.phases()][4] == "command"


def test_a_missed_mark_is_not_observed_and_its_time_goes_to_the_next_phase() -> None:
    clock = PhaseClock(num_tasks=4)
    for name, t in ((ENTERED, 0.0), (VALIDATED, 1.0), (SUBMITTED, 2.0), (RAY_FORMED, 9.0)):
        clock.mark(name, t)      # RUNNING never seen (no all-running poll, a controller line missed)
    got = [(p.name, p.seconds, p.note) for p in clock.phases()]
    assert got[2] == ("submit -> running", None, "not observed (counted in the next phase)")
    assert got[3] == ("running -> Ray N/N", 7.0, "")
    assert got[4] == ("rehearsal", None, "not reached")
