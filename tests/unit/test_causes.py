"""The cause-of-death catalogue (observe/causes.py) against REAL lines people pasted in public
issues (tests/fixtures/real_lines/lines.jsonl; sources in tests/fixtures/README.md): every
line is classified as its kind through every path the analyzer takes (byte needles, grep's
alternation, the cleaned text), every format variant a pattern covers has a real line, and
benign look-alikes are no cause."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from irisrl.observe import causes as C
from irisrl.observe import patterns as P
from irisrl.observe.analyzer import Analyzer, hit_spans

LINES_FILE = Path(__file__).resolve().parents[1] / "fixtures" / "real_lines" / "lines.jsonl"
ROWS = [json.loads(line) for line in LINES_FILE.read_text().splitlines() if line.strip()]
POSITIVE = [r for r in ROWS if r["kind"]]
NEGATIVE = [r for r in ROWS if not r["kind"]]
# The kinds issue 10 asks for, plus the three irisrl already knew.
ISSUE_KINDS = {"nccl_timeout", "nccl_error", "cuda_oom", "hf_weights_missing", "hf_http_error",
               "hf_incomplete_download", "hydra_error", "ray_node_dead", "ray_oom_kill", "ray_worker_died",
               "ray_actor_died", "ray_local_instance", "engine_dead", "engine_init_failed", "pg_timeout",
               "pg_unplaceable", "stale_image_crash", "norm_topk_prob", "dcp_guard_rejected"}


def _id(row: dict) -> str:
    return f"{row['kind'] or 'benign'}:{row['source'].split(' ')[0]}"


def _classify(line: str) -> str | None:
    found = C.match(P.clean(line.encode()).text)
    return found.kind if found else None


@pytest.mark.parametrize("row", POSITIVE, ids=[_id(r) for r in POSITIVE])
def test_cause_real_line_is_classified_as_its_kind(row: dict) -> None:
    assert _classify(row["line"]) == row["kind"]


@pytest.mark.parametrize("row", NEGATIVE, ids=[_id(r) for r in NEGATIVE])
def test_cause_benign_real_line_is_no_cause(row: dict) -> None:
    assert _classify(row["line"]) is None


@pytest.mark.parametrize("row", POSITIVE, ids=[_id(r) for r in POSITIVE])
def test_cause_real_line_passes_the_byte_prefilter(row: dict) -> None:
    data = b"unrelated chatter line\n" + row["line"].encode() + b"\nmore chatter\n"
    spans = hit_spans(data)
    assert [data[s:e] for s, e in spans] == [row["line"].encode()]


@pytest.mark.skipif(shutil.which("grep") is None, reason="no grep on PATH")
def test_cause_real_lines_all_pass_grep_alternation(tmp_path: Path) -> None:
    log = tmp_path / "corpus.log"
    log.write_text("".join(r["line"] + "\n" for r in POSITIVE))
    out = subprocess.run(["grep", "-cE", P.GREP_PATTERN, str(log)], capture_output=True, text=True,
                         env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"}, check=True)
    assert int(out.stdout) == len(POSITIVE)


def test_cause_every_pattern_variant_has_a_real_line() -> None:
    """No unverified format: each alternative of each cause matches at least one corpus line."""
    texts = [P.clean(r["line"].encode()).text for r in POSITIVE]
    for cause in C.CATALOGUE:
        if cause.derived or cause.marker:
            continue
        for pattern in cause.patterns:
            assert any(re.search(pattern, t) for t in texts), (cause.kind, pattern)


def test_cause_catalogue_covers_the_issue_kinds_with_rung_fix_and_tier() -> None:
    kinds = [c.kind for c in C.CATALOGUE]
    assert len(kinds) == len(set(kinds))
    assert ISSUE_KINDS <= set(kinds)
    for cause in C.CATALOGUE:
        assert 1 <= cause.rung <= 9 and cause.tier in (C.ROOT, C.CONSEQUENCE) and cause.fix and cause.title
        assert cause.derived or cause.needles and (cause.patterns or cause.families), cause.kind
        for needle in cause.needles:
            assert needle.encode() in P.NEEDLES, (cause.kind, needle)
            # the scan keeps a needle contained in it: a line with this needle reaches the classifier
            assert any(scan in needle.encode() for scan in P.SCAN_NEEDLES), (cause.kind, needle)


def test_cause_every_issue_kind_has_real_lines_except_the_derived_one() -> None:
    seen = {r["kind"] for r in POSITIVE}
    assert ISSUE_KINDS - {"stale_image_crash"} <= seen


def test_cause_retry_line_is_not_the_hf_failure_it_retries() -> None:
    line = ("[rank 3] transient HF weight-index/safetensors fetch error loading 'Qwen/Qwen3-8B' on attempt 1/3; "
            "retrying in 8s: OSError: Qwen/Qwen3-8B does not appear to have a file named model.safetensors")
    assert _classify(line) == "hf_retry"


def _ev(kind: str, rank: str | None, t: float | None, seq: int, evidence: str = "x") -> C.CauseEvent:
    return C.CauseEvent(kind, rank, evidence, t, seq, 1, t, seq)


class _At:
    def __init__(self, t: float | None, seq: int) -> None:
        self.t, self.seq = t, seq


def test_cause_hf_error_is_cleared_by_a_retry_on_the_same_rank_even_undated() -> None:
    events = [_ev("hf_http_error", "3", 500.0, 10), _ev("hf_retry", "3", None, 11)]
    [finding] = C.assess(events, retry=None, crash=_At(900.0, 40))
    assert finding.status == "cleared" and C.cause_of_death([finding]) is None


def test_cause_hf_error_without_retry_is_fatal_only_once_the_run_crashed() -> None:
    events = [_ev("hf_weights_missing", "2", 100.0, 5, "does not appear to have files named ('a', 'b')")]
    assert C.assess(events)[0].status == "warning"
    [finding] = C.assess(events, crash=_At(170.0, 9))
    assert finding.status == "fatal" and finding.cause.kind == "hf_weights_missing"


def test_cause_missing_model_safetensors_then_crash_is_the_stale_image_crash() -> None:
    events = [_ev("hf_weights_missing", "0", 100.0, 5, "does not appear to have a file named model.safetensors")]
    [finding] = C.assess(events, crash=_At(170.0, 9))
    assert finding.cause.kind == "stale_image_crash" and finding.status == "fatal"


def test_cause_local_ray_is_fatal_only_for_a_multinode_gang() -> None:
    events = [_ev("ray_local_instance", "0", 10.0, 1)]
    assert C.assess(events, multinode=False)[0].status == "warning"
    assert C.assess(events, multinode=True)[0].status == "fatal"


def test_cause_of_death_prefers_the_root_cause_over_earlier_consequences() -> None:
    events = [_ev("nccl_timeout", "0", 50.0, 1), _ev("cuda_oom", "2", 60.0, 2), _ev("engine_dead", "1", 40.0, 3)]
    death = C.cause_of_death(C.assess(events))
    assert death is not None and death.cause.kind == "cuda_oom" and death.event.rank == "2"


def test_cause_of_death_among_roots_is_the_earliest() -> None:
    events = [_ev("pg_timeout", "0", 300.0, 9), _ev("ray_local_instance", "0", 120.0, 4)]
    death = C.cause_of_death(C.assess(events, multinode=True))
    assert death is not None and death.cause.kind == "ray_local_instance"


def test_cause_record_keeps_first_line_per_kind_and_rank_and_counts_the_rest() -> None:
    events: list[C.CauseEvent] = []
    for i in range(5):
        C.record(events, "nccl_timeout", "1", f"line {i}", float(i), i)
    C.record(events, "nccl_timeout", "2", "other rank", 9.0, 9)
    assert [(e.rank, e.evidence, e.count, e.last_seq) for e in events] == [("1", "line 0", 5, 4), ("2", "other rank", 1, 9)]


def test_cause_record_is_bounded() -> None:
    events: list[C.CauseEvent] = []
    for i in range(C.MAX_CAUSE_KEYS + 50):
        C.record(events, "ray_worker_died", str(i), "x", None, i)
    assert len(events) == C.MAX_CAUSE_KEYS


def test_cause_line_in_health_is_masked_and_survives_save_and_load(tmp_path: Path) -> None:
    token = "hf_" + "A1b2C3d4E5f6G7h8"
    analyzer = Analyzer({"num_nodes": 2})
    line = f"requests.exceptions.HTTPError: 502 Server Error: Bad Gateway for url: https://huggingface.co/x?token={token}\n"
    analyzer.feed("task-1.attempt-0", line.encode())
    state = tmp_path / "h.state"
    analyzer.save(state)
    assert token not in state.read_text()
    report = Analyzer.load(state, {"num_nodes": 2}).verdict()
    [cause] = report.to_dict()["causes"]
    assert cause["kind"] == "hf_http_error" and cause["rank"] == "1" and token not in json.dumps(report.to_dict())


def test_cause_corpus_readme_lists_every_line_with_its_source() -> None:
    readme = (LINES_FILE.parents[1] / "README.md").read_text()
    for row in ROWS:
        assert row["source"] in readme and row["line"].replace("`", "'") in readme, row["source"]


def test_cause_readme_vocabulary_table_is_in_sync_with_the_catalogue() -> None:
    readme = (LINES_FILE.parents[3] / "docs" / "REFERENCE.md").read_text()
    block = readme.split("<!-- causes:start -->\n", 1)[1].split("\n<!-- causes:end -->", 1)[0]
    assert block == C.vocabulary_table(), "regenerate with: python -m irisrl.observe.causes"


def test_cause_consequence_after_the_run_finished_is_teardown_not_death() -> None:
    events = [_ev("ray_worker_died", "0", 900.0, 50), _ev("cuda_oom", "1", 950.0, 60)]
    findings = {f.cause.kind: f.status for f in C.assess(events, finished=_At(800.0, 40))}
    assert findings == {"ray_worker_died": "teardown", "cuda_oom": "fatal"}
    assert C.assess(events[:1], finished=_At(950.0, 70))[0].status == "fatal"   # died before the end
