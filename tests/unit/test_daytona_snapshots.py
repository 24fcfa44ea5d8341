"""Daytona snapshot hygiene (issue 19), the real `daytona` SDK against a loopback Daytona API
(tests/support/daytona_server.py) through DAYTONA_API_URL. The anchor's cases (MarinSkyRL
cloud/iris/tests/test_daytona_snapshot_purge.py @ 7ac7d0e0): stale Harbor deleted, fresh kept,
non-Harbor never touched even when old, created-at fallback, a stale one on a later page, no
SDK -> skipped; plus no RL key -> skipped (test_daytona_credentials.py @ c96f6d25)."""

from __future__ import annotations

import datetime
import json
import sys
from pathlib import Path
from typing import Iterator

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode
from daytona_server import DaytonaServer, FakeSnapshot  # noqa: E402

from irisrl.cli.main import main  # noqa: E402
from irisrl.config.secrets import collect_secrets  # noqa: E402
from irisrl.ops import output  # noqa: E402
from irisrl.ops.daytona import before_launch, snapshots  # noqa: E402

KEY = "dtn_rl_0123456789abcdef"          # the RL org's key (fake)
GENERIC = "dtn_generic_fedcba9876543210"
NOW = datetime.datetime.now(datetime.timezone.utc)
needs_sdk = pytest.mark.skipif(
    __import__("importlib").util.find_spec("daytona") is None,
    reason="the daytona SDK is not installed here (extra `iris`: scripts/setup.sh installs it)")


