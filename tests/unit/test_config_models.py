"""Model facts: built-in table, local config.json, the HF cache on disk; the Hub only when asked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from irisrl.config import models
from irisrl.config.models import resolve_model_facts


def test_builtin_facts_for_runbook_models() -> None:
    moe, _ = resolve_model_facts("Qwen/Qwen3-Coder-30B-A3B-Instruct")
    dense, _ = resolve_model_facts("Qwen/Qwen3-8B")
    small, _ = resolve_model_facts("Qwen/Qwen3-0.6B")
    assert (moe.num_kv_heads, moe.num_experts, moe.is_moe) == (4, 128, True)
    assert (dense.num_kv_heads, dense.is_moe) == (8, False) and small.source == "built-in"


def test_local_model_dir_config_json(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"num_attention_heads": 16, "num_key_value_heads": 2,
                                                      "num_local_experts": 8}))
    facts, note = resolve_model_facts(str(tmp_path))
    assert facts and (facts.num_kv_heads, facts.num_experts, facts.source) == (2, 8, "local") and not note


def test_mla_model_counts_one_kv_head(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"num_attention_heads": 128, "num_key_value_heads": 128,
                                                      "kv_lora_rank": 512, "n_routed_experts": 256}))
    facts, _ = resolve_model_facts(str(tmp_path))
    assert facts.mla and facts.effective_kv_heads == 1 and facts.num_experts == 256


def test_hf_cache_layout_read_from_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    repo = tmp_path / "hf" / "hub" / "models--acme--tiny-moe"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("abc123")
    snap = repo / "snapshots" / "abc123"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text(json.dumps({"num_attention_heads": 8, "num_key_value_heads": 4, "num_experts": 64}))
    facts, _ = resolve_model_facts("acme/tiny-moe")
    assert facts and facts.source == "hf-cache" and facts.num_experts == 64


def test_unknown_model_never_touches_the_network_without_fetch(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_a, **_k):
        raise AssertionError("network used")

    monkeypatch.setattr(models, "_from_hub", boom)
    facts, note = resolve_model_facts("acme/unknown")
    assert facts is None and "not in the built-in table" in note


def test_fetch_failure_is_a_note_not_an_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    import urllib.request

    def refuse(*_a, **_k):
        raise OSError("no network here")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    facts, note = resolve_model_facts("acme/unknown", fetch=True)
    assert facts is None and "failed" in note


def test_object_store_model_is_not_read() -> None:
    facts, note = resolve_model_facts("s3://bucket/model")
    assert facts is None and "object-store" in note
