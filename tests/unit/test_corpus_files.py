"""The public failure-line corpus (tests/fixtures/corpus/public/, README there): every file
parses, every label is a kind of the issue-15 contract, the split by source holds (no line and
no source on both sides, each side where sha1(source) puts it), and scripts/measure_causes.py
scores lines the way the contract says."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = ROOT / "tests" / "fixtures" / "corpus" / "public"
SPLITS = {"dev": PUBLIC / "dev.jsonl", "heldout": PUBLIC / "heldout.jsonl"}
# A second, fresh held-out set (README "heldout2"): not part of the sha1 split, every source new.
HELDOUT2 = PUBLIC / "heldout2.jsonl"
# A third fresh held-out set (README "heldout3"): new against every other corpus file, heldout2 included.
HELDOUT3 = PUBLIC / "heldout3.jsonl"
# A fourth fresh held-out set (README "heldout4"): new against every other corpus file, heldout3 included.
HELDOUT4 = PUBLIC / "heldout4.jsonl"
# A fifth fresh set (README "heldout5"), new against every other corpus file including heldout4.
HELDOUT5 = PUBLIC / "heldout5.jsonl"
# A sixth fresh set (README "heldout6"), new against every other corpus file including heldout5.
HELDOUT6 = PUBLIC / "heldout6.jsonl"
# A seventh fresh set (README "heldout7"), new against every other corpus file including heldout6;
# collected in a short window, so it is smaller (fewer lines rather than any source reused).
HELDOUT7 = PUBLIC / "heldout7.jsonl"
# An eighth fresh set (README "heldout8") from public web pages (Q&A, forums, blogs, docs), not GitHub
# issues: its sources are page URLs, one URL one source.
HELDOUT8 = PUBLIC / "heldout8.jsonl"
# The ninth fresh set (README "heldout9"), collected beside heldout8 from a disjoint pool (repositories
# no corpus file had used); small, like heldout7 (fewer lines rather than a reused source).
HELDOUT9 = PUBLIC / "heldout9.jsonl"
# The tenth fresh set (README "heldout10"): GitHub issues, mostly from repositories no corpus file had
# used; small, like heldout7 and heldout9 (fewer lines rather than a reused source or line).
HELDOUT10 = PUBLIC / "heldout10.jsonl"
# The eleventh fresh set (README "heldout11"): GitHub issues, small like heldout10 (fewer lines rather
# than a reused source or line); none of its repositories is one heldout9 cites.
HELDOUT11 = PUBLIC / "heldout11.jsonl"
# The twelfth and thirteenth fresh sets were collected at the same time from pools disjoint by repository
# kind: heldout12 (README "heldout12") from training-side repositories, heldout13 (README "heldout13")
# from inference servers and cluster infrastructure.
HELDOUT12 = PUBLIC / "heldout12.jsonl"
HELDOUT13 = PUBLIC / "heldout13.jsonl"
# The fourteenth fresh set (README "heldout14"): GitHub issues (most from repositories no corpus file cites,
# many from 2025-2026) and public pages; no source, line or repository shared with heldout12 or heldout13.
HELDOUT14 = PUBLIC / "heldout14.jsonl"
# The fifteenth fresh set (README "heldout15"): 2025-2026 GitHub issues and pull requests of the core
# repositories (vLLM, SGLang, Ray, KubeRay, torch, NCCL, the Hub, TRL, verl, OpenRLHF, SkyRL); none from a
# repository heldout9 cites.
HELDOUT15 = PUBLIC / "heldout15.jsonl"
# The sixteenth fresh set (README "heldout16"): 2023-2024 GitHub issues and pull requests of the same core
# repositories (heldout15 took 2025-2026); none from a repository heldout9 cites.
HELDOUT16 = PUBLIC / "heldout16.jsonl"
# The seventeenth fresh set (README "heldout17"): GitHub issues and pull requests of any repository whose
# users run a multi-node RL stack (vLLM, SGLang, Ray, torch, NCCL, the Hub, Kubernetes and their users'
# projects), searched by failure family; none from a repository heldout9 cites.
HELDOUT17 = PUBLIC / "heldout17.jsonl"
# The eighteenth fresh set (README "heldout18"): public web pages (Hub discussions, forums, pastes, docs), like
# heldout8; its sources are page URLs, one URL one source, none a GitHub issue.
HELDOUT18 = PUBLIC / "heldout18.jsonl"
# The nineteenth fresh set (README "heldout19"): GitHub issues and pull requests of the multi-node RL /
# post-training stacks (verl, OpenRLHF, TRL, SkyRL, NeMo RL, AReaL, slime, RLinf, ms-swift, ...) and the engines
# and libraries their users paste (vLLM, SGLang, NCCL, the Hub); none from a repository heldout9 cites.
HELDOUT19 = PUBLIC / "heldout19.jsonl"
# The twentieth fresh set (README "heldout20"): documentation, troubleshooting pages and blog posts (project docs
# cited by their published URL), never a GitHub issue, paste or forum thread; its sources are page URLs.
HELDOUT20 = PUBLIC / "heldout20.jsonl"
# The twenty-first fresh set (README "heldout21"): GitHub issues and pull requests of the training libraries under an RL
# run's policy workers (Megatron-LM / NeMo / Megatron-Bridge, DeepSpeed, accelerate, transformers, peft, the Hub,
# torch distributed, ColossalAI and similar); none from a repository heldout9 cites.
HELDOUT21 = PUBLIC / "heldout21.jsonl"
# The twenty-second fresh set (README "heldout22"): GitHub issues and pull requests of the infrastructure a GPU job runs
# on (gpu-operator, device plugin, container toolkit, NCCL and its net plugins, KubeRay, Kubeflow, Volcano, SkyPilot,
# dstack, pyxis / enroot, KServe, vLLM production-stack, llm-d infra); collected in parallel with heldout21.
HELDOUT22 = PUBLIC / "heldout22.jsonl"
# The twenty-third fresh set (README "heldout23"): GitHub issues and pull requests of any repository a multi-node RL
# stack's users meet (vLLM, SGLang, Ray, torch distributed, NCCL, the Hub and datasets, the RL stacks, Kubernetes),
# searched by failure family; none from a repository heldout9 cites.
HELDOUT23 = PUBLIC / "heldout23.jsonl"
# The twenty-fourth fresh set (README "heldout24"): public web pages (Hub model, dataset and Space discussions, pastes,
# Q&A and vendor pages, blogs), like heldout8, 18 and 20; its sources are page URLs, one URL one source, none a GitHub
# issue, pull request or gist.
HELDOUT24 = PUBLIC / "heldout24.jsonl"
# The twenty-fifth fresh set (README "heldout25"): GitHub issues and pull requests of the applications and tools built on
# the stack (ComfyUI, text-generation-webui, open-webui, diffusers, lerobot, llama_index, lm-evaluation-harness, model
# repos, serving wrappers) and the engine / NCCL / Kubernetes issues their users hit; none from a repository heldout9 cites.
HELDOUT25 = PUBLIC / "heldout25.jsonl"
# The twenty-sixth fresh set (README "heldout26"): public web pages (Hub model, dataset and Space pages, pastes,
# Chinese and Japanese blogs and guides, a GitLab ticket), like heldout8, 18, 20 and 24; its sources are page URLs,
# one URL one source, none a GitHub issue, pull request or gist.
HELDOUT26 = PUBLIC / "heldout26.jsonl"
# The twenty-seventh fresh set (README "heldout27"): 2025-2026 GitHub issues and pull requests of the serving engines,
# Ray, torch / NCCL, the Hub and Xet, verl and their close kin; none from a repository heldout9 cites.
HELDOUT27 = PUBLIC / "heldout27.jsonl"
# The twenty-eighth fresh set (README "heldout28"): 2025-2026 GitHub issues and pull requests of the serving side (vLLM V1,
# SGLang, LMDeploy, TensorRT-LLM, Dynamo, AIBrix, llm-d, Ray Serve LLM) and the RL stacks' rollout paths; none from a
# repository heldout9 cites.
HELDOUT28 = PUBLIC / "heldout28.jsonl"
# The twenty-ninth fresh set (README "heldout29"): forum threads and Q&A pages (discuss.ray.io and similar) plus one
# paste the docs corpus held; its sources are page URLs, one URL one source. Tiny: the stored pool held almost no new pastes.
HELDOUT29 = PUBLIC / "heldout29.jsonl"
# The thirtieth fresh set (README "heldout30"): GitHub issues of the fine-tuning and training frameworks (LLaMA-Factory,
# Unsloth, axolotl, TRL, torchtune, ms-swift, xtuner, Lightning, PEFT, bitsandbytes, flash-attention,
# TransformerEngine, nanotron); none from a repository heldout9 cites.
HELDOUT30 = PUBLIC / "heldout30.jsonl"
# The thirty-first fresh set (README "heldout31"): GitHub issues and pull requests of the cluster layer under GPU training
# (NCCL / nccl-tests / aws-ofi-nccl, NVIDIA container toolkit, device plugin, DRA driver and DCGM exporter, Kubernetes,
# containerd, pyxis / enroot, EKS / AKS / GKE, KubeRay, Kubeflow, JuiceFS); none from a repository heldout9 cites.
HELDOUT31 = PUBLIC / "heldout31.jsonl"
# The thirty-second fresh set (README "heldout32"): GitHub issues and pull requests of any repository, searched by failure
# family for the kinds the corpus holds fewest lines of (CUDA errors, c10d stores, full disks, corrupt checkpoints, Hub
# downloads, placement, image pulls); none from a repository heldout9 cites.
HELDOUT32 = PUBLIC / "heldout32.jsonl"
# The thirty-third fresh set (README "heldout33"): GitHub issues and pull requests of agentic RL training stacks and the
# sandboxes / agent harnesses they drive (NeMo RL, prime-rl, AReaL, OpenHands evals, SWE-bench harness, E2B, Daytona);
# small (the pool is saturated); none from a repository heldout9 cites.
HELDOUT33 = PUBLIC / "heldout33.jsonl"
# The thirty-fourth fresh set (README "heldout34"): GitHub issues and pull requests FILED IN 2026 in any repository of the
# stack (vLLM and its forks / recipes, SGLang, Ray, torch / NCCL, verl, slime, Megatron-LM, DeepGEMM, Kubernetes add-ons);
# small (the 2026 pool was mostly taken already); none from a repository heldout9 cites.
HELDOUT34 = PUBLIC / "heldout34.jsonl"
# The thirty-eighth fresh set (README "heldout38"): GitHub issues and pull requests of the serving engines (vLLM, SGLang) and
# the repositories around them (AIBrix, llm-compressor), as their users paste engine failures; small (the pool is mostly
# taken already); none from a repository heldout9 cites.
HELDOUT38 = PUBLIC / "heldout38.jsonl"
# The thirty-sixth fresh set (README "heldout36"): GitHub issues and pull requests of the RL post-training stacks (verl,
# OpenRLHF, slime, AReaL, NeMo RL, TRL GRPO, ms-swift GRPO, open-instruct and verl/OpenRLHF-based projects); small (the
# pool is mostly taken already); none from a repository heldout9 cites.
HELDOUT36 = PUBLIC / "heldout36.jsonl"
# The thirty-fifth fresh set (README "heldout35"): GitHub issues and pull requests of repositories NO corpus file had cited
# before (kernel / serving / training-framework and application repos: FlashInfer, MLC LLM, TEI, Determined, composer,
# Ultralytics, OpenMMLab, fastembed, Triton users); small (the pool is saturated); none from a repository heldout9 cites.
HELDOUT35 = PUBLIC / "heldout35.jsonl"
# The thirty-seventh fresh set (README "heldout37"): GitHub issues and pull requests of Ray and KubeRay users (Core, Train,
# Data, Serve / Serve LLM, Tune, RLlib, job submission, KubeRay operator) and of stacks whose users paste Ray cluster failures;
# none from a repository heldout9 cites.
HELDOUT37 = PUBLIC / "heldout37.jsonl"
# The thirty-ninth fresh set (README "heldout39"): GitHub issues and pull requests of PyTorch core and the NVIDIA training stack
# (pytorch/pytorch distributed / c10d / FSDP / DCP / CUDA, torchtitan, torchtune, Megatron-LM, NCCL, apex, the GPU operator, the
# device plugin, the container toolkit, flash-attention, DeepSpeed); small (the pool is mostly taken already); none from a
# repository heldout9 cites.
HELDOUT39 = PUBLIC / "heldout39.jsonl"
# The fortieth fresh set (README "heldout40"): GitHub issues and pull requests of the Hugging Face stack and the fine-tuning
# frameworks (transformers, huggingface_hub, datasets, accelerate, LLaMA-Factory, axolotl, unsloth, bitsandbytes,
# lm-evaluation-harness); small (the pool is mostly taken already); none from a repository heldout9 cites.
HELDOUT40 = PUBLIC / "heldout40.jsonl"
# The forty-first fresh set (README "heldout41"): GitHub issues and pull requests of the orchestration layer under multi-node
# GPU training and serving (Kubeflow training-operator and mpi-operator, Volcano, KAI scheduler, KServe, NVIDIA Dynamo, KAITO,
# Slurm's pyxis / enroot / deepops); none from a repository heldout9 cites.
HELDOUT41 = PUBLIC / "heldout41.jsonl"
# The forty-second fresh set (README "heldout42"): blog posts, Q&A pages and write-ups in any language (CSDN, Tencent Cloud
# developer column, a vendor troubleshooting page, a translated Stack Overflow copy, discuss.vllm.ai, personal blogs); its
# sources are page URLs, one URL one source. Tiny: the stored pages pool is dominated by content farms and taken pages.
HELDOUT42 = PUBLIC / "heldout42.jsonl"
# The forty-third fresh set (README "heldout43"): GitHub issues and pull requests of repositories some corpus file already
# cites (new issue numbers only), aimed at the kinds the corpus holds least of (Ray driver-not-attached, Hydra composition,
# Hub downloads, corrupt checkpoints, NCCL timeouts, evictions); small (the pool is mostly taken); none from a repository
# heldout9 cites.
HELDOUT43 = PUBLIC / "heldout43.jsonl"
# The forty-fourth fresh set (README "heldout44"): GitHub issues and pull requests of the long tail (user projects, research
# code, small frameworks, deployment repos) that no corpus file had cited before; small (the search index's first hits for
# every failure family are already corpus sources); none from a repository heldout9 cites.
HELDOUT44 = PUBLIC / "heldout44.jsonl"
# The fifty-fourth fresh set (README "heldout54"): public web pages (Hub model, dataset and Space pages and discussions, pastebin
# pastes, vendor troubleshooting pages, an HPC centre's knowledge base, the Ascend forum, a GitLab ticket), like heldout8, 18, 20,
# 24, 26, 29 and 42; its sources are page URLs, one URL one source, none a GitHub issue, pull request or gist.
HELDOUT54 = PUBLIC / "heldout54.jsonl"
# The fifty-eighth fresh set (README "heldout58"): public web pages (Hub Space status pages and model / Space discussions, pastebin
# pastes, discuss.pytorch.org, vendor troubleshooting pages, engineers' blogs), like heldout54; its sources are page URLs, one URL one
# source, none a GitHub issue, pull request or gist.
HELDOUT58 = PUBLIC / "heldout58.jsonl"
# The sixty-first fresh set (README "heldout61"): public web pages (Hub model, dataset and Space discussions, Hub dataset commits of
# automated code-execution logs, pastebin pastes, the Ascend forum and Huawei's HCCL guide, a Bitbucket issue, engineers' notes), like
# heldout54 and 58; its sources are page URLs, one URL one source, none a GitHub issue, pull request or gist.
HELDOUT61 = PUBLIC / "heldout61.jsonl"
# The sixty-sixth fresh set (README "heldout66"): public web pages (Hub model and dataset discussions, Hub dataset commits of automated
# code-execution logs, Ascend forum threads and an Ascend migration-guide page), like heldout54, 58 and 61; its sources are page URLs, one
# URL one source, none a GitHub issue, pull request or gist. Small: the stored page pools are close to exhausted for these families.
HELDOUT66 = PUBLIC / "heldout66.jsonl"
# The sixty-eighth fresh set (README "heldout68"): public web pages (Hub model discussions, Hub dataset commits of automated
# code-execution logs, Slurm stderr files in a Hub Space, pastebin pastes, a CSDN post, two engineers' blogs), like heldout54, 58, 61 and
# 66; its sources are page URLs, one URL one source, none a GitHub issue, pull request or gist. Small: the stored page pools are close to
# exhausted for the families a multi-node run dies of.
HELDOUT68 = PUBLIC / "heldout68.jsonl"
# The seventieth fresh set (README "heldout70"): public web pages (discuss.pytorch.org, Hub model / Space discussions, Hub dataset commits of
# automated code-execution logs, log files committed to Hub repos, Huawei Cloud ModelArts troubleshooting pages, the Ascend forum, a CSDN post),
# like heldout54, 58, 61, 66 and 68; its sources are page URLs, one URL one source, none a GitHub issue, pull request or gist. Small: the stored
# page pools are close to exhausted for the families a multi-node run dies of.
HELDOUT70 = PUBLIC / "heldout70.jsonl"
# The seventy-fourth fresh set (README "heldout74"): public web pages (Hub model discussions quoting multi-GPU fine-tuning and evaluation
# runs), like heldout70; its sources are page URLs, one URL one source, none a GitHub issue, pull request or gist. Tiny: in a 30-minute
# window the stored page pools gave three new whole lines for the families a multi-GPU training run dies of.
HELDOUT74 = PUBLIC / "heldout74.jsonl"
# The seventy-fifth fresh set (README "heldout75"): public web pages about inference SERVING (a discuss.vllm.ai thread, an engineer's
# llama.cpp OOM write-up, a Kubernetes vLLM runbook, an Ollama-backed run's operations page); its sources are page URLs, one URL one
# source, none a GitHub issue, pull request, gist or mirror. Tiny: the stored page pool for serving failures is content farms and corpus pages.
HELDOUT75 = PUBLIC / "heldout75.jsonl"
# The later public sets, registered in one place (README "heldoutNN" each describes its pool): GitHub issues and pull
# requests whose collectors kept lines unpadded and cited owner/repo#N throughout, new sources only, none from a repository
# heldout9 cites; the value is the set's floor (lines, distinct kinds). Most are small: the first hits of every failure
# family are corpus sources already.
LATER_PUBLIC: dict[int, tuple[int, int]] = {
    45: (45, 14),   # the stacks nearest our users: RL stacks, JAX / XLA on TPU and GPU, ROCm / RCCL, vLLM, Ray, the kubelet
    46: (45, 14),   # GPU inference / serving stacks other than vLLM and SGLang (TensorRT-LLM, lmdeploy, llama.cpp, ollama ...)
    47: (25, 9),    # the newest releases' output (torch 2.8+, Blackwell sm_100 / sm_120, vLLM V1 >= 0.10, hub 1.x, CUDA 13)
    48: (40, 15),   # repositories whose users are largely Chinese-speaking (Qwen, LLaMA-Factory, ms-swift, InternLM ...)
    49: (30, 12),   # GPU training and batch jobs on Kubernetes and cloud batch systems (Kubeflow, KubeRay, Kueue, Volcano ...)
    50: (35, 15),   # agentic / RL post-training runs and the sandboxes and harnesses they drive
    51: (23, 8),    # fine-tuning / post-training frameworks on multi-GPU and multi-node
    52: (14, 6),    # LLM inference serving on Kubernetes and its gateways (llm-d, KServe, AIBrix, Dynamo, KAITO ...)
    53: (24, 12),   # agent evaluation and benchmark harnesses and the engines they drive
    55: (26, 8),    # 2025-09+ issues of the core repositories (vLLM, SGLang, Ray, torch, NCCL, the Hub, verl, SkyRL ...)
    56: (27, 9),    # agentic-RL frameworks and agent harnesses / sandboxes (verifiers, ROCK, R2E-Gym, slime, OpenHands, SkyRL ...)
    57: (35, 17),   # any repository, aimed at what a multi-node GRPO run on GPU clusters hits (NCCL / c10d, engines, Ray, the Hub, Kubernetes)
    59: (18, 9),    # issues opened in 2026 (the newest the index holds), aimed at what a multi-node GRPO run hits; small: the 2026 pool is nearly mined out
    60: (21, 9),    # the RL stack's own repositories (Marin / Iris, SkyRL PRs, Daytona) and crash-fixing PRs of vLLM, SGLang and Ray, aimed at a multi-node GRPO run; small: most hits are corpus sources already
    62: (33, 8),    # object storage under ML training, fine-tuning, RL and serving (S3 / MinIO / GCS / Azure via boto3, pyarrow, s3fs, TF's S3 fs, runai streamer, Ray Train / Tune / Data, KServe, W&B)
    63: (27, 10),   # RL post-training stacks the corpus cites less (the Gensyn RL-swarm GRPO nodes, ROLL, AReaL, prime-rl, SkyRL, verl, TRL / open-r1, vLLM-Omni / vLLM-Ascend); small: the first hits of the big stacks are corpus sources already
    64: (26, 9),    # the Kubernetes layer under GPU training (Volcano / kube-batch, KAI, mpi-operator, Kubeflow trainer, GPU operator / device plugin / DCGM exporter, NCCL in pods, OpenPAI); small: most hits are corpus sources already
    65: (20, 9),    # users of the RL post-training stacks (OpenRLHF, verl, TRL / open-r1, ms-swift GRPO, slime, rLLM, VLM-R1, Flow-GRPO) and the engine / weight-sync / OOM / NCCL lines that end their runs; small: most hits are corpus sources already
    67: (33, 10),   # the long tail around the stack (accelerator vendors' repos: Habana / Gaudi, ROCm / RCCL, flash-attention builds; container and image layers; ComfyUI-style loaders and ollama; DeepSpeed / torch elastic users); small: the first hits of every family are corpus sources already
    69: (31, 12),   # deep, specific queries for the current releases' failure phrasings (vLLM V1 engine / worker deaths, torch c10d / NCCL WARNs, Ray raylet registration, SGLang schedulers, Hub 429 / safetensors / disk) in the repos an RL post-training run meets; small: the first hits of every family are corpus sources already
    71: (29, 8),    # the orchestration layer under GPU jobs (DCGM exporter / device plugin / GPU operator pods, pyxis / enroot, containerd hooks, kubelet disk events, KubeRay / Ray GCS reachability, MCAD dispatch, NCCL IB in clusters, vLLM in KServe); small: the first hits of every family are corpus sources already
    72: (11, 6),    # the other agentic / RL training stacks' multi-node runs (verl, OpenRLHF, TRL GRPO, NeMo RL, EasyR1, prime-rl verifiers, Marin RL); tiny: a 30-minute window over the corpus's most mined pool
    73: (31, 7),    # the inference engines as GRPO rollouts drive them (vLLM V1 EngineCore / sleep-wake / LoRA / tool parsers / CUDA-graph memory, SGLang scheduler / memory-pool checks / weight updates / router), threads new to the corpus; small: most engine threads the index returns are corpus sources already
    76: (10, 5),    # the fine-tuning frameworks' multi-GPU / multi-node runs (LLaMA-Factory; torchtune searched, nothing new whole); tiny: a 30-minute window over a pool earlier sets (30, 40, 48, 51) mined
    77: (16, 8),    # NVIDIA NeMo / NVIDIA-NeMo repositories (Speech, Megatron-Bridge, Automodel; not NeMo RL) and deepspeedai/DeepSpeed: multi-node training deaths (NCCL, watchdog timeouts, OOM, checkpoint shards, the launcher's ssh check); small: a 30-minute window, most hits of these repositories are corpus sources already
    78: (2, 1),     # PyTorch's own repositories (pytorch/pytorch, NVIDIA/nccl, pytorch/torchtitan, meta-pytorch / pytorch-labs), 2025-2026 multi-node deaths; tiny and benign only: every failure line reached was a corpus source or line already
    79: (8, 3),     # 2025-2026 threads of the huggingface/* repositories a GRPO policy side uses (trl, datasets; transformers, huggingface_hub, xet-core, accelerate, peft, safetensors searched): tiny, a 30-minute window over a pool whose first hits are corpus sources already
    80: (14, 4),    # the orchestration layer under multi-GPU training (Ray Core / Train / Data, KubeRay, Volcano, the GPU operator, the device plugin; Kueue / JobSet / Kubeflow Trainer searched, nothing new whole), 2024-2025 threads; tiny: a 30-minute window, most hits of these repositories are corpus sources already
    81: (6, 3),     # failure lines of multi-GPU training runs in 2025-2026 issues of repositories outside the mined pools (research code, model repos, toolkits); tiny: a 30-minute window, nearly every family's first hits are corpus sources already
}
LATER_PUBLIC_PATHS = {f"heldout{n}": PUBLIC / f"heldout{n}.jsonl" for n in LATER_PUBLIC}
CURRENT = ROOT / "tests" / "fixtures" / "corpus" / "current"
FIXTURES_README = ROOT / "tests" / "fixtures" / "README.md"
# Kind names of the issue-15 contract (labels = `kind` in health --json causes; benign = no KILL).
CONTRACT_KINDS = {
    "norm_topk_prob", "dcp_guard_rejected", "hydra_error", "hf_incomplete_download", "hf_weights_missing",
    "stale_image_crash", "hf_http_error", "cuda_oom", "ray_oom_kill", "engine_init_failed", "engine_dead",
    "pg_unplaceable", "pg_timeout", "ray_local_instance", "nccl_error", "ray_node_dead", "ray_worker_died",
    "ray_actor_died", "nccl_timeout", "hf_gated", "hf_repo_not_found", "checkpoint_corrupt", "cuda_error",
    "disk_full", "dist_timeout", "python_crash", "pod_oomkilled", "image_pull", "evicted", "benign",
}
FIELDS = {"kind", "line", "source", "lib", "version", "note"}


def _rows(path: Path) -> list[dict[str, str]]:
    return [json.loads(raw) for raw in path.read_text(encoding="utf-8").splitlines() if raw.strip()]


ROWS = {name: _rows(path) for name, path in SPLITS.items()}


@pytest.mark.parametrize("name", sorted(SPLITS))
def test_entries_are_well_formed(name: str) -> None:
    rows = ROWS[name]
    assert rows, f"{name} split is empty"
    for row in rows:
        assert {"kind", "line", "source", "lib", "version"} <= set(row) <= FIELDS, row
        assert row["kind"] in CONTRACT_KINDS, f"{row['source']}: {row['kind']!r} is not a contract kind"
        assert row["line"] and "\n" not in row["line"], f"{row['source']}: one log line per entry"
        assert row["source"].strip(), row


def test_split_is_by_source_and_disjoint() -> None:
    lines = {name: [r["line"] for r in rows] for name, rows in ROWS.items()}
    sources = {name: {r["source"] for r in rows} for name, rows in ROWS.items()}
    assert not set(lines["dev"]) & set(lines["heldout"]), "a line is on both sides"
    assert not sources["dev"] & sources["heldout"], "a source is on both sides"
    for name, rows in lines.items():
        assert len(rows) == len(set(rows)), f"{name} repeats a line"
    for name, names in sources.items():
        for source in names:
            even = hashlib.sha1(source.encode("utf-8")).digest()[-1] % 2 == 0
            assert ("dev" if even else "heldout") == name, f"{source} is on the wrong side"


FRESH = {"heldout2": HELDOUT2, "heldout3": HELDOUT3, "heldout4": HELDOUT4,
         "heldout5": HELDOUT5, "heldout6": HELDOUT6, "heldout7": HELDOUT7,
         "heldout8": HELDOUT8, "heldout9": HELDOUT9, "heldout10": HELDOUT10,
         "heldout11": HELDOUT11, "heldout12": HELDOUT12, "heldout13": HELDOUT13,
         "heldout14": HELDOUT14, "heldout15": HELDOUT15,
         "heldout16": HELDOUT16, "heldout17": HELDOUT17,
         "heldout18": HELDOUT18, "heldout19": HELDOUT19,
         "heldout20": HELDOUT20, "heldout21": HELDOUT21, "heldout22": HELDOUT22,
         "heldout23": HELDOUT23, "heldout24": HELDOUT24,
         "heldout25": HELDOUT25, "heldout26": HELDOUT26, "heldout27": HELDOUT27,
         "heldout28": HELDOUT28, "heldout29": HELDOUT29, "heldout30": HELDOUT30, "heldout31": HELDOUT31, "heldout32": HELDOUT32,
         "heldout33": HELDOUT33, "heldout34": HELDOUT34, "heldout38": HELDOUT38, "heldout36": HELDOUT36, "heldout35": HELDOUT35, "heldout37": HELDOUT37, "heldout39": HELDOUT39, "heldout40": HELDOUT40, "heldout41": HELDOUT41, "heldout42": HELDOUT42, "heldout43": HELDOUT43, "heldout44": HELDOUT44, "heldout54": HELDOUT54, "heldout58": HELDOUT58, "heldout61": HELDOUT61, "heldout66": HELDOUT66, "heldout68": HELDOUT68, "heldout70": HELDOUT70, "heldout74": HELDOUT74, "heldout75": HELDOUT75, **LATER_PUBLIC_PATHS}   # collected later, each from sources no other file has
# The smaller sets' floors (lines, distinct kinds); the others hold well over a hundred lines.
SMALL_FRESH = {"heldout7": (50, 15), "heldout8": (20, 10), "heldout9": (40, 15), "heldout10": (30, 12),
               "heldout11": (30, 12), "heldout13": (30, 12), "heldout14": (30, 12),
               "heldout15": (30, 12), "heldout16": (15, 10), "heldout17": (50, 15), "heldout18": (40, 15),
               "heldout19": (40, 14), "heldout20": (40, 15),
               "heldout21": (45, 14), "heldout22": (45, 14),
               "heldout23": (45, 14), "heldout24": (40, 15),
               "heldout25": (45, 14), "heldout26": (40, 15), "heldout27": (45, 14),
               "heldout28": (45, 14), "heldout29": (4, 3), "heldout30": (35, 12), "heldout31": (40, 12), "heldout32": (40, 12),
               "heldout33": (18, 6), "heldout34": (14, 10), "heldout38": (16, 7), "heldout36": (17, 9), "heldout35": (30, 11), "heldout37": (35, 12), "heldout39": (35, 9), "heldout40": (19, 10), "heldout41": (35, 10), "heldout42": (8, 5), "heldout43": (19, 9), "heldout44": (20, 12), "heldout54": (30, 15), "heldout58": (30, 15), "heldout61": (27, 12), "heldout66": (19, 6), "heldout68": (19, 7), "heldout70": (19, 8), "heldout74": (3, 2), "heldout75": (5, 3), **{f"heldout{n}": floor for n, floor in LATER_PUBLIC.items()}}


@pytest.mark.parametrize("name", sorted(FRESH))
def test_fresh_heldout_is_well_formed(name: str) -> None:
    rows = _rows(FRESH[name])
    min_lines, min_kinds = SMALL_FRESH.get(name, (100, 20))
    assert len(rows) >= min_lines, f"{name} should hold at least {min_lines} lines"
    for row in rows:
        assert {"kind", "line", "source", "lib", "version"} <= set(row) <= FIELDS, row
        assert row["kind"] in CONTRACT_KINDS, f"{row['source']}: {row['kind']!r} is not a contract kind"
        assert row["line"] and "\n" not in row["line"], f"{row['source']}: one log line per entry"
        assert row["source"].strip(), row
    if name in ("heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout9", "heldout10", "heldout11",
                "heldout12", "heldout13", "heldout15", "heldout16", "heldout17", "heldout19", "heldout21",
                "heldout22", "heldout23", "heldout25", "heldout27", "heldout28",
                "heldout30", "heldout31", "heldout32", "heldout33", "heldout34", "heldout38", "heldout36", "heldout35", "heldout37", "heldout39", "heldout40", "heldout41", "heldout43", "heldout44") or name in LATER_PUBLIC_PATHS:   # their collectors kept lines unpadded and cited owner/repo#N throughout
        for row in rows:
            assert row["line"] == row["line"].rstrip(), f"{row['source']}: trailing padding is not part of a line"
            assert re.fullmatch(r"[\w.-]+/[\w.-]+#\d+", row["source"]), f"{row['source']}: cite owner/repo#N"
    if name == "heldout14":   # GitHub issues (owner/repo#N) and public pages (the page URL), lines unpadded
        for row in rows:
            assert row["line"] == row["line"].rstrip(), f"{row['source']}: trailing padding is not part of a line"
            assert re.fullmatch(r"[\w.-]+/[\w.-]+#\d+|https?://\S+", row["source"]), f"{row['source']}: cite it"
    if name in ("heldout8", "heldout18", "heldout20", "heldout24",
                "heldout26", "heldout29", "heldout42", "heldout54", "heldout58", "heldout61", "heldout66", "heldout68", "heldout70", "heldout74", "heldout75"):   # web pages: lines unpadded, each source one page URL
        for row in rows:
            assert row["line"] == row["line"].rstrip(), f"{row['source']}: trailing padding is not part of a line"
            assert re.fullmatch(r"https?://\S+", row["source"]), f"{row['source']}: cite the page URL"
    lines = [r["line"] for r in rows]
    assert len(lines) == len(set(lines)), f"{name} repeats a line"
    kinds = {r["kind"] for r in rows}
    assert "benign" in kinds and len(kinds) >= min_kinds, f"{name} should spread over the contract kinds"


# GitHub keeps an issue's number when its repository moves or its owner is renamed, and redirects the old name:
# `volcengine/verl#4503` is `verl-project/verl#4503`. Sources are compared under the current name.
RENAMED = {"volcengine/verl": "verl-project/verl", "hiyouga/llama-factory": "hiyouga/llamafactory",
           "modelscope/swift": "modelscope/ms-swift", "lightning-ai/lightning": "lightning-ai/pytorch-lightning",
           "microsoft/deepspeed": "deepspeedai/deepspeed", "microsoft/megatron-deepspeed": "deepspeedai/megatron-deepspeed",
           "microsoft/deepspeedexamples": "deepspeedai/deepspeedexamples", "microsoft/deepspeed-mii": "deepspeedai/deepspeed-mii"}
RENAMED_OWNERS = {"thudm": "zai-org"}


def _canonical(source: str) -> str:
    """`owner/repo#N` lower-cased under the repository's current name; any other source as it is."""
    m = re.fullmatch(r"([\w.-]+)/([\w.-]+)(#\d+)", source)
    if m is None:
        return source
    owner, repo = m.group(1).lower(), m.group(2).lower()
    moved = RENAMED.get(f"{owner}/{repo}", f"{RENAMED_OWNERS.get(owner, owner)}/{repo}")
    return moved + m.group(3)