def ago(**delta: float) -> datetime.datetime:
    return NOW - datetime.timedelta(**delta)


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[DaytonaServer]:
    """The loopback API, with this process's environment pointing the SDK at it."""
    monkeypatch.chdir(tmp_path)   # the SDK reads ./.env files: none here
    for name in ("DAYTONA_API_KEY", "DAYTONA_RL_API_KEY", "DAYTONA_API_URL", "DC_AGENT_SECRET_ENV",
                 "DAYTONA_TARGET", "DAYTONA_JWT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    with DaytonaServer(KEY) as server:
        monkeypatch.setenv("DAYTONA_RL_API_KEY", KEY)
        monkeypatch.setenv("DAYTONA_API_URL", server.url)
        yield server


def harbor(name: str, **kw: datetime.datetime | None) -> FakeSnapshot:
    return FakeSnapshot(id=f"id-{name}", name=name, created_at=kw.pop("created_at", ago(hours=6)) or NOW, **kw)


@needs_sdk
def test_stale_harbor_snapshots_are_deleted_by_id_and_fresh_ones_kept(api: DaytonaServer) -> None:
    api.snapshots += [harbor("harbor__stale", last_used_at=ago(hours=3)),
                      harbor("harbor__fresh", last_used_at=ago(hours=1))]
    report = snapshots(delete=True)
    assert api.deleted == ["id-harbor__stale"] and api.names() == ["harbor__fresh"]
    assert (report["status"], report["total"], report["harbor"], report["purged"], report["kept"]) == \
        ("purged", 2, 2, 1, 1)
    # exactly the two endpoints: one page listed, then one delete by id (no name lookup)
    assert api.requests == [("GET", "/api/snapshots?page=1&limit=100"), ("DELETE", "/api/snapshots/id-harbor__stale")]


@needs_sdk
def test_non_harbor_snapshots_are_never_touched_even_when_old(api: DaytonaServer) -> None:
    api.snapshots += [FakeSnapshot("sys-1", "base-image-py312", created_at=ago(days=90)),
                      FakeSnapshot("sys-2", "my-harbor__lookalike", created_at=ago(days=9), last_used_at=ago(days=8))]
    report = snapshots(delete=True)
    assert api.deleted == [] and len(api.snapshots) == 2
    assert [r["action"] for r in report["snapshots"]] == ["not harbor", "not harbor"]
    assert (report["total"], report["harbor"], report["purged"]) == (2, 0, 0)


@needs_sdk
def test_never_used_snapshots_fall_back_to_created_at(api: DaytonaServer) -> None:
    api.snapshots += [harbor("harbor__never_used_stale", created_at=ago(hours=3), last_used_at=None),
                      harbor("harbor__never_used_fresh", created_at=ago(hours=1), last_used_at=None)]
    snapshots(delete=True)
    assert api.deleted == ["id-harbor__never_used_stale"] and api.names() == ["harbor__never_used_fresh"]


@needs_sdk
def test_a_stale_snapshot_on_a_later_page_is_found(api: DaytonaServer) -> None:
    api.snapshots += [harbor(f"harbor__fresh-{i}", last_used_at=ago(minutes=30)) for i in range(100)]
    api.snapshots.append(harbor("harbor__stale-on-page-two", last_used_at=ago(hours=5)))
    report = snapshots(delete=True)
    assert api.deleted == ["id-harbor__stale-on-page-two"] and len(api.snapshots) == 100
    assert ("GET", "/api/snapshots?page=2&limit=100") in api.requests
    assert (report["total"], report["harbor"], report["purged"], report["kept"]) == (101, 101, 1, 100)


@needs_sdk
def test_every_page_is_read_before_anything_is_deleted(api: DaytonaServer) -> None:
    """Deleting while paging would shift page 2's first item onto page 1, already read."""
    api.snapshots += [harbor(f"harbor__stale-{i:03}", last_used_at=ago(hours=3)) for i in range(150)]
    report = snapshots(delete=True)
    assert report["purged"] == 150 and api.snapshots == []
    methods = [m for m, _ in api.requests]
    assert methods == ["GET", "GET", *["DELETE"] * 150]


@needs_sdk
def test_without_delete_nothing_is_deleted_and_the_candidates_are_reported(api: DaytonaServer) -> None:
    api.snapshots += [harbor("harbor__stale", last_used_at=ago(hours=3)), harbor("harbor__fresh", last_used_at=NOW)]
    report = snapshots(delete=False)
    assert api.deleted == [] and all(m == "GET" for m, _ in api.requests)
    assert (report["status"], report["would_purge"], report["purged"]) == ("listed", 1, 0)
    assert [r["action"] for r in report["snapshots"]] == ["would purge", "keep"]


def test_without_the_sdk_it_is_skipped(api: DaytonaServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "daytona", None)   # `import daytona` raises ImportError
    api.snapshots.append(harbor("harbor__stale", last_used_at=ago(hours=3)))
    report = snapshots(delete=True)
    assert report["status"] == "skipped" and "daytona SDK is not installed" in (report["reason"] or "")
    assert api.requests == [] and api.deleted == []


def test_without_the_rl_key_it_is_skipped_even_with_a_generic_key(api: DaytonaServer,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DAYTONA_RL_API_KEY")
    monkeypatch.setenv("DAYTONA_API_KEY", GENERIC)
    api.snapshots.append(harbor("harbor__stale", last_used_at=ago(hours=3)))
    report = snapshots(delete=True)
    assert report["status"] == "skipped" and "no DAYTONA_RL_API_KEY" in (report["reason"] or "")
    assert "generic DAYTONA_API_KEY is not used" in (report["reason"] or "")
    assert api.requests == []


@needs_sdk
def test_the_rl_key_from_the_secrets_file_wins(api: DaytonaServer, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setenv("DAYTONA_RL_API_KEY", "dtn_stale_shell_value_000")
    secrets = tmp_path / "secrets.env"
    secrets.write_text(f"DAYTONA_RL_API_KEY={KEY}\n")
    api.snapshots.append(harbor("harbor__stale", last_used_at=ago(hours=3)))
    report = snapshots(delete=True, secrets_env=str(secrets))
    assert report["purged"] == 1 and report["key"] == f"DAYTONA_RL_API_KEY ({secrets})"


@needs_sdk
def test_a_refused_key_fails_clearly_without_printing_it(api: DaytonaServer, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    wrong = "dtn_wrong_key_77777777777"
    monkeypatch.setenv("DAYTONA_RL_API_KEY", wrong)
    rc = _cli(["daytona", "snapshots", "--purge", "--yes"])
    out = capsys.readouterr()
    assert rc == 3 and "failed: Daytona refused the snapshot list (page 1)" in out.out
    assert wrong not in out.out + out.err


@needs_sdk
def test_cli_json_reports_against_the_quota_and_never_prints_the_key(api: DaytonaServer,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    api.snapshots += [harbor("harbor__stale", last_used_at=ago(hours=3)), harbor("harbor__fresh", last_used_at=NOW),
                      FakeSnapshot("sys-1", "base", created_at=ago(days=30))]
    assert _cli(["daytona", "snapshots", "--purge", "--yes", "--json"]) == 0
    out = capsys.readouterr().out
    doc = json.loads(out)
    assert {k: doc[k] for k in ("status", "total", "harbor", "purged", "kept", "quota")} == \
        {"status": "purged", "total": 3, "harbor": 2, "purged": 1, "kept": 1, "quota": 40}
    assert doc["key"] == "DAYTONA_RL_API_KEY (environment)" and KEY not in out


@needs_sdk
def test_cli_purge_without_yes_is_a_dry_run(api: DaytonaServer, capsys: pytest.CaptureFixture[str]) -> None:
    api.snapshots.append(harbor("harbor__stale", last_used_at=ago(hours=3)))
    assert _cli(["daytona", "snapshots", "--purge"]) == 0
    out = capsys.readouterr().out
    assert api.deleted == [] and "1 would be deleted; add --yes" in out
    assert "total=1 harbor=1 purged=0 kept=1 (quota 40)" in out and KEY not in out


def test_cli_yes_without_purge_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert _cli(["daytona", "snapshots", "--yes"]) == 64
    assert "--yes confirms --purge" in capsys.readouterr().err


@needs_sdk
def test_the_launch_step_purges_only_for_a_remote_daytona_run(api: DaytonaServer) -> None:
    api.snapshots.append(harbor("harbor__stale", last_used_at=ago(hours=3)))
    lines: list[str] = []
    with output.using(lambda text="", err=False: lines.append(text)):
        assert before_launch("none", local=False) is None
        assert before_launch("daytona", local=True) is None
        assert api.requests == []
        report = before_launch("daytona", local=False)
    assert report is not None and api.deleted == ["id-harbor__stale"]
    assert lines == ["daytona snapshots: total=1 harbor=1 purged=1 kept=0 (quota 40)"]


def test_the_rl_key_is_the_pods_daytona_key_and_a_shadowed_generic_key_stays_masked(tmp_path: Path) -> None:
    from irisrl.config.masking import operator_secret_values
    from irisrl.config.secrets import allowlist

    env = {"DAYTONA_API_KEY": GENERIC, "DAYTONA_RL_API_KEY": KEY}
    found = collect_secrets(allowlist(environ=env), None, env)
    assert found.values["DAYTONA_API_KEY"] == KEY
    assert found.sources["DAYTONA_API_KEY"] == "DAYTONA_RL_API_KEY (environment)"
    assert {GENERIC, KEY} <= set(operator_secret_values(None, env))
    only_generic = collect_secrets(allowlist(environ={}), None, {"DAYTONA_API_KEY": GENERIC})
    assert only_generic.values["DAYTONA_API_KEY"] == GENERIC   # the run still gets it; the purge does not


def _cli(argv: list[str]) -> int:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    return int(exc.value.code or 0)
