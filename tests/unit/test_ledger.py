"""The run ledger: masked plans only, parameterised queries, history lookups."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))
from iris_plans import trivial_plan  # noqa: E402

from irisrl.ledger.store import Ledger  # noqa: E402

SECRET = "hf_this-is-a-secret-value-123"


def _plan(tmp_path: Path, name: str = "s1-run", **kw):
    return trivial_plan(name, ["true"], tmp_path, env={"HF_TOKEN": SECRET, "PLAIN": "x"},
                        secret_keys=("HF_TOKEN",), **kw)


def test_ledger_stores_masked_plan_never_secret_values(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite")
    ledger.record_launch(_plan(tmp_path), "http://127.0.0.1:1", "local")
    plan = ledger.plan_for("/tester/s1-run")
    assert plan["env"]["HF_TOKEN"] == "***" and plan["env"]["PLAIN"] == "x"
    assert SECRET.encode() not in (tmp_path / "l.sqlite").read_bytes()


def test_ledger_row_has_the_issue_columns(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite")
    ledger.record_launch(_plan(tmp_path, nodes=2, rendezvous_dir="s3://b/r1", model_path="Qwen/Qwen3-8B",
                               train_data=("ds",), skyrl_ref="abc", hparams_fingerprint="fp1"), "URL", "url")
    row = ledger.runs()[0]
    for key in ("job_id", "series", "config_path", "config_sha256", "hparams_fingerprint", "model", "train_data",
                "nodes", "image", "skyrl_ref", "rendezvous_dir", "cluster", "submitted_at", "last_state"):
        assert key in row
    assert row["nodes"] == 2 and row["train_data"] == ["ds"] and row["series"] == "s1"
    assert row["model"] == "Qwen/Qwen3-8B" and row["last_state"] == "pending"


def test_ledger_update_state_touches_only_newest_row_of_that_job(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite")
    ledger.record_launch(_plan(tmp_path), "U", "url")
    ledger.record_launch(_plan(tmp_path, "other-run"), "U", "url")
    ledger.update_state("/tester/s1-run", "succeeded")
    states = {r["job_id"]: r["last_state"] for r in ledger.runs()}
    assert states == {"/tester/s1-run": "succeeded", "/tester/other-run": "pending"}


def test_ledger_job_id_with_sql_metacharacters_is_data_not_sql(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite")
    ledger.record_launch(_plan(tmp_path), "U", "url")
    evil = "/x/y' OR '1'='1"
    assert ledger.plan_for(evil) is None
    ledger.update_state(evil, "killed")
    assert ledger.runs()[0]["last_state"] == "pending"


def test_ledger_history_queries(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite")
    ledger.record_launch(_plan(tmp_path, "s1-a", series="s1", hparams_fingerprint="f1", rendezvous_dir="s3://b/r/"),
                         "U", "url")
    assert ledger.series_history("s1") == [("/tester/s1-a", "f1")]
    assert ledger.rendezvous_users("s3://b/r") == ["/tester/s1-a"]
    assert ledger.find_by_name("s1-a") == ["/tester/s1-a"]
    assert ledger.runs(series="nope") == []


def test_ledger_default_path_is_under_irisrl_home(tmp_path, monkeypatch):
    monkeypatch.setenv("IRISRL_HOME", str(tmp_path / "h"))
    assert Ledger().path == tmp_path / "h" / "ledger.sqlite"
