"""The guide's jobs through Spark Connect's thin client, against the emulator.

One Connect server serves the module's tests: the class that Spark's start-connect-server.sh
starts (SparkConnectServer), run with the connector on its class path by --jars, as the script
does, through the pip distribution's spark-submit (PySpark's wheel ships bin/spark-submit but not
sbin/start-connect-server.sh). The tests talk to it with pyspark.sql.connect's client only. One
more test runs SparkSession.builder.remote("local[2]"), PySpark's own local Connect server, in a
Python process of its own.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyspark
import pytest
from guide_jobs import queue_to_table_with_data_length, transactional_counts_per_user
from tables import (
    checkpoint,
    consumer_offsets,
    dynamic_table,
    fill,
    queue_with_consumer,
    rows,
    wait,
)

import ytstream
from ytstream import writers
from ytstream.testing import Emulator

SERVER_CLASS = "org.apache.spark.sql.connect.service.SparkConnectServer"
LOCAL_JOB = Path(__file__).parent / "jobs" / "connect_local.py"


class _Settings:
    """Collects what ytstream.configure sets, for the server's properties file."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    def config(self, key: str, value: str) -> _Settings:
        self.values[key] = value
        return self


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


class ConnectServer:
    """A SparkConnectServer process: its port, its log and its process."""

    def __init__(self, process: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.process = process
        self.port = port
        self.log = log

    @property
    def url(self) -> str:
        return f"sc://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def start_connect_server(emulator: Emulator, folder: Path, timeout: float = 120) -> ConnectServer:
    """start-connect-server.sh --jars <connector>, in the foreground: spark-submit --class."""
    spark_home = Path(pyspark.__file__).parent
    settings = ytstream.configure(_Settings(), proxy=emulator.url, token=emulator.token).values
    jars = settings.pop("spark.jars")
    port = _free_port()
    settings.update(
        {
            "spark.connect.grpc.binding.port": str(port),
            "spark.ui.enabled": "false",
            "spark.sql.shuffle.partitions": "2",
            "spark.driver.extraJavaOptions": "-XX:TieredStopAtLevel=1",
            # Real-time batches of 2 s in the tests
            "spark.sql.streaming.realTimeMode.minBatchDuration": "1s",
            **writers.CONNECT_PLUGIN,
        }
    )
    # the token in a file only this user reads, not on the command line where ps shows it
    properties = folder / "connect-server.properties"
    properties.touch(mode=0o600)
    properties.write_text("".join(f"{k}={v}\n" for k, v in settings.items()), encoding="utf-8")
    log = folder / "connect-server.log"
    command = [
        str(spark_home / "bin" / "spark-submit"),
        "--class",
        SERVER_CLASS,
        "--name",
        "Spark Connect server",
        "--master",
        "local[2]",
        "--jars",
        jars,
        "--properties-file",
        str(properties),
    ]
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "SPARK_HOME": str(spark_home)},
            start_new_session=True,
        )
    server = ConnectServer(process, port, log)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        if _listening(port):
            return server
        time.sleep(0.2)
    server.stop()
    raise RuntimeError(
        f"the Connect server did not listen on {port} within {timeout:.0f} s; its log:\n"
        + log.read_text(encoding="utf-8", errors="replace")[-6000:]
    )


