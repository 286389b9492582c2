"""spark_session and the plugin's emulator, and the README's quick start as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pyspark.sql import SparkSession
from tables import consumer_offsets, dynamic_table, fill, queue_with_consumer, rows

import ytstream
from ytstream.testing import Emulator, start_emulator

QUICK_START = Path(__file__).parents[1] / "examples" / "queue_to_table.py"


def test_spark_session_hands_out_a_running_session_and_leaves_it_running(
    yt_spark: SparkSession, yt_emulator: Emulator
) -> None:
    with ytstream.spark_session(proxy=yt_emulator.url, token=yt_emulator.token) as spark:
        assert spark is yt_spark
        assert ytstream.jar_path() in (spark.conf.get("spark.jars") or "")
    assert yt_spark.range(3).count() == 3, "the session that was running still runs"


def test_a_session_reads_what_configure_set(yt_spark: SparkSession, yt_emulator: Emulator) -> None:
    conf = yt_spark.sparkContext.getConf()
    assert conf.get("spark.hadoop.yt.proxy") == yt_emulator.url
    assert conf.get("spark.hadoop.yt.token") == yt_emulator.token
    assert conf.get("spark.yt.streaming.transactional") == "false"


def test_the_emulator_runs_from_the_packaged_jar_and_stops_by_its_process(tmp_path: Path) -> None:
    emulator = start_emulator(log_dir=tmp_path)
    try:
        assert emulator.url.startswith("http://127.0.0.1:")
        assert "ytsaurus-emulator-all.jar" in " ".join(emulator.process.args)  # type: ignore[arg-type]
        client = emulator.client()
        client.create("map_node", "//home/x", recursive=True)
        assert client.get("//sys/@cluster_name") == "emulator"
    finally:
        emulator.stop()
    assert emulator.process.returncode is not None


def test_a_wrong_token_is_refused_by_the_plugins_emulator(yt_emulator: Emulator) -> None:
    from yt.wrapper.errors import YtError

    wrong = Emulator(yt_emulator.process, yt_emulator.url, "not-the-token", yt_emulator.log)
    with pytest.raises(YtError):
        wrong.client().get("//sys/@cluster_name")


def test_readme_quick_start(yt_emulator: Emulator, yt_client: Any) -> None:
    """The README's job in a Python process of its own: spark_session builds and stops it."""
    queue, consumer = "//home/quickstart/queue", "//home/quickstart/consumer"
    result = "//home/quickstart/result"
    yt_client.create("map_node", "//home/quickstart", recursive=True, ignore_existing=True)
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(
        yt_client,
        result,
        [{"name": "data", "type": "string"}, {"name": "data_length", "type": "int64"}],
    )
    words = ["a", "bb", "ccc", "", "queue"]
    fill(
        yt_client,
        queue,
        [{"$tablet_index": i % 2, "id": i, "data": w} for i, w in enumerate(words)],
    )
    done = subprocess.run(
        [sys.executable, str(QUICK_START), yt_emulator.address],
        env={**os.environ, "YT_TOKEN": yt_emulator.token or ""},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "rows in the last batch" in done.stdout
    got = sorted(
        (r["data"], r["data_length"]) for r in rows(yt_client, result, "data, data_length")
    )
    assert got == sorted((w, len(w)) for w in words)
    assert consumer_offsets(yt_client, consumer) == {0: 3, 1: 2}
