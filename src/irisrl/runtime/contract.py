"""Names shared by the launcher (plan/, backends/) and the in-container runtime.
Stdlib only: the runtime ships with the job onto a stock image."""

import re

LOG_PREFIX = "[irisrl]"                 # every runtime line the health ladder reads starts with this
BUNDLE_DIR = ".irisrl"                  # added to the workspace bundle by the launcher
BUNDLE_LIB = ".irisrl/lib"              # holds irisrl/__init__.py, irisrl/runtime/ and irisrl/core/{procs,deadline}.py
BUNDLE_PLAN = ".irisrl/plan.json"       # the masked LaunchPlan JSON (rehearsal reads it)
WORKDIR_DEFAULT = "/app"                # IRIS_WORKDIR in the container (remapped to a host dir locally)

# Port names the runtime asks Iris for (IRIS_PORT_<NAME> arrives in the task env).
RUNTIME_PORTS: tuple[str, ...] = ("ray",)

# irisrl's own variables (never AWS_*/R2_*): a loopback object store for tests/local mode.
ENV_S3_ENDPOINT = "IRISRL_S3_ENDPOINT_URL"
ENV_S3_KEY = "IRISRL_S3_ACCESS_KEY_ID"
ENV_S3_SECRET = "IRISRL_S3_SECRET_ACCESS_KEY"   # a secret: masked in every rendering

# Job tags (also the env the task sees): kind, sandbox provider, series.
ENV_KIND = "IRISRL_KIND"                # always "agentic-rl"
ENV_SANDBOX = "IRISRL_SANDBOX"          # "daytona" when the run uses Harbor, else "none"
ENV_SERIES = "IRISRL_SERIES"
ENV_JOB_ID = "IRISRL_JOB_ID"

# Ray token authentication: every gang gets its own random token (plan/build.py), a secret env
# value like HF_TOKEN. `ray start` (head and workers), the runtime's ray.init and the trainer's
# driver inherit it; a client without it is refused. Names as Ray 2.60.0 reads them
# (ray/_private/authentication/authentication_token_setup.py AUTH_MODE_ENV_VAR = "RAY_AUTH_MODE";
# Ray's token loader takes RAY_AUTH_TOKEN first, then RAY_AUTH_TOKEN_PATH, then ~/.ray/auth_token,
# as its loader's docstring in ray-project/ray says). runtime/ray_node.pin_auth_mode makes the
# mode explicit for every `ray start` (a stray ~/.ray/auth_token must not half-enable it).
ENV_RAY_AUTH_MODE = "RAY_AUTH_MODE"
ENV_RAY_AUTH_TOKEN = "RAY_AUTH_TOKEN"    # a secret: masked in every rendering

# Runtime entry points and rendezvous-dir layout (added by the runtime; see docs/internals/runtime.md).
CONTROLLER_MODULE = "irisrl.runtime.controller"   # python -m ... [RUNTIME_ARGV] -- CMD
REHEARSAL_MODULE = "irisrl.runtime.rehearsal"     # python -m ... --plan .irisrl/plan.json
RDV_HEAD = "head.json"      # written only by rank 0: address, acks, beat, done (a dir holding one was used before)
RDV_DONE = "done.json"      # final marker: {"head_id", "status": ok|failed|terminated|rendezvous_failed, "exit_code", "detail"}
RDV_HELLO_DIR = "hello"     # hello/<rank>-<nonce>: a worker announced itself
RDV_BYE_DIR = "bye"         # bye/<rank>-<nonce>: a worker stopped its Ray after the done marker

# One liveness sample per line in the task log: `irisrl-liveness: {json}` (runtime/liveness.py
# writes it, observe/liveness.py reads it; the tag may sit anywhere in a prefixed log line).
LIVENESS_TAG = "irisrl-liveness:"
LIVENESS_VERSION = 1


# An HF repo id (`org/name`) as the hub spells it: the one pattern for models and datasets.
HF_REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


# Train data named by an HF dataset id is extracted on EVERY node into <task root>/<repo name>,
# and the trainer's data.train_data points there (MarinSkyRL cloud/iris/rl_data.py
# resolve_rl_train_data and hf_datasets.py is_hf_dataset_path @ f2e41858f1fb72ab8023db6ff51c85d5a467e38b).
def is_hf_dataset_id(item: str) -> bool:
    """`org/name`: exactly one '/', both parts non-blank, not a ./ ../ / ~ path, no backslash."""
    if item.count("/") != 1 or item.startswith(("./", "../", "/", "~")) or "\\" in item:
        return False
    return all(part.strip() for part in item.split("/"))


def task_dir(task_root: str, item: str) -> str:
    """Where the HF task dataset `item` lands on every node."""
    return f"{task_root.rstrip('/')}/{item.split('/')[-1]}"


# NCCL flight-recorder dumps (runtime/flight_recorder.py says where these facts come from):
# launch points both variables at a node-local directory of the job; the runtime copies the
# dump files to <rendezvous dir>/<FR_STORE_DIR>/task-<r>.attempt-<a>/ before the task exits.
FR_ENV_VARS = ("TORCH_NCCL_DEBUG_INFO_TEMP_FILE", "TORCH_FR_DUMP_TEMP_FILE")   # old name, torch>=2.9 name
FR_ROOT = "/tmp/fr_dumps"
FR_FILE = "nccl_fr_rank"            # SkyRL's default file prefix (torch appends the global rank)
FR_STORE_DIR = "flight-recorder"


def fr_dump_path(configured: str | None, job_name: str) -> str:
    """`/tmp/fr_dumps/<job_name>/<file>`: the configured prefix's file name (else nccl_fr_rank)
    in a node-local directory of this job, whatever directory the config named."""
    name = (configured or "").strip().rstrip("/").rsplit("/", 1)[-1] or FR_FILE
    return f"{FR_ROOT}/{job_name}/{name}"


def fr_env(extra_env: "dict[str, str]", job_name: str) -> "dict[str, str]":
    """Both dump variables at the job's path (the file name of the config's value kept, the
    torch>=2.9 name's first, as SkyRL reads them)."""
    configured = next((extra_env[k] for k in reversed(FR_ENV_VARS) if extra_env.get(k)), None)
    path = fr_dump_path(configured, job_name)
    return {k: path for k in FR_ENV_VARS}
