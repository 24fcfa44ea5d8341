"""ops/checkpoints.py and ops/resume.py on a local checkpoint dir and plan JSONs (the real
store and cluster: tests/integration/test_checkpoints_resume_iris_local.py), and health's
count from SkyRL's synchronous trainer's resume line."""

from __future__ import annotations

from pathlib import Path

import pytest

from irisrl.observe.analyzer import Analyzer
from irisrl.observe.progress import ProgressCollector
from irisrl.ops.checkpoints import ckpt_path_of_plan, execute_prune, list_checkpoints, plan_prune
from irisrl.ops.resume import ResumeSource, check_resumed, split_args
from irisrl.util.errors import IrisrlError, UsageError


def _layout(root: Path, complete: list[int], partial: list[int] = [], marker: str | None = None) -> None:
    for step in [*complete, *partial]:
        d = root / f"global_step_{step}" / "policy"
        d.mkdir(parents=True)
        (d / "model_state.pt").write_bytes(b"w" * 100)
        if step in complete:
            (d.parent / "trainer_state.pt").write_bytes(b"s")
    if marker is not None:
        (root / "latest_ckpt_global_step.txt").write_text(marker)


def _statuses(root: Path) -> dict[int, str]:
    return {c.step: c.status for c in list_checkpoints(str(root)).checkpoints}


def test_statuses_follow_the_marker_and_trainer_state(tmp_path: Path) -> None:
    _layout(tmp_path, complete=[10, 30], partial=[20, 40], marker="30")
    listing = list_checkpoints(str(tmp_path))
    assert _statuses(tmp_path) == {10: "complete", 20: "superseded", 30: "latest", 40: "unfinished"}
    assert listing.latest_complete is not None and listing.latest_complete.step == 30
    assert listing.checkpoints[0].size == 101


@pytest.mark.parametrize("marker, why", [(None, "no latest_ckpt_global_step.txt"), ("x7", "not a step number"),
                                         ("50", "names step 50")])
def test_no_trusted_marker_means_no_latest_and_nothing_pruned(tmp_path: Path, marker: str | None, why: str) -> None:
    _layout(tmp_path, complete=[10, 20], marker=marker)
    listing = list_checkpoints(str(tmp_path))
    assert listing.latest_complete is None and any(why in n for n in listing.notes)
    assert plan_prune(listing, 1).delete == ()


def test_prune_keeps_the_newest_complete_and_never_the_unfinished(tmp_path: Path) -> None:
    _layout(tmp_path, complete=[1, 2, 3], partial=[4], marker="3")
    plan = plan_prune(list_checkpoints(str(tmp_path)), 1)
    assert [c.step for c in plan.delete] == [1, 2] and [c.step for c in plan.kept] == [3]
    assert [c.step for c in plan.reported] == [4]
    assert (tmp_path / "global_step_1").exists()          # a plan deletes nothing
    execute_prune(plan)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["global_step_3", "global_step_4",
                                                          "latest_ckpt_global_step.txt"]
    with pytest.raises(UsageError):
        plan_prune(list_checkpoints(str(tmp_path)), 0)


def test_ckpt_path_is_the_last_assignment_the_trainer_got() -> None:
    plan = {"hydra_args": ["++trainer.ckpt_path='/a/checkpoints'", "++trainer.x=1", "++trainer.ckpt_path=s3://b/c"]}
    assert ckpt_path_of_plan(plan) == "s3://b/c"
    assert ckpt_path_of_plan({"hydra_args": ["++trainer.x=1"]}) is None


BASE = {"num_nodes": 1, "gpus_per_node": 8, "model_path": "/m", "train_data": [], "rendezvous_dir": "/r/a/1",
        "hydra_args": ["++trainer.policy.optimizer_config.lr=1e-06", "++trainer.placement.policy_num_nodes=1",
                       "++generator.inference_engine_tensor_parallel_size=2", "++trainer.run_name=a",
                       "++trainer.ckpt_path=/c", "++trainer.max_steps=4", "++data.train_data=['/a/tasks/x']"]}


def _src() -> ResumeSource:
    from irisrl.ops.checkpoints import Checkpoint

    return ResumeSource("/u/a", BASE, "/c", Checkpoint(2, "/c/global_step_2", "latest", None))


def _resumed(*extra: str, **top: object) -> dict[str, object]:
    args = [a.replace("run_name=a", "run_name=b").replace("/a/tasks", "/b/tasks") for a in BASE["hydra_args"]]  # type: ignore[attr-defined]
    return {**BASE, "rendezvous_dir": "/r/b/2", **top,
            "hydra_args": [*args, *extra, "++trainer.resume_mode=from_path", "++trainer.resume_path=/c/global_step_2"]}


def test_split_args_keeps_layout_apart_from_hparams() -> None:
    layout, hparams = split_args(BASE)
    assert layout == {"num_nodes": "1", "gpus_per_node": "8", "trainer.placement.policy_num_nodes": "1",
                      "generator.inference_engine_tensor_parallel_size": "2"}
    assert set(hparams) == {"model", "train_data", "trainer.policy.optimizer_config.lr"}


def test_a_resume_that_matches_passes_and_may_extend_max_steps() -> None:
    assert check_resumed(_resumed("++trainer.max_steps=8"), _src()) == []
    assert check_resumed(_resumed("++trainer.policy.optimizer_config.lr='1e-6'"), _src()) == []   # same value


def test_changed_hparams_are_refused_with_the_difference() -> None:
    with pytest.raises(IrisrlError, match=r"lr: 1e-06 -> 2e-06"):
        check_resumed(_resumed("++trainer.policy.optimizer_config.lr=2e-06"), _src())
    with pytest.raises(IrisrlError, match=r"model: /m -> /other"):
        check_resumed(_resumed(model_path="/other"), _src())


def test_changed_layout_is_refused_unless_allowed() -> None:
    changed = _resumed("++generator.inference_engine_tensor_parallel_size=4")
    with pytest.raises(IrisrlError, match=r"inference_engine_tensor_parallel_size: 2 -> 4"):
        check_resumed(changed, _src())
    [note] = check_resumed(changed, _src(), allow_layout_change=True)
    assert "2 -> 4" in note


def test_the_original_rendezvous_is_refused() -> None:
    with pytest.raises(IrisrlError, match="its own rendezvous dir"):
        check_resumed(_resumed(rendezvous_dir="/r/a/1/"), _src())


RESUMED_LOG = (
    "2026-12-03 10:00:01.000 | INFO | skyrl_train.trainer:load_checkpoints:1869 - Resuming from global_step: 7\n"
    "2026-12-03 10:00:02.000 | INFO | skyrl_train.utils.utils:__exit__:99 - Finished: 'step', time cost: 1.00s\n"
    "2026-12-03 10:00:03.000 | INFO | skyrl_train.trainer:train:500 - {'policy_loss': 0.5}\n")


def test_health_counts_from_the_synchronous_trainers_resumed_step() -> None:
    analyzer = Analyzer({"num_nodes": 1})
    analyzer.feed("task-0.attempt-0", RESUMED_LOG.encode())
    report = analyzer.verdict()
    assert report.global_step == 8     # step 7 resumed, one step closed: 8, not 1
    assert any("(from 7)" in r.evidence for r in report.rungs)
    progress = ProgressCollector()
    progress.feed("task-0.attempt-0", RESUMED_LOG.encode(), final=True)
    assert [r["step"] for r in progress.rows()] == [8]