def test_renamed_repositories_compare_under_their_current_name() -> None:
    assert _canonical("volcengine/verl#4503") == _canonical("verl-project/verl#4503") == "verl-project/verl#4503"
    assert _canonical("THUDM/slime#7") == "zai-org/slime#7"
    assert _canonical("https://example.com/a#b") == "https://example.com/a#b"


@pytest.mark.parametrize("name", sorted(FRESH))
def test_fresh_heldout_shares_no_source_or_line_with_any_other_corpus_file(name: str) -> None:
    rows = _rows(FRESH[name])
    others = [r for split in ROWS.values() for r in split]
    others += [r for other, path in FRESH.items() if other != name for r in _rows(path)]
    others += _rows(ROOT / "tests" / "fixtures" / "real_lines" / "lines.jsonl")
    others += [r for path in sorted(CURRENT.glob("*.jsonl")) for r in _rows(path)]
    other_sources = {_canonical(str(r.get("source"))) for r in others}
    other_lines = {r.get("line") for r in others}
    cited = {_canonical(c) for c in re.findall(r"[\w.-]+/[\w.-]+#\d+", FIXTURES_README.read_text(encoding="utf-8"))}
    for row in rows:
        assert _canonical(row["source"]) not in other_sources, f"{row['source']} is already used by another corpus file"
        assert _canonical(row["source"]) not in cited, f"{row['source']} is cited in tests/fixtures/README.md"
        assert row["line"] not in other_lines, f"{row['source']}: line already in another corpus file"


