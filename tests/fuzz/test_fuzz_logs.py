"""Random byte soup and truncated logs never crash the parsers."""

from __future__ import annotations

from pathlib import Path

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from irisrl.observe.analyzer import Analyzer
from irisrl.observe.ladder import RUNG_NAMES
from irisrl.observe.patterns import clean
from irisrl.observe.progress import ProgressCollector

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
SAMPLE = (FIXTURES / "moe_dcp_healthy" / "combined.log").read_bytes()
FRAGMENTS = [b"Avg generation throughput: ", b"Running: ", b"Waiting: ", b"Staging train_data on this node (rank ",
             b"Ray nodes alive: ", b"WANDB_MIRROR kind=train step=", b"Step 1: {", b"metrics={", b"\n", b"\x1b[31m",
             b"(Actor pid=1, ip=1.2.3.4) ", b"[repeated 2x across cluster]", b"Training failed: ", b"12-02 10:11:12 ",
             b"2026-12-02 10:11:12.345 | INFO | ", b"exited with code ", b"/", b")", b"9" * 30, b"\xff\xfe",
             b"2026-12-02T10:11:12.123456789Z ", b"(head, rank=0, pid=7) ", b"(worker1, rank=1, ip=1.2.3.4, pid=8) ",
             b"[3/0] ", b"Step 2: \n", b"{'a': '0.1000',\n 'b': '", b"}", b"Started: 'sync_weights'",
             b"Finished: 'sync_weights'", b"Failed to create sandbox", b" (Ray deduplicates logs by default.)",
             b"{'policy_loss': 0.1}"]

soup = st.lists(st.one_of(st.binary(max_size=40), st.sampled_from(FRAGMENTS)), max_size=60).map(b"".join)


@settings(max_examples=300, deadline=None)
@given(data=soup, cuts=st.lists(st.integers(min_value=0, max_value=4000), max_size=5))
def test_analyzer_survives_byte_soup(data: bytes, cuts: list[int]) -> None:
    a = Analyzer({"num_nodes": 2, "hydra_args": ["x"]})
    prev = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts) + [len(data)]:
        a.feed("f", data[prev:cut])
        prev = cut
    report = a.verdict()
    assert report.verdict in ("KILL", "NO-KILL") and len(report.rungs) == len(RUNG_NAMES)
    report.to_dict()


@settings(max_examples=200, deadline=None)
@given(data=soup)
@example(data=b"Step 0: {{'':0}}")   # a dict repr ast cannot build (a set of dicts): found by this test, 2026-12-05
def test_progress_and_clean_survive_byte_soup(data: bytes) -> None:
    c = ProgressCollector()
    c.feed("f", data)
    c.finish()
    c.rows()
    for line in data.split(b"\n"):
        clean(line)


@settings(max_examples=100, deadline=None)
@given(cut=st.integers(min_value=0, max_value=len(SAMPLE)), garbage=st.binary(max_size=64))
def test_truncated_real_log_never_crashes(cut: int, garbage: bytes) -> None:
    a = Analyzer(None)
    a.feed("f", SAMPLE[:cut] + garbage)
    assert a.verdict().phase in ("bring-up", "serving", "training", "finished", "crashed")


@settings(max_examples=60, deadline=None)
@given(data=soup, split=st.integers(min_value=0, max_value=4000))
def test_grep_prefilter_path_survives_byte_soup_and_matches_python(data: bytes, split: int) -> None:
    import os
    import tempfile

    from irisrl.observe.analyzer import feed_file

    # A file that starts with gzip's magic is read as gzip (a cut-off one is TruncatedLog, exit 3):
    # not the plain-text soup this test is about.
    assume(not data.startswith(b"\x1f\x8b"))
    cut = split % (len(data) + 1)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "soup.log")
        with open(path, "wb") as fh:
            fh.write(data[:cut])
        fast = Analyzer(None)
        feed_file(fast, path)                       # grep path, then grow the file
        with open(path, "ab") as fh:
            fh.write(data[cut:])
        feed_file(fast, path)
        slow = Analyzer(None)
        slow.feed(os.path.realpath(path), data)
        assert fast.verdict().to_dict() == slow.verdict().to_dict()
