"""moto's S3 in server mode on 127.0.0.1: the real HTTP S3 protocol on loopback, for every test
that needs an object store (runtime staging, checkpoints, trials, flight-recorder dumps)."""

from __future__ import annotations

import socket
import uuid
from typing import Any

TEST_KEY, TEST_SECRET = "testing-key", "testing-secret"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class S3Server:
    """A started server with one bucket; `env()` points irisrl's store at it; `stop()` ends it."""

    def __init__(self, bucket: str = "irisrl-rdv") -> None:
        import logging

        from moto.server import ThreadedMotoServer

        logging.getLogger("werkzeug").setLevel(logging.ERROR)   # no per-request access log
        self.port = free_port()
        self.server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)
        self.server.start()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.bucket = bucket
        self.client().create_bucket(Bucket=self.bucket)

    def client(self) -> Any:
        import boto3

        return boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=TEST_KEY,
                            aws_secret_access_key=TEST_SECRET, region_name="us-east-1")

    def env(self) -> dict[str, str]:
        return {"IRISRL_S3_ENDPOINT_URL": self.endpoint, "IRISRL_S3_ACCESS_KEY_ID": TEST_KEY,
                "IRISRL_S3_SECRET_ACCESS_KEY": TEST_SECRET}

    def fresh_uri(self) -> str:
        return f"s3://{self.bucket}/runs/{uuid.uuid4().hex[:10]}"

    def stop(self) -> None:
        self.server.stop()