def test_no_source_of_the_old_corpus_is_reused() -> None:
    old = ROOT / "tests" / "fixtures" / "real_lines" / "lines.jsonl"
    old_sources = {r["source"] for r in _rows(old)}
    old_lines = {r["line"] for r in _rows(old)}
    for rows in ROWS.values():
        assert not {r["source"] for r in rows} & old_sources
        assert not {r["line"] for r in rows} & old_lines


def _measure_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("measure_causes", ROOT / "scripts" / "measure_causes.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_measure_scores_named_surfaced_and_benign(tmp_path: Path) -> None:
    measure = _measure_module()
    timeout = (
        "[rank0]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 0] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, "
        "Timeout(ms)=600000) ran for 600060 milliseconds before timing out."
    )
    corpus = tmp_path / "c.jsonl"
    rows = [
        {"kind": "nccl_timeout", "line": timeout, "source": "t#1", "lib": "torch", "version": ""},
        {"kind": "cuda_error", "line": timeout, "source": "t#2", "lib": "torch", "version": ""},
        {"kind": "benign", "line": "NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>", "source": "t#3", "lib": "nccl", "version": ""},
        {"kind": None, "line": timeout, "source": "t#4", "lib": "torch", "version": ""},
    ]
    corpus.write_text("".join(json.dumps(r) + "\n" for r in rows))
    summary = measure.measure_file(corpus).summary()
    assert (summary["failures"], summary["named"], summary["surfaced"]) == (2, 1, 2)
    # the null-labelled (old corpus) benign line is KILLed by a fatal cause: counted as a benign KILL
    assert (summary["benign"], summary["benign_kills"]) == (2, 1)
    assert summary["confusion"]["cuda_error -> nccl_timeout"] == 1


def test_measure_reads_unrecognized_as_surfaced() -> None:
    measure = _measure_module()
    entry = {"kind": "python_crash", "line": "ValueError: x", "source": "t#5"}
    unrecognized = [{"signature": "ValueError: x", "count": 1, "first": {"line": "ValueError: x", "rank": None, "time": None}}]
    seen = measure.outcome(entry, {"verdict": "WARN", "causes": [], "cause_of_death": None, "unrecognized": unrecognized})
    assert (seen.primary, seen.surfaced) == (None, True)
    lost = measure.outcome(entry, {"verdict": "OK", "causes": [], "cause_of_death": None})  # main today: no key
    assert (lost.primary, lost.surfaced) == (None, False)
    assert measure.primary_kind({"causes": [{"kind": "a"}], "cause_of_death": {"kind": "b"}}) == "b"
    assert measure.primary_kind({"causes": [{"kind": "a"}], "cause_of_death": None}) == "a"


def _repos(rows: list[dict[str, str]]) -> set[str]:
    """The repositories rows cite (`owner/repo` of `owner/repo#N`, under its current name; a page URL cites none)."""
    return {_canonical(str(r.get("source"))).split("#", 1)[0] for r in rows if "#" in str(r.get("source"))}


def test_heldout9_repositories_are_new_to_the_corpus() -> None:
    """Set 9 was drawn from repositories no other corpus file cites (not only new issue numbers)."""
    others = [r for split in ROWS.values() for r in split]
    others += [r for other, path in FRESH.items() if other != "heldout9" for r in _rows(path)]
    others += _rows(ROOT / "tests" / "fixtures" / "real_lines" / "lines.jsonl")
    others += [r for path in sorted(CURRENT.glob("*.jsonl")) for r in _rows(path)]
    used = _repos(others)
    for row in _rows(HELDOUT9):
        assert not _repos([row]) & used, f"{row['source']}: its repository is already a corpus source"


@pytest.mark.parametrize(("mine", "others"), [
    # sets 12 and 13: pools disjoint by repository kind (training side / serving and infrastructure side)
    (HELDOUT13, (HELDOUT12, HELDOUT9)),
    # set 14: collected after 12 and 13 from the pool they left (public pages, repositories no file cites)
    (HELDOUT14, (HELDOUT12, HELDOUT13, HELDOUT9)),
    # set 15: new issues of the core repositories, never one set 9 cites (that set's own test forbids it)
    (HELDOUT15, (HELDOUT9,)),
    # set 16: older (2023-2024) issues of the same core repositories, never one set 9 cites
    (HELDOUT16, (HELDOUT9,)),
    # set 17: issues of any repository, searched by failure family, never one set 9 cites
    (HELDOUT17, (HELDOUT9,)),
    # set 19: issues of the RL / post-training stacks and the engines their users paste, never one set 9 cites
    (HELDOUT19, (HELDOUT9,)),
    # set 21: issues of the training libraries under the policy workers, never one set 9 cites
    (HELDOUT21, (HELDOUT9,)),
    # set 22: issues of the infrastructure GPU jobs run on, never one set 9 cites
    (HELDOUT22, (HELDOUT9,)),
    # set 23: issues of any repository an RL stack's users meet, searched by failure family, never one set 9 cites
    (HELDOUT23, (HELDOUT9,)),
    # set 25: issues of the applications and tools built on the stack, never one set 9 cites
    (HELDOUT25, (HELDOUT9,)),
    # set 27: 2025-2026 issues of the serving engines, Ray, torch / NCCL, the Hub and verl, never one set 9 cites
    (HELDOUT27, (HELDOUT9,)),
    # set 28: 2025-2026 issues of the serving engines and the RL stacks' rollout paths, never one set 9 cites
    (HELDOUT28, (HELDOUT9,)),
    # set 29: forum threads and a paste (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT29, (HELDOUT9,)),
    # set 30: issues of the fine-tuning and training frameworks, never one set 9 cites
    (HELDOUT30, (HELDOUT9,)),
    # set 31: issues of the cluster layer under GPU training (NCCL / EFA, container runtime, Kubernetes, Slurm), never one set 9 cites
    (HELDOUT31, (HELDOUT9,)),
    # set 32: issues of any repository, searched by failure family for the rarest kinds, never one set 9 cites
    (HELDOUT32, (HELDOUT9,)),
    # set 33: issues of the agentic RL stacks and their sandboxes / agent harnesses, never one set 9 cites
    (HELDOUT33, (HELDOUT9,)),
    # set 34: issues filed in 2026 in any repository of the stack, never one set 9 cites
    (HELDOUT34, (HELDOUT9,)),
    # set 38: issues of the serving engines (vLLM, SGLang) and the repositories around them, never one set 9 cites
    (HELDOUT38, (HELDOUT9,)),
    # set 36: issues of the RL post-training stacks (the lines that end multi-node runs), never one set 9 cites
    (HELDOUT36, (HELDOUT9,)),
    # set 35: issues of repositories no corpus file had cited before, never one set 9 cites
    (HELDOUT35, (HELDOUT9,)),
    # set 37: issues of Ray / KubeRay users and the stacks whose users paste Ray cluster failures, never one set 9 cites
    (HELDOUT37, (HELDOUT9,)),
    # set 39: issues of PyTorch core and the NVIDIA training stack (NCCL, Megatron-LM, apex, GPU operator, device plugin), never one set 9 cites
    (HELDOUT39, (HELDOUT9,)),
    # set 40: issues of the Hugging Face stack and the fine-tuning frameworks, never one set 9 cites
    (HELDOUT40, (HELDOUT9,)),
    # set 41: issues of the orchestration layer under GPU training and serving (operators, gang schedulers, serving stacks, Slurm), never one set 9 cites
    (HELDOUT41, (HELDOUT9,)),
    # set 42: blog posts and Q&A pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT42, (HELDOUT9,)),
    # set 43: new issues of repositories other corpus files already cite, aimed at the rarest kinds, never one set 9 cites
    (HELDOUT43, (HELDOUT9,)),
    # set 44: issues of the long tail (repositories no corpus file had cited before), never one set 9 cites
    (HELDOUT44, (HELDOUT9,)),
    # set 54: public web pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT54, (HELDOUT9,)),
    # set 58: public web pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT58, (HELDOUT9,)),
    # set 61: public web pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT61, (HELDOUT9,)),
    # set 66: public web pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT66, (HELDOUT9,)),
    # set 68: public web pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT68, (HELDOUT9,)),
    # set 70: public web pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT70, (HELDOUT9,)),
    # set 74: public web pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT74, (HELDOUT9,)),
    # set 75: public web pages (page URLs, no owner/repo#N), never a repository set 9 cites
    (HELDOUT75, (HELDOUT9,)),
    # the later public sets (LATER_PUBLIC), never one set 9 cites
    *[(path, (HELDOUT9,)) for path in LATER_PUBLIC_PATHS.values()],
])
def test_a_later_set_shares_no_repository_with_its_siblings(mine: Path, others: tuple[Path, ...]) -> None:
    """No repository feeds two sets drawn from disjoint pools; none takes from a repository set 9 cites
    (set 9's own test forbids it)."""
    for other in others:
        shared = _repos(_rows(mine)) & _repos(_rows(other))
        assert not shared, f"{mine.name} shares repositories with {other.name}: {sorted(shared)}"


SOURCE = ROOT / "tests" / "fixtures" / "corpus" / "source"


@pytest.mark.parametrize("path", sorted(SOURCE.glob("*.jsonl")), ids=lambda p: p.stem)
def test_a_source_catalogue_set_is_well_formed_and_new(path: Path) -> None:
    """The source-catalogue sets (lines rendered from libraries' own raise / log sites, README there):
    contract kinds, one unpadded line each, a cited site (the wheel or repo with its version or commit, and its file),
    and no line any other corpus file has."""
    rows = _rows(path)
    assert len(rows) >= 50 and "benign" in {r["kind"] for r in rows}
    for row in rows:
        assert {"kind", "line", "source", "lib", "version"} <= set(row) <= FIELDS, row
        assert row["kind"] in CONTRACT_KINDS, f"{row['source']}: {row['kind']!r} is not a contract kind"
        assert row["line"] and "\n" not in row["line"] and row["line"] == row["line"].rstrip(), row["source"]
        cited = re.search(r"@[\w.+-]+|-\d+\.\d+", row["source"]) and re.search(r"[\w/-]+\.(?:py|c|cc|cpp|cu|cuh|h|hpp|go|rs|so)\b", row["source"])
        assert cited, f"{row['source']}: cite the site (<wheel or repo> with its version or commit, and its file)"
    lines = [r["line"] for r in rows]
    assert len(lines) == len(set(lines)), f"{path.name} repeats a line"
    others = [r for split in ROWS.values() for r in split] + [r for p in FRESH.values() for r in _rows(p)]
    others += [r for p in sorted(CURRENT.glob("*.jsonl")) for r in _rows(p)]
    others += [r for p in sorted(SOURCE.glob("*.jsonl")) if p != path for r in _rows(p)]
    assert not set(lines) & {r.get("line") for r in others}, f"{path.name} shares a line with another corpus file"