@pytest.fixture(scope="module")
def connect_server(
    yt_emulator: Emulator, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ConnectServer]:
    server = start_connect_server(yt_emulator, tmp_path_factory.mktemp("connect"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture()
def connect(connect_server: ConnectServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A Connect session of the thin client (a new server-side session per test).

    SparkSession.builder.remote() marks the Python process as Connect-only for good (the
    variable SPARK_CONNECT_MODE_ENABLED), which would turn the other tests' classic session into
    a Connect one; the mark is set here for the test only, so that pyspark.sql.functions builds
    Connect columns as in a Connect-only process, and pyspark.sql.connect's own builder is used.
    """
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    monkeypatch.setenv("SPARK_CONNECT_MODE_ENABLED", "1")
    spark = ConnectSession.builder.remote(connect_server.url).create()
    try:
        yield spark
    finally:
        spark.stop()


def test_the_client_is_the_thin_client(connect: Any) -> None:
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    assert isinstance(connect, ConnectSession)
    assert not hasattr(connect, "_jsparkSession"), "no JVM in this process"
    assert ytstream.jar_path() in connect.conf.get("spark.jars")


def test_connect_queue_to_table_with_data_length(
    connect: Any, yt_client: Any, yt_path: str
) -> None:
    """SPYT's Python listing (the guide's listing 3) through the Connect client."""
    queue_to_table_with_data_length(connect, yt_client, yt_path)


def test_connect_transactional_mode_counts_per_user(
    connect: Any, yt_client: Any, yt_path: str
) -> None:
    """The guide's transactional job, the mode set on the Connect session."""
    transactional_counts_per_user(connect, yt_client, yt_path)


def test_local_connect_server_from_remote_local(
    yt_emulator: Emulator, yt_client: Any, yt_path: str
) -> None:
    """SparkSession.builder.remote("local[2]") with configure's spark.jars, in its own process."""
    queue, consumer, result = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/result"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(
        yt_client,
        result,
        [{"name": "data", "type": "string"}, {"name": "data_length", "type": "int64"}],
    )
    words = ["x", "yy", "", "zzzz"]
    fill(
        yt_client,
        queue,
        [{"$tablet_index": i % 2, "id": i, "data": w} for i, w in enumerate(words)],
    )
    done = subprocess.run(
        [
            sys.executable,
            str(LOCAL_JOB),
            queue,
            consumer,
            result,
            checkpoint(f"{yt_path}/checkpoints"),
        ],
        env={**os.environ, "YT_PROXY": yt_emulator.url, "YT_TOKEN": yt_emulator.token or ""},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "client: pyspark.sql.connect.session.SparkSession" in done.stdout
    assert "done" in done.stdout
    written = sorted(
        (r["data"], r["data_length"]) for r in rows(yt_client, result, "data, data_length")
    )
    assert written == sorted((w, len(w)) for w in words)
    assert consumer_offsets(yt_client, consumer) == {0: 2, 1: 2}


TABLET = "__spyt_streaming_src_tablet_index"
ROW = "__spyt_streaming_src_row_index"


def _sorted_out(yt_client: Any, out: str) -> None:
    dynamic_table(
        yt_client,
        out,
        [
            {"name": TABLET, "type": "int64", "sort_order": "ascending", "required": True},
            {"name": ROW, "type": "int64", "sort_order": "ascending", "required": True},
            {"name": "id", "type": "int64"},
            {"name": "data", "type": "string"},
        ],
    )


def test_connect_exactly_once_writer_in_real_time_across_a_restart(
    connect: Any, yt_client: Any, yt_path: str
) -> None:
    """ytstream.writers from the thin client: the server's RealTimeWriterCommand starts it."""
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    _sorted_out(yt_client, out)
    ckpt = checkpoint(f"{yt_path}/checkpoint")

    def written() -> int:
        return len(rows(yt_client, out, "id"))

    fill(yt_client, queue, [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in range(20)])
    for run, (upto, more) in enumerate([(30, range(20, 30)), (40, range(30, 40))]):
        query = writers.start_real_time(
            connect.readStream.format("yt")
            .option("consumer_path", consumer)
            .option("include_service_columns", True)
            .load(queue),
            writers.exactly_once(out, flush_interval=0.005),
            checkpoint_location=ckpt,
            real_time="2 seconds",
        )
        try:
            assert type(query).__module__.startswith("pyspark.sql.connect.")
            assert query.name.startswith("ytstream-real-time-")
            if run == 0:
                wait(lambda: written() >= 20, what="the first 20 rows")
            fill(
                yt_client, queue, [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in more]
            )
            wait(lambda upto=upto: written() >= upto, what=f"{upto} rows")
            assert query.isActive, query.exception()
        finally:
            query.stop()
        assert not any(q.id == query.id for q in connect.streams.active)

    got = sorted((r[TABLET], r[ROW], r["id"], r["data"]) for r in rows(yt_client, out, "*"))
    assert got == sorted((i % 2, i // 2, i, f"d{i}") for i in range(40))


def test_connect_writer_checks_come_back_as_value_errors(
    connect: Any, yt_client: Any, yt_path: str
) -> None:
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer)
    dynamic_table(yt_client, out, [{"name": "id", "type": "int64"}])  # ordered, not sorted
    with pytest.raises(ValueError, match=r"^ytstream\.writers\.exactly_once: .*ordered table"):
        writers.start_real_time(
            connect.readStream.format("yt").option("consumer_path", consumer).load(queue),
            writers.exactly_once(out),
            checkpoint_location=checkpoint(f"{yt_path}/checkpoint"),
        )


def test_connect_closing_the_session_stops_the_real_time_query(
    connect_server: ConnectServer, yt_client: Any, yt_path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command registers its query as Connect does its own: a closed session stops it."""
    from pyspark.sql.connect.session import SparkSession as ConnectSession

    monkeypatch.setenv("SPARK_CONNECT_MODE_ENABLED", "1")
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer)
    _sorted_out(yt_client, out)
    fill(yt_client, queue, [{"id": i, "data": f"d{i}"} for i in range(5)])
    session = ConnectSession.builder.remote(connect_server.url).create()
    query = writers.start_real_time(
        session.readStream.format("yt")
        .option("consumer_path", consumer)
        .option("include_service_columns", True)
        .load(queue),
        writers.exactly_once(out),
        checkpoint_location=checkpoint(f"{yt_path}/checkpoint"),
        real_time="1 minute",
    )
    wait(lambda: len(rows(yt_client, out, "id")) >= 5, what="5 rows")
    stopped = f"[id = {query.id}, runId = {query.runId}] was stopped"
    assert stopped not in connect_server.log.read_text(encoding="utf-8", errors="replace")
    session.stop()
    wait(
        lambda: stopped in connect_server.log.read_text(encoding="utf-8", errors="replace"),
        timeout=60,
        what="the query stopped with its session",
    )
