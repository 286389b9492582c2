"""Real-time Mode from Python through ytstream.writers, across a restart on the checkpoint."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pyspark.sql import DataFrame, SparkSession
from tables import checkpoint, dynamic_table, fill, queue_with_consumer, rows, wait

from ytstream import writers

TABLET = "__spyt_streaming_src_tablet_index"
ROW = "__spyt_streaming_src_row_index"
MIN_BATCH = "spark.sql.streaming.realTimeMode.minBatchDuration"


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
