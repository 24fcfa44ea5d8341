"""Pod env: extra_env coerced to strings < secrets < launcher; AWS_*/R2_* never forwarded;
secret keys marked; NUM_INFERENCE_ENGINES kept equal to the Hydra value."""

from __future__ import annotations

from irisrl.config.extra_env import build_pod_env, coerce_extra_env


def test_extra_env_coerced_to_strings():
    env = coerce_extra_env({"A": 1, "B": True, "C": 0.5, "D": "x", "E": None})
    assert env == {"A": "1", "B": "1", "C": "0.5", "D": "x", "E": ""}
    assert all(isinstance(v, str) for v in env.values())


def test_extra_env_launcher_wins_collisions():
    pod = build_pod_env({"PYTHONPATH": "/mine", "X": "1"}, {}, {"PYTHONPATH": "/app"})
    assert pod.env["PYTHONPATH"] == "/app" and pod.env["X"] == "1"


def test_extra_env_cloud_creds_never_forwarded_from_any_source():
    pod = build_pod_env({"AWS_ACCESS_KEY_ID": "a", "R2_SECRET": "b", "aws_region": "c"},
                        {"AWS_SECRET_ACCESS_KEY": "d"}, {"R2_X": "e"})
    assert not any(k.upper().startswith(("AWS_", "R2_")) for k in pod.env)


def test_extra_env_secrets_marked_and_s3_secret_always_secret():
    pod = build_pod_env({"MY_API_KEY": "k", "PLAIN": "p"}, {"HF_TOKEN": "t", "WANDB_ENTITY": "e"},
                        {"IRISRL_S3_SECRET_ACCESS_KEY": "s"})
    assert set(pod.secret_keys) >= {"HF_TOKEN", "WANDB_ENTITY", "MY_API_KEY", "IRISRL_S3_SECRET_ACCESS_KEY"}
    assert "PLAIN" not in pod.secret_keys


def test_extra_env_num_inference_engines_equals_hydra_value():
    pod = build_pod_env({"NUM_INFERENCE_ENGINES": 56}, {}, {}, num_inference_engines=48)
    assert pod.env["NUM_INFERENCE_ENGINES"] == "48"
    assert [f.rule for f in pod.findings] == ["ENV-COLLISION"]
    assert build_pod_env({"NUM_INFERENCE_ENGINES": "48"}, {}, {}, 48).findings == ()
