"""Real-time Mode from Python through ytstream.writers, across a restart on the checkpoint."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pyspark
import pytest
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.streaming.query import StreamingQuery
from tables import (
    checkpoint,
    consumer_offsets,
    dynamic_table,
    fill,
    queue_with_consumer,
    rows,
    wait,
)

from ytstream import writers

TABLET = "__spyt_streaming_src_tablet_index"
ROW = "__spyt_streaming_src_row_index"
MIN_BATCH = "spark.sql.streaming.realTimeMode.minBatchDuration"
# Spark 4.3 tracks a stateless Real-time query's progress asynchronously unless told otherwise
# (spark.sql.streaming.realTimeMode.asyncProgressTrackingByDefault.enabled).
ASYNC_BY_DEFAULT = tuple(int(p) for p in pyspark.__version__.split(".")[:2]) >= (4, 3)


@pytest.fixture()
def spark(yt_spark: SparkSession) -> Iterator[SparkSession]:
    yt_spark.conf.set(MIN_BATCH, "1s")
    yield yt_spark
    yt_spark.conf.unset(MIN_BATCH)


def _stream(spark: SparkSession, queue: str, consumer: str) -> DataFrame:
    return (
        spark.readStream.format("yt")
        .option("consumer_path", consumer)
        .option("include_service_columns", True)
        .load(queue)
    )


def _feed_and_run_twice(
    spark: SparkSession,
    yt_client: Any,
    queue: str,
    consumer: str,
    writer: writers.ForeachWriter,
    ckpt: str,
    written: Any,
) -> None:
    """20 rows, a run; 10 rows while it runs; stop; a second run on the checkpoint; 10 more."""
    fill(yt_client, queue, [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in range(20)])
    for run, (upto, more) in enumerate([(30, range(20, 30)), (40, range(30, 40))]):
        query = writers.start_real_time(
            _stream(spark, queue, consumer), writer, checkpoint_location=ckpt, real_time="2 seconds"
        )
        try:
            if run == 0:
                wait(lambda: written() >= 20, what="the first 20 rows")
            fill(
                yt_client, queue, [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in more]
            )
            wait(lambda upto=upto: written() >= upto, what=f"{upto} rows")
            assert query.isActive, query.exception()
        finally:
            query.stop()


def test_exactly_once_writer_across_a_restart(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
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

    def written() -> int:
        return len(rows(yt_client, out, "id"))

    _feed_and_run_twice(
        spark,
        yt_client,
        queue,
        consumer,
        writers.exactly_once(out, flush_interval=0.005),
        checkpoint(f"{yt_path}/checkpoint"),
        written,
    )
    got = sorted((r[TABLET], r[ROW], r["id"], r["data"]) for r in rows(yt_client, out, "*"))
    assert got == sorted((i % 2, i // 2, i, f"d{i}") for i in range(40))


def test_producer_writer_across_a_restart(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    queue, consumer = f"{yt_path}/queue", f"{yt_path}/consumer"
    out, producer = f"{yt_path}/out", f"{yt_path}/producer"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(
        yt_client, out, [{"name": "id", "type": "int64"}, {"name": "data", "type": "string"}], 2
    )
    yt_client.create("queue_producer", producer)

    def written() -> int:
        return len(rows(yt_client, out, "id"))

    _feed_and_run_twice(
        spark,
        yt_client,
        queue,
        consumer,
        writers.producer(out, producer),
        checkpoint(f"{yt_path}/checkpoint"),
        written,
    )
    ids = [r["id"] for r in rows(yt_client, out, "id, data")]
    assert sorted(ids) == list(range(40)), f"{len(ids) - len(set(ids))} duplicated"


def test_writer_arguments_are_checked_in_python() -> None:
    with pytest.raises(ValueError, match="path='out' is not a Cypress path"):
        writers.exactly_once("out")
    with pytest.raises(ValueError, match="producer_path='p' is not a Cypress path"):
        writers.producer("//home/out", "p")
    with pytest.raises(ValueError, match="flush_interval=-1"):
        writers.append("//home/out", flush_interval=-1)
    with pytest.raises(ValueError, match="max_buffered_rows=0"):
        writers.append("//home/out", max_buffered_rows=0)


def test_the_writers_own_checks_come_back_as_value_errors(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer)
    dynamic_table(yt_client, out, [{"name": "id", "type": "int64"}])  # ordered, not sorted
    with pytest.raises(ValueError, match=r"^ytstream\.writers\.exactly_once: "):
        writers.start_real_time(
            _stream(spark, queue, consumer),
            writers.exactly_once(out),
            checkpoint_location=checkpoint(f"{yt_path}/checkpoint"),
        )


def _execution(query: StreamingQuery) -> str:
    """The JVM class that runs the query's batches."""
    return str(query._jsq.streamingQuery().getClass().getSimpleName())


def _feed_for_four_batches(
    query: StreamingQuery, yt_client: Any, queue: str, fed: int, written: Callable[[], int]
) -> int:
    """20 rows four times, each waited for in the output, then four more batch boundaries."""
    for _ in range(4):
        more = range(fed, fed + 20)
        fill(yt_client, queue, [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in more])
        fed += 20
        wait(lambda upto=fed: written() >= upto or not query.isActive, what=f"{fed} rows")
        assert query.isActive, query.exception()

    def batch() -> int:
        progress = query.lastProgress
        return int(progress["batchId"]) if progress else -1

    wait(lambda: batch() >= 0 or not query.isActive, what="a batch's progress")
    first = batch()
    # at least four boundaries, each with a commit of an older batch's end
    wait(lambda: batch() >= first + 4 or not query.isActive, what="four more batches")
    assert query.isActive, query.exception()
    return fed


@pytest.mark.skipif(not ASYNC_BY_DEFAULT, reason="Spark 4.3's default progress tracking")
def test_asynchronous_progress_tracking_is_exactly_once_across_restarts(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    # Without asyncProgressTrackingEnabled: each batch starts while the previous one's offsets
    # and commit are still being written, and Spark commits a batch's end to the source once a
    # later batch's offsets are written, after later batches have started.
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
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
    ckpt = checkpoint(f"{yt_path}/checkpoint")

    def written() -> int:
        return len(rows(yt_client, out, "id"))

    fed = 0
    for run in range(3):
        query = writers.start_real_time(
            _stream(spark, queue, consumer),
            writers.exactly_once(out, flush_interval=0.005),
            checkpoint_location=ckpt,
            real_time="1 second",
        )
        try:
            assert _execution(query) == "AsyncProgressTrackingMicroBatchExecution", run
            fed = _feed_for_four_batches(query, yt_client, queue, fed, written)
        finally:
            query.stop()
        assert query.exception() is None, query.exception()
        offsets = consumer_offsets(yt_client, consumer)
        # the consumer follows the ends written to the checkpoint: moved, and never past a row
        assert sum(offsets.values()) > 0, (run, offsets)
        assert all(offsets.get(p, 0) <= fed // 2 for p in (0, 1)), (run, offsets, fed)
    got = sorted((r[TABLET], r[ROW], r["id"], r["data"]) for r in rows(yt_client, out, "*"))
    assert got == sorted((i % 2, i // 2, i, f"d{i}") for i in range(fed))
