"""Policy file loading and the live-scope standing-constraint rules (pure)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from irisrl.backends.policy import Policy, load_policy
from irisrl.rules.catalogue import run_rules
from irisrl.core.series import series_of
from irisrl.rules.policy import LiveState
from irisrl.util.errors import UsageError

BASE = LiveState(job_id="/u/dense-r3", series="dense", series_explicit=False, hparams_fingerprint="fp-new",
                 rendezvous_dir="s3://b/iris/rl/dense-r3", sandbox="daytona", cluster="URL")


def ids(live: LiveState) -> list[str]:
    return [f.rule for f in run_rules(SimpleNamespace(live=live, loaded=True), scopes=("live",))]


def test_policy_defaults_when_no_file():
    assert load_policy() == Policy()
    assert Policy().daytona_cap == 6 and Policy().concluded_series == ("a3",)


def test_policy_file_under_irisrl_home_is_read(tmp_path, monkeypatch):
    monkeypatch.setenv("IRISRL_HOME", str(tmp_path))
    (tmp_path / "policy.toml").write_text('daytona_cap = 1\ndaytona_name_patterns = ["*-rl-*"]\n')
    pol = load_policy()
    assert pol.daytona_cap == 1 and pol.daytona_name_patterns == ("*-rl-*",) and pol.concluded_series == ("a3",)


@pytest.mark.parametrize("text,needle", [
    ("daytona_cap = -1", "non-negative"), ("daytona_cap = 'x'", "non-negative"),
    ("concluded_series = 'a3'", "list of strings"), ("cap = 3", "unknown key"), ("[[", "not valid TOML"),
])
def test_policy_file_errors_say_what_and_how(tmp_path, text, needle):
    path = tmp_path / "p.toml"
    path.write_text(text)
    with pytest.raises(UsageError) as err:
        load_policy(path)
    assert needle in err.value.message and err.value.fix


def test_policy_explicit_missing_file_is_an_error(tmp_path):
    with pytest.raises(UsageError):
        load_policy(tmp_path / "nope.toml")


def test_concurrency_refuses_when_cap_reached_and_names_running_jobs():
    live = replace(BASE, running_job_ids=("/u/a", "/u/b"), daytona_job_ids=frozenset({"/u/a", "/u/b"}), daytona_cap=2)
    found = run_rules(SimpleNamespace(live=live, loaded=True), scopes=("live",))
    assert [f.rule for f in found] == ["POL-CONCURRENCY"]
    assert "/u/a" in found[0].message and "cap 2" in found[0].message


def test_concurrency_counts_only_running_daytona_or_name_matched_jobs():
    live = replace(BASE, running_job_ids=("/u/a", "/x/other-job", "/x/team-rl-7"), daytona_job_ids=frozenset({"/u/a"}),
                   daytona_cap=2)
    assert ids(live) == []  # /x/other-job is neither tagged nor matched
    assert ids(replace(live, daytona_name_patterns=("*-rl-*",))) == ["POL-CONCURRENCY"]


def test_concurrency_ignores_non_daytona_launches():
    live = replace(BASE, sandbox="none", running_job_ids=("/u/a",), daytona_job_ids=frozenset({"/u/a"}), daytona_cap=1)
    assert ids(live) == []


def test_series_concluded_from_job_name_prefix():
    assert series_of("a3-refill-7", None) == "a3"
    assert series_of("whatever", "a3") == "a3"
    assert ids(replace(BASE, job_id="/u/a3-x", series="a3")) == ["POL-SERIES-CONCLUDED"]


def test_series_drift_only_with_explicit_series_and_different_fingerprint():
    hist = (("/u/dense-r1", "fp-old"),)
    assert ids(replace(BASE, series_history=hist)) == []
    found = run_rules(SimpleNamespace(live=replace(BASE, series_explicit=True, series_history=hist), loaded=True),
                      scopes=("live",))
    assert [f.rule for f in found] == ["POL-SERIES-DRIFT"] and "separate experiment" in found[0].fix
    same = (("/u/dense-r1", "fp-new"),)
    assert ids(replace(BASE, series_explicit=True, series_history=same)) == []


def test_rendezvous_reused_is_refused():
    assert ids(replace(BASE, rendezvous_users=("/u/dense-r2",))) == ["LCH-RDZV-REUSED"]


def test_live_rules_do_nothing_without_live_state():
    assert run_rules(SimpleNamespace(live=None, loaded=True), scopes=("live",)) == []


def test_local_cluster_yaml_has_one_scale_group_per_gang_size_with_profile_resources():
    yaml = pytest.importorskip("yaml")
    from irisrl.backends.local_cluster import local_cluster_yaml

    data = yaml.safe_load(local_cluster_yaml(3, 8, "H100", cpu=32, memory="512GB", disk="512GB"))
    groups = data["scale_groups"]
    assert sorted(g["num_vms"] for g in groups.values()) == [1, 2, 3]
    for g in groups.values():
        assert g["slice_template"]["num_vms"] == g["num_vms"]
        assert g["resources"]["device_count"] == 8 and g["resources"]["device_variant"] == "H100"
        assert g["resources"]["cpu"] >= 48 and g["resources"]["ram"] == "512GB"
        assert g["worker"]["attributes"]["leafgroup"].startswith("lg-")
    assert data["controller"]["local"]["port"] == 0


def test_scrubbed_env_drops_cloud_credentials_and_secrets(monkeypatch):
    import os
    import sys

    from irisrl.backends.local_cluster import scrubbed_env

    for key in ("AWS_SECRET_ACCESS_KEY", "R2_TOKEN", "HF_TOKEN", "WANDB_API_KEY", "DAYTONA_API_KEY", "MY_PASSWORD"):
        monkeypatch.setenv(key, "x")
    env = scrubbed_env()
    assert not any(k.startswith(("AWS_", "R2_")) for k in env)
    assert not {"HF_TOKEN", "WANDB_API_KEY", "DAYTONA_API_KEY", "MY_PASSWORD"} & set(env)
    assert env["PATH"].split(os.pathsep)[0] == os.path.dirname(sys.executable)
