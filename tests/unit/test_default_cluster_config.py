"""--cluster-config defaults: $IRISRL_CLUSTER_CONFIG, then the runbook's marin checkouts."""

from __future__ import annotations

from pathlib import Path

import pytest

from irisrl.backends.resolve import default_cluster_config
from irisrl.util.errors import IrisrlError


def _write(root: Path) -> Path:
    cfg = root / "lib/iris/config/cw-us-east-02a.yaml"
    cfg.parent.mkdir(parents=True)
    cfg.write_text("name: cw-us-east-02a\n")
    return cfg


def test_default_cluster_config_finds_documents_marin_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    cfg = _write(tmp_path / "Documents/marin")
    assert default_cluster_config() == str(cfg)


def test_default_cluster_config_finds_marin_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("MARIN_ROOT", str(tmp_path / "marin"))
    cfg = _write(tmp_path / "marin")
    assert default_cluster_config() == str(cfg)


def test_default_cluster_config_env_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("IRISRL_CLUSTER_CONFIG", "/etc/iris/cw.yaml")
    _write(tmp_path / "Documents/marin")
    assert default_cluster_config() == "/etc/iris/cw.yaml"


def test_default_cluster_config_falls_back_to_the_iris_sdk_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("IRISRL_CLUSTER_CONFIG", raising=False)
    from iris.cli.connect import IRIS_CLUSTER_CONFIG_DIRS
    shipped = [Path(d).expanduser() / "cw-us-east-02a.yaml" for d in IRIS_CLUSTER_CONFIG_DIRS]
    found = [p for p in shipped if p.exists()]
    if found:
        assert default_cluster_config() == str(found[0])
    else:
        with pytest.raises(IrisrlError, match="no target cluster"):
            default_cluster_config()
