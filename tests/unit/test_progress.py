"""`irisrl progress`: one row per step from WANDB_MIRROR and console `Step N:` lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from irisrl.cli.main import main
from irisrl.observe.progress import ProgressCollector, collect_files, parse_metrics

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
STEP12 = FIXTURES / "healthy_training_step12" / "combined.log.gz"


def _run(argv: list[str], capsys: pytest.CaptureFixture) -> tuple[int, str]:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    return int(exc.value.code or 0), capsys.readouterr().out


def test_progress_rows_have_every_column_per_step() -> None:
    rows = collect_files([str(STEP12)])
    assert [r["step"] for r in rows] == list(range(1, 13))
    first = rows[0]
    assert first["reward"] == pytest.approx(0.12) and first["pass_n"] == 8
    for column in ("pass_at_n", "entropy", "log_ratio", "grad_norm", "policy_loss", "response_len", "step_time"):
        assert isinstance(first[column], float), column


def test_console_dict_repr_with_numpy_scalars_and_nan() -> None:
    c = ProgressCollector()
    c.feed("x", b"2026-12-02 10:00:00.000 | INFO | t:log:1 - Step 3: {'reward/avg_raw_reward': np.float64(0.25), "
                b"'policy/policy_entropy': nan, 'policy/raw_grad_norm': 0.5, 'policy/log_ratio_abs_mean': 1e-3}\n")
    c.feed("x", b"[0] WANDB_MIRROR kind=eval step=4 metrics={\"reward/avg_raw_reward\": 9}\n")
    c.feed("x", b"[0] WANDB_MIRROR kind=train step=3 metrics={\"policy/policy_entropy\": 0.4}")  # partial last line
    c.finish()
    rows = c.rows()
    assert len(rows) == 1
    assert rows[0]["reward"] == 0.25 and rows[0]["entropy"] == 0.4 and rows[0]["grad_norm"] == 0.5


def test_parse_metrics_rejects_non_dicts() -> None:
    assert parse_metrics("[1, 2]") is None and parse_metrics("{oops") is None
    assert parse_metrics("{'a': inf}") == {"a": float("inf")}


def test_progress_cli_json_last_and_table(capsys: pytest.CaptureFixture) -> None:
    code, out = _run(["progress", "--log", str(STEP12), "--json", "--last", "3"], capsys)
    rows = json.loads(out)
    assert code == 0 and [r["step"] for r in rows] == [10, 11, 12]
    code, out = _run(["progress", "--log", str(STEP12), "--last", "2"], capsys)
    assert code == 0 and "pass@8" in out and "grad-norm" in out and "log-ratio" in out and "entropy" in out


def test_progress_cli_plot_writes_png(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out_png = tmp_path / "p" / "curves.png"
    code, _ = _run(["progress", "--log", str(STEP12), "--plot", str(out_png)], capsys)
    assert code == 0 and out_png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out_png.stat().st_size > 10_000


def test_progress_cli_no_steps_and_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    code, out = _run(["progress", "--log", str(FIXTURES / "wedge" / "combined.log")], capsys)
    assert code == 0 and "no training step yet" in out
    assert _run(["progress", "--log", str(tmp_path / "nope.log")], capsys)[0] == 3
    assert _run(["progress"], capsys)[0] == 64
