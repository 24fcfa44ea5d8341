"""irisrl.config.masking: the one function that masks secret values everywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from irisrl.config.masking import MASK, MIN_SECRET_LEN, Masker, mask_text, operator_secret_values, secret_values
from irisrl.runtime.contract import ENV_S3_SECRET
from irisrl.util.errors import IrisrlError


def test_every_occurrence_is_masked_in_str_and_bytes() -> None:
    text = "token=hf_abcdef1234 again hf_abcdef1234."
    assert mask_text(text, ["hf_abcdef1234"]) == "token=*** again ***."
    assert mask_text(text.encode(), ["hf_abcdef1234"]) == b"token=*** again ***."


def test_overlapping_values_leave_no_fragment() -> None:
    # "abcdef" and "defghi" overlap in "abcdefghi": replacing one after the other would leave
    # "ghi" (or "abc") of the other visible.
    assert mask_text("x abcdefghi y", ["abcdef", "defghi"]) == "x *** y"
    # One value inside another: the longer one wins, nothing of it is shown.
    assert mask_text("pre secret123 secret post", ["secret", "secret123"]) == "pre *** *** post"
    # Touching values are one masked run.
    assert mask_text("aaaaBBBB", ["aaaa", "BBBB"]) == MASK


def test_values_shorter_than_min_len_are_not_masked() -> None:
    # Masking "abc" or "1" by value would mangle unrelated text (every "1" in a log) and
    # would show where the value occurs anyway; such values are masked by key only.
    short = "x" * (MIN_SECRET_LEN - 1)
    assert secret_values([short, "", None]) == ()
    assert mask_text(f"a {short} b", [short]) == f"a {short} b"
    assert mask_text("a wxyz b", ["wxyz"]) == "a *** b"


def test_multiline_text_and_multiline_values() -> None:
    log = "line one hf_tok1234\nline two\nkey:\n-----BEGIN KEY-----\nMIIsecretbody\n-----END KEY-----\n"
    pem = "-----BEGIN KEY-----\nMIIsecretbody\n-----END KEY-----"
    masker = Masker(["hf_tok1234", pem])
    out = masker(log)
    assert "hf_tok1234" not in out and "MIIsecretbody" not in out
    assert out.startswith("line one ***\nline two\nkey:\n***")
    # A multiline value printed as separate log entries (one per line) is masked line by line.
    assert masker(b"[0/0] MIIsecretbody\n") == b"[0/0] ***\n"


def test_values_are_distinct_and_longest_first() -> None:
    assert secret_values(["abcd", "abcdefgh", "abcd"]) == ("abcdefgh", "abcd")


def test_empty_masker_is_identity_and_false() -> None:
    masker = Masker([])
    assert not masker and masker(b"anything") == b"anything"


def test_operator_secrets_come_from_the_allowlist_the_file_and_irisrl_own(tmp_path: Path) -> None:
    env_file = tmp_path / "secrets.env"
    env_file.write_text("export WANDB_API_KEY='wandb-from-file-999'\nNOT_ALLOWED=other-value-1\n")
    environ = {"HF_TOKEN": "hf_fromenv_777", ENV_S3_SECRET: "s3-secret-555", "PATH": "/usr/bin",
               "AWS_SECRET_ACCESS_KEY": "never-forwarded"}
    values = operator_secret_values(str(env_file), environ)
    assert set(values) == {"hf_fromenv_777", "s3-secret-555", "wandb-from-file-999"}


def test_operator_secrets_file_from_dc_agent_secret_env(tmp_path: Path) -> None:
    env_file = tmp_path / "s.env"
    env_file.write_text("HF_TOKEN=hf_file_token_1\n")
    assert operator_secret_values(None, {"DC_AGENT_SECRET_ENV": str(env_file)}) == ("hf_file_token_1",)


def test_unreadable_secrets_file_strict_raises_lenient_keeps_environment(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.env")
    with pytest.raises(IrisrlError, match="unreadable"):
        operator_secret_values(missing, {"HF_TOKEN": "hf_env_only_1"})
    environ = {"HF_TOKEN": "hf_env_only_1", "DC_AGENT_SECRET_ENV": missing}
    assert operator_secret_values(None, environ, strict=False) == ("hf_env_only_1",)


def test_plan_renderings_use_the_same_function() -> None:
    from irisrl.plan import model

    assert model.MASK is MASK and model.MIN_SECRET_LEN == MIN_SECRET_LEN
    assert model._scrub({"a": ["x abcdefghi"]}, ("abcdef", "defghi")) == {"a": ["x ***"]}


def test_log_puller_and_feeder_mask_before_writing_or_feeding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from irisrl.observe.pull import LogPuller, Page, TaskRef, feed_job

    class Source:
        lines = ["start", "HF_TOKEN is hf_planted_4242", "done"]

        def tasks(self, job_id: str) -> list[TaskRef]:
            return [TaskRef(0, 0, "succeeded")]

        def fetch(self, job_id: str, task_index: int, attempt: int, cursor: object) -> Page:
            start = int(cursor or 0)
            return Page(self.lines[start:start + 2], start + 2, start + 2 < len(self.lines))

    monkeypatch.setenv("HF_TOKEN", "hf_planted_4242")   # the default mask: the operator's env
    LogPuller(Source(), "/u/j", tmp_path).pull_once()
    for name in ("task-0.attempt-0.log", "combined.log"):
        text = (tmp_path / name).read_text()
        assert "hf_planted_4242" not in text and "HF_TOKEN is ***" in text
    fed: list[bytes] = []
    assert feed_job(Source(), "/u/j", lambda name, block: fed.append(block), mask=Masker(["start"])) == []
    assert b"".join(fed) == b"***\nHF_TOKEN is hf_planted_4242\ndone\n"   # an explicit mask replaces the default


@pytest.mark.parametrize("command", [["logs", "/u/j"], ["health", "/u/j"], ["progress", "/u/j"]])
def test_live_log_commands_refuse_an_unreadable_secrets_file_before_any_pull(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from irisrl.cli.main import main

    missing = tmp_path / "nope.env"
    with pytest.raises(SystemExit) as done:
        main([*command, "--secrets-env", str(missing), "--controller-url", "http://127.0.0.1:9"])
    err = capsys.readouterr().err
    assert done.value.code == 3 and str(missing) in err and "Traceback" not in err
