"""Secrets: allowlisted names from the environment and a dotenv file (parsed, never
sourced), never AWS_*/R2_*."""

from __future__ import annotations

import pytest

from irisrl.config.secrets import (
    DEFAULT_ALLOWLIST,
    allowlist,
    collect_secrets,
    parse_dotenv,
    read_secrets_file,
)
from irisrl.util.errors import UndeterminedError

DOTENV = """
# a comment
export HF_TOKEN="hf_abc123"
WANDB_API_KEY='wandb xyz'
DAYTONA_API_KEY=plain-value # trailing comment
DAYTONA_API_URL=https://x.example/api#frag
WANDB_PROJECT=$HOME/literal
AWS_SECRET_ACCESS_KEY=nope
R2_ACCESS_KEY_ID=nope
not a line
EMPTY=
"""


def test_secrets_dotenv_export_quotes_comments_no_expansion():
    values = parse_dotenv(DOTENV)
    assert values["HF_TOKEN"] == "hf_abc123"
    assert values["WANDB_API_KEY"] == "wandb xyz"
    assert values["DAYTONA_API_KEY"] == "plain-value"
    assert values["DAYTONA_API_URL"] == "https://x.example/api#frag"
    assert values["WANDB_PROJECT"] == "$HOME/literal"
    assert values["EMPTY"] == ""
    assert "not a line" not in values


def test_secrets_file_wins_over_environment_and_only_allowlisted(tmp_path):
    f = tmp_path / "secrets.env"
    f.write_text(DOTENV)
    env = {"HF_TOKEN": "from-env", "WANDB_ENTITY": "team", "OTHER": "x"}
    secrets = collect_secrets(allowlist(environ=env), str(f), env)
    assert secrets.values["HF_TOKEN"] == "hf_abc123"
    assert secrets.sources["HF_TOKEN"] == str(f)
    assert secrets.values["WANDB_ENTITY"] == "team"
    assert "OTHER" not in secrets.values
    assert not any(k.startswith(("AWS_", "R2_")) for k in secrets.values)


def test_secrets_default_file_from_dc_agent_secret_env(tmp_path):
    f = tmp_path / "s.env"
    f.write_text("HF_TOKEN=tok\n")
    secrets = collect_secrets(DEFAULT_ALLOWLIST, None, {"DC_AGENT_SECRET_ENV": str(f)})
    assert secrets.has("HF_TOKEN") and secrets.file == str(f)


def test_secrets_allowlist_configurable_but_never_cloud_creds():
    names = allowlist(("MY_TOKEN", "AWS_ACCESS_KEY_ID"), {"IRISRL_SECRETS_ALLOWLIST": "X_KEY, R2_SECRET"})
    assert "MY_TOKEN" in names and "X_KEY" in names
    assert not any(n.startswith(("AWS_", "R2_")) for n in names)


def test_secrets_unreadable_file_is_exit_3(tmp_path):
    with pytest.raises(UndeterminedError) as err:
        read_secrets_file(str(tmp_path / "missing.env"))
    assert "missing.env" in err.value.message and err.value.exit_code == 3
