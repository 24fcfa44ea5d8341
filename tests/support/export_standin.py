"""A stand-in for the image's export entrypoint (skyrl_train.entrypoints.checkpoint_export),
which CI does not have: it reads the `++checkpoint_export.*` Hydra args irisrl passes, checks
the checkpoint dir is there, writes a tiny "HF model" and publishes it as SkyRL's
HuggingFacePublisher does (create_repo, then upload_folder at the repo root; with
hf_upload_mode=all also under checkpoints/step_<N>). Runs as the export job's task.

--mode ok (default) | fail (exit 3 with a message, uploads nothing) | partial (uploads only
config.json, so the repo check must fail)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path


def export_args(argv: list[str]) -> dict[str, str]:
    found = {}
    for arg in argv:
        name, sep, value = arg.lstrip("+").partition("=")
        if sep and name.startswith("checkpoint_export."):
            found[name.split(".", 1)[1]] = value
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="ok", choices=("ok", "fail", "partial"))
    args, hydra = parser.parse_known_args()
    spec = export_args(hydra)
    print(f"[standin] export of step {spec['step']} from {spec['checkpoint_path']} to {spec['hf_hub_repo_id']}",
          flush=True)
    if args.mode == "fail":
        print("[standin] RuntimeError: checkpoint conversion produced no model (stand-in failure)", flush=True)
        return 3
    checkpoint = Path(spec["checkpoint_path"].replace("/./tmp/", "/tmp/", 1))
    if not checkpoint.is_dir():
        print(f"[standin] FileNotFoundError: {checkpoint}", flush=True)
        return 4
    from huggingface_hub import HfApi

    api = HfApi(token=os.environ["HF_TOKEN"])
    repo = spec["hf_hub_repo_id"]
    api.create_repo(repo_id=repo, repo_type="model", private=spec.get("hf_hub_private") == "true", exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        (out / "config.json").write_text(json.dumps({"architectures": ["StandIn"], "step": int(spec["step"])}))
        if args.mode == "ok":
            (out / "model.safetensors").write_bytes(b"\0" * 64)
            (out / "tokenizer.json").write_text("{}")
        api.upload_folder(folder_path=str(out), repo_id=repo, path_in_repo="", repo_type="model",
                          revision=spec.get("hf_hub_revision", "main"),
                          commit_message=f"Upload checkpoint at step {spec['step']}")
        if spec.get("hf_upload_mode") == "all":
            api.upload_folder(folder_path=str(out), repo_id=repo, path_in_repo=f"checkpoints/step_{spec['step']}",
                              repo_type="model", revision=spec.get("hf_hub_revision", "main"),
                              commit_message=f"Archive checkpoint at step {spec['step']}")
    print(f"[standin] published {repo}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
