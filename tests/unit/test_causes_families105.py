"""Passes 105 and after on issue 15 (twelfth round). Our own reconstructed lines, not the corpus's, through both
readers (tests/support/one_line.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))   # importlib mode: no package imports
from one_line import assert_named, both, primary  # noqa: E402

GCS = "https://storage.googleapis.com"


def test_an_inference_engine_named_by_its_class_or_source_file(tmp_path: Path) -> None:
    # a serving framework's engine in its own words (Huawei MindIE: a `...InferEngine` class, `infer_engine*.cc`)
    for line in ("MyInferEngine failed to init the model pool",
                 "2026-01-02 10:00:00.000001 4021 error infer_engine_core.cc:88] Engine init of the model runner failed."):
        assert_named(tmp_path, "engine_init_failed", line)


def test_hccl_is_the_collective_library_family(tmp_path: Path) -> None:
    # Ascend's HCCL logs its own errors as `[ERROR] HCCL(pid,proc):<time> [file.cc:N] ...`
    line = ("[ERROR] HCCL(4242,python3):2026-01-02-10:00:00.000.001 [hccl_socket_manager.cc:700] [4300][Wait][LinkEstablish]"
            "wait socket establish timeout, role[1] rank[3] timeout[120 s]")
    assert_named(tmp_path, "nccl_error", line)


@pytest.mark.parametrize(("line", "kind"), [
    # ---- the object store, read as the Hub is read (passes 106-112)
    # the status the client prints decides (google-api-core's per-status classes, botocore's ClientError)
    (f"google.api_core.exceptions.Forbidden: 403 GET {GCS}/download/storage/v1/b/rl-data/o/prompts.parquet?alt=media: denied", "hf_gated"),
    (f"google.api_core.exceptions.NotFound: 404 GET {GCS}/download/storage/v1/b/rl-models/o/policy%2Fconfig.json?alt=media", "hf_weights_missing"),
    (f"google.api_core.exceptions.NotFound: 404 GET {GCS}/storage/v1/b/rl-data-typo/o?prefix=prompts%2F", "hf_repo_not_found"),
    (f"google.api_core.exceptions.ServiceUnavailable: 503 PUT {GCS}/upload/storage/v1/b/rl-ckpts/o?uploadType=resumable", "hf_http_error"),
    ("botocore.exceptions.ClientError: An error occurred (AccessDenied) when calling the PutObject operation: Access Denied", "hf_gated"),
    ("botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the UploadPart operation: Please reduce your request rate.",
     "hf_http_error"),
    # else the clients' own class and message words
    ("azure.core.exceptions.ResourceNotFoundError: The specified container does not exist.", "hf_repo_not_found"),
    ("azure.core.exceptions.ResourceNotFoundError: The specified blob does not exist.", "hf_weights_missing"),
    ("azure.core.exceptions.ClientAuthenticationError: Server failed to authenticate the request.", "hf_gated"),
    ("obstore.exceptions.PermissionDeniedError: The operation lacked the necessary privileges to complete for path ckpt/step_10/rank_3.pt",
     "hf_gated"),
    ("google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found.", "hf_gated"),
    ("google.resumable_media.common.DataCorruption: Checksum mismatch while downloading: the body was cut", "hf_incomplete_download"),
    ("s3transfer.exceptions.S3UploadFailedError: Failed to upload /ckpt/rank_0.pt to rl-ckpts/rank_0.pt: An error occurred (503)",
     "hf_http_error"),
    # a transport failure on the store's own URL is transient
    ("requests.exceptions.ConnectionError: HTTPSConnectionPool(host='rl-data.s3.us-east-2.amazonaws.com', port=443): "
     "Max retries exceeded with url: /prompts.parquet (Caused by NewConnectionError('refused'))", "hf_http_error"),
    # ---- current set 31 (pass 108)
    # the AWS SDK for C++ under pyarrow.fs: its error codes and the curl failure under them
    ("OSError: When getting information for key 'policy/model-00002-of-00004.safetensors' in bucket 'rl-stage': AWS Error "
     "ACCESS_DENIED during HeadObject operation: No response body.", "hf_gated"),
    ("OSError: When reading information for key 'policy/config.json' in bucket 'rl-stage': AWS Error NETWORK_CONNECTION during "
     "HeadObject operation: curlCode: 7, Couldn't connect to server", "hf_http_error"),
    ("OSError: AWS Error NETWORK_CONNECTION during GetObject operation: curlCode: 18, Transferred a partial file", "hf_incomplete_download"),
    # s3fs's errno-mapped throttling (EBUSY with the service's own message); the errno's own text is not it
    ("OSError: [Errno 16] Slow down, please.", "hf_http_error"),
    # botocore's own connection classes name the store under urllib3's errors
    ("urllib3.exceptions.ReadTimeoutError: AWSHTTPConnectionPool(host='10.0.0.9', port=9000): Read timed out. (read timeout=60)",
     "hf_http_error"),
    # a skewed clock is refused as a bad signature is
    ("botocore.exceptions.ClientError: An error occurred (RequestTimeTooSkewed) when calling the GetObject operation: skewed",
     "hf_gated"),
    # a key path named after the rendezvous is a path, not a rendezvous wait
    ("obstore.exceptions.GenericError: Generic S3 error: Error performing PUT http://10.0.0.9:9000/rl-stage/rendezvous/run-3/node-0.json "
     "in 2ms - Server returned non-2xx status code: 400 Bad Request", "hf_http_error"),
    # aiohttp's parser on a body shorter than its Content-Length
    ("aiohttp.http_exceptions.ContentLengthError: 400, message: Not enough data to satisfy content length header.", "hf_incomplete_download"),
    # ---- public set 62 (pass 109)
    # the AWS SDK's UPPER_SNAKE codes are the S3 codes (pyarrow.fs under Ray Tune's syncer)
    ("ERROR syncer.py:437 -- Caught sync error: Sync process failed: When initiating multiple part upload for key 'ckpt/x' in bucket 'b': "
     "AWS Error INVALID_ACCESS_KEY_ID during CreateMultipartUpload operation: The key id is unknown.", "hf_gated"),
    # botocore's transport errors name the endpoint they could not reach
    ("ERROR upload: Connection was closed before we received a valid response from endpoint URL: \"http://minio:9000/ckpts/step_9.pt\".",
     "hf_http_error"),
    # a store by name
    ("Storage initialization failed: S3 authentication failed. Set AWS_ACCESS_KEY_ID or use anonymous credentials.", "hf_gated"),
    # ---- current set 33 (pass 110)
    # an fsspec filesystem's missing object: FileNotFoundError(path), the bucket-relative path alone, no errno
    ("FileNotFoundError: rl-stage/models/policy-8b/tokenizer_config.json", "hf_weights_missing"),
    ("[rank2]: FileNotFoundError: rl-stage/rollouts/run-7/", "hf_weights_missing"),
    # s3fs's PermissionError carries the service's refusal, not an errno
    ("[rank0]: PermissionError: The security token included in the request is invalid.", "hf_gated"),
    # a read the store client retried and gave up on is the transport's, not a corrupt checkpoint
    ("OSError: smart_open.s3._SeekableReader('rl-stage', 'ckpt/step_9/optim.pt'): failed to read 4096 bytes after 5 attempts", "hf_http_error"),
    # ---- source set storage_wrappers (pass 112)
    # the frameworks' own words for the store
    ("FileNotFoundError: Path not found: (<pyarrow._s3fs.S3FileSystem object at 0x7f00aa>, rl-ckpts/run-3/checkpoint_000002)",
     "hf_weights_missing"),
    ("RuntimeError: Access denied to GCS resource 'rl-models'. Verify permissions.", "hf_gated"),
    ("RuntimeError: Invalid AWS credentials. Verify AWS_ACCESS_KEY_ID.", "hf_gated"),
    ("multistorageclient.types.RetryableError: Too many request to PUT object(s) at rl-ckpts/iter_0000400/__0_0.distcp", "hf_http_error"),
    ("ValueError: Digest mismatch for object s3://rl-data/prompts-00000-of-00004.parquet with version 7", "hf_incomplete_download"),
    # ---- Kubernetes: source set k8s_newest (pass 115)
    # the kubelet refusing a pod at admission: it never ran on that node
    ("  Message:          Pod was rejected: Allocate failed due to rpc error: code = Unknown desc = no healthy GPUs left", "pg_unplaceable"),
    ("trainer-0-3-x7k2p   0/1     TopologyAffinityError   0          12s", "pg_unplaceable"),
    # Kueue turning the workload down at its admission checks, or its queue stopped
    ("5s   Warning   AdmissionCheckRejected   workload/grpo-run-7   The ProvisioningRequest could not be satisfied", "pg_unplaceable"),
    ("    Message:               ClusterQueue cq-gpu is stopped", "pg_unplaceable"),
    # the kubelet's other image reasons
    ("trainer-0-1-q2w3e   0/1     ImageInspectError   0          40s", "image_pull"),
])
def test_each_line_reads_as_its_family(tmp_path: Path, line: str, kind: str) -> None:
    assert_named(tmp_path, kind, line)


def test_what_the_store_family_leaves_to_others(tmp_path: Path) -> None:
    # an overwrite guard is no fetch failure: the catch-all's
    assert primary(both(tmp_path, [f"google.api_core.exceptions.PreconditionFailed: 412 POST {GCS}/upload/storage/v1/b/rl-ckpts/o"
                                   "?ifGenerationMatch=0: At least one of the pre-conditions you specified did not hold."])) == "python_crash"
    # a rendezvous polling a bucket timed out on its peers, not on the store
    assert primary(both(tmp_path, ["TimeoutError: rank 5 timed out after 900s waiting for the rank-0 rendezvous at "
                                   "s3://rl-bucket/rendezvous/run-7/head.json"])) == "dist_timeout"
    # a full local disk under a store client is the disk's
    assert primary(both(tmp_path, ["obstore.exceptions.GenericError: Generic LocalFileSystem error: Unable to write: "
                                   "No space left on device (os error 28)"])) == "disk_full"
    # and a store retrying a read that then succeeds is no death
    assert both(tmp_path, ["WARNING:botocore.retryhandler: Retry needed, retrying request after delay of: 0.4 (503 SlowDown)",
                           "INFO: staged 12 files from s3://rl-bucket/models/policy"])["verdict"] == "NO-KILL"


def test_a_tools_own_diagnostics_without_a_level_word_are_surfaced(tmp_path: Path) -> None:
    # CPython's exit on a missing `-m` module, pip's / uv's error bullet and the chain under a tool's error
    for line in ("/opt/venv/bin/python3.12: No module named trainer_main",
                 "python: can't open file '/app/train.py': [Errno 2] No such file or directory",
                 "  × Preparing metadata (pyproject.toml) did not run successfully.",
                 "  cause: Because rollout-lib==2.0 depends on core-lib>=3 and you require core-lib<3, we can conclude that your "
                 "requirements are unsatisfiable.",
                 "  Caused by: checksum of the downloaded wheel does not match the lockfile"):
        report = both(tmp_path, [line])
        assert primary(report) == "python_crash" and report["unrecognized"], line
    # a Ray worker's note of an optional module it went without stays no death
    assert both(tmp_path, ["(pid=4242) No module named 'engine._build_info'"])["verdict"] == "NO-KILL"


def test_a_busy_device_is_no_store(tmp_path: Path) -> None:
    assert primary(both(tmp_path, ["OSError: [Errno 16] Device or resource busy: '/mnt/scratch'"])) != "hf_http_error"


def test_rays_gcs_is_no_object_store(tmp_path: Path) -> None:
    assert primary(both(tmp_path, ["RuntimeError: Failed to connect to GCS at 10.0.0.2:6379 within 60 seconds: timed out"])) != "hf_http_error"


def test_the_os_own_missing_file_and_refusal_are_not_the_stores(tmp_path: Path) -> None:
    assert primary(both(tmp_path, ["FileNotFoundError: [Errno 2] No such file or directory: 'configs/grpo.yaml'"])) != "hf_weights_missing"
    assert primary(both(tmp_path, ["PermissionError: [Errno 13] Permission denied: '/mnt/ckpt/token_cache'"])) != "hf_gated"
    assert primary(both(tmp_path, ["PermissionError: Tried to overwrite /mnt/data/prompts but a dataset can't overwrite itself."])) != "hf_gated"


def test_a_missing_bucket_named_as_such_is_the_stores(tmp_path: Path) -> None:
    # pyarrow's S3 filesystem under Ray Train's storage_path: the bucket, not the run's checkpoint, is missing
    for line in ("OSError: Bucket 'rl-ckpts' not found. To create buckets, enable the allow_bucket_creation option.",
                 "(TrainController pid=77) OSError: Bucket 'grpo-ckpt-eu' not found. To create buckets, enable the allow_bucket_creation option."):
        assert_named(tmp_path, "hf_repo_not_found", line)
    # the run's own checkpoint that is not there stays the checkpoint's
    assert primary(both(tmp_path, ["FileNotFoundError: checkpoint /mnt/ckpt/step_40 not found"])) != "hf_repo_not_found"


def test_advice_to_check_credentials_is_no_refusal(tmp_path: Path) -> None:
    line = ("CommError: Unable to connect to S3 (NoSuchBucket): The specified bucket does not exist. Check that your "
            "authentication credentials are valid.")
    assert_named(tmp_path, "hf_repo_not_found", line)


def test_rust_and_go_records_at_their_warning_level_kill_nothing_alone(tmp_path: Path) -> None:
    # tracing-subscriber's `<time>  WARN target: msg` (the routers in front of the engines), logrus' `WARN[0001]`
    for line in ("2026-01-02T10:00:00.123Z  WARN router::core::tokenizer: Failed to fetch model 'org/m' from HuggingFace: "
                 "HTTP status client error (401 Unauthorized) for url (http://10.0.0.5/api/models/org/m)",
                 "WARN[0003] failed to pull image cache layer, retrying: connection reset by peer"):
        assert both(tmp_path, [line])["verdict"] == "NO-KILL", line
    # NCCL's WARN is its error channel, not a level: its failure stays named
    nccl = "[2026-01-02 10:00:00] gpu-3:412:500 [0] transport/net.cc:254 NCCL WARN Call to connect returned Connection refused"
    assert_named(tmp_path, "nccl_error", nccl)


def test_a_router_that_cannot_reach_its_engine(tmp_path: Path) -> None:
    # the request could not be sent to the worker at all: the engine is gone
    dead = ("2026-01-02 10:00:00 ERROR router_rs::routers::http::router: src/routers/http/router.rs:2006: Failed to send typed request "
            "worker_url=http://10.0.0.7:8000 route=/generate error=error sending request for url (http://10.0.0.7:8000/generate)")
    assert_named(tmp_path, "engine_dead", dead)
    # the router's start-up gave up waiting for its engines
    start = "RuntimeError: Timeout 30s waiting for hosts [\"http://10.0.0.7:8000\"] to become healthy."
    assert_named(tmp_path, "engine_init_failed", start)
    # the Hub's own Rust client saying the same words is the Hub's
    hub = ("2026-01-02T10:00:00Z ERROR hf_xet::download: error sending request for url "
           "(https://huggingface.co/api/models/org/m/revision/main)")
    assert primary(both(tmp_path, [hub])) != "engine_dead"


def test_our_orchestrator_and_launcher_in_their_own_words(tmp_path: Path) -> None:
    # Iris: a task whose worker failed under it
    for line in ("iris.client.client.JobFailedError: Job /rl/grpo-7 JOB_STATE_WORKER_FAILED: Pod not found",
                 "[0/0] irisrl-task-status: state=WORKER_FAILED exit_code=none error=\"worker lost\" pending=\"\""):
        assert_named(tmp_path, "evicted", line)
    # MarinSkyRL's task runtime ending the run: shown, never dropped
    for line in ("=== TERMINATION ARTIFACT task=_rl_grpo-7_0 ts=1796467822 reason=driver exit_code=1 (head rank 0) ===",
                 "[task-runtime] driver stalled after 5400s without stdout/stderr progress (head rank 0)"):
        assert both(tmp_path, [line])["unrecognized"], line
    # its Hub mirror finding a file shorter than listed
    assert primary(both(tmp_path, ["ValueError: Hugging Face size mismatch for model-00002-of-00004.safetensors: expected 4000, "
                                   "found 2048"])) == "hf_incomplete_download"
