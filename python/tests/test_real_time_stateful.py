"""Stateful Real-time queries: Spark 4.3 runs them (a pipelined shuffle into the stateful
operator), Spark 4.1 and 4.2 refuse them. The yt source feeds them; the append writer writes
their update rows at least once. The exactly-once writer upserts by source position, which an
aggregate or deduplication no longer carries, so it stays for stateless queries."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pyspark
import pytest
from pyspark.sql import DataFrame, SparkSession
from tables import checkpoint, dynamic_table, fill, queue_with_consumer, rows, wait

from ytstream import writers

MIN_BATCH = "spark.sql.streaming.realTimeMode.minBatchDuration"
SHUFFLE = "spark.sql.shuffle.partitions"
KEYS = 4
STATEFUL_REAL_TIME = tuple(int(p) for p in pyspark.__version__.split(".")[:2]) >= (4, 3)


@pytest.fixture()
def spark(yt_spark: SparkSession) -> Iterator[SparkSession]:
    # The stages of a pipelined shuffle run at once: the source's tasks and one task per shuffle
    # partition need a slot each, on local[2] one source task and one shuffle partition.
    yt_spark.conf.set(MIN_BATCH, "1s")
    yt_spark.conf.set(SHUFFLE, "1")
    yield yt_spark
    yt_spark.conf.unset(MIN_BATCH)
    yt_spark.conf.set(SHUFFLE, "2")


def _run(
    spark: SparkSession,
    yt_client: Any,
    yt_path: str,
    shape: Callable[[DataFrame], DataFrame],
    out_schema: list[dict[str, Any]],
    done: Callable[[list[dict[str, Any]]], bool],
) -> list[dict[str, Any]]:
    """20 rows, the query, 20 more rows while it runs; the output once done(rows) holds."""
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(yt_client, out, out_schema)
    fill(
        yt_client,
        queue,
        [{"$tablet_index": i % 2, "id": i, "data": f"k{i % KEYS}"} for i in range(20)],
    )
    stream = (
        spark.readStream.format("yt")
        .option("consumer_path", consumer)
        .option("real_time_partitions_per_task", 2)
        .load(queue)
    )
    query = writers.start_real_time(
        shape(stream),
        writers.append(out),
        checkpoint_location=checkpoint(f"{yt_path}/checkpoint"),
        real_time="2 seconds",
    )
    try:
        wait(lambda: len(rows(yt_client, out, "*")) > 0 or not query.isActive, what="first rows")
        assert query.isActive, query.exception()
        more = range(20, 40)
        fill(
            yt_client,
            queue,
            [{"$tablet_index": i % 2, "id": i, "data": f"k{i % KEYS + 1}"} for i in more],
        )
        wait(
            lambda: done(rows(yt_client, out, "*")) or not query.isActive,
            what="the stateful result",
        )
        assert query.isActive, query.exception()
        return rows(yt_client, out, "*")
    finally:
        query.stop()


@pytest.mark.skipif(not STATEFUL_REAL_TIME, reason="Spark 4.3's Real-time Mode")
def test_group_by_count_writes_each_new_count(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    # k0..k3 five times each, then k1..k4 five times each: final counts 5, 10, 10, 10, 5.
    final = {"k0": 5, "k1": 10, "k2": 10, "k3": 10, "k4": 5}

    def counts(out: list[dict[str, Any]]) -> dict[str, int]:
        best: dict[str, int] = {}
        for r in out:
            best[r["data"]] = max(best.get(r["data"], 0), r["count"])
        return best

    out = _run(
        spark,
        yt_client,
        yt_path,
        lambda df: df.groupBy("data").count(),
        [{"name": "data", "type": "string"}, {"name": "count", "type": "int64"}],
        lambda out: counts(out) == final,
    )
    assert counts(out) == final
    # update mode: a key's counts come out growing, batch by batch
    for key in final:
        seen = [r["count"] for r in out if r["data"] == key]
        assert seen == sorted(seen), (key, seen)


@pytest.mark.skipif(not STATEFUL_REAL_TIME, reason="Spark 4.3's Real-time Mode")
def test_drop_duplicates_writes_each_key_once(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    keys = [f"k{k}" for k in range(KEYS + 1)]
    out = _run(
        spark,
        yt_client,
        yt_path,
        lambda df: df.dropDuplicates(["data"]),
        [{"name": "id", "type": "int64"}, {"name": "data", "type": "string"}],
        lambda out: {r["data"] for r in out} == set(keys),
    )
    # no failure in this run, so no batch replayed: each key once, with its first row
    assert sorted(r["data"] for r in out) == keys
    first = {r["data"]: r["id"] for r in out}
    assert all(first[f"k{k}"] < 20 for k in range(KEYS)), first
    assert first[f"k{KEYS}"] >= 20, first


@pytest.mark.skipif(STATEFUL_REAL_TIME, reason="Spark 4.1 and 4.2 only")
def test_before_spark_4_3_a_stateful_real_time_query_is_refused(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(
        yt_client, out, [{"name": "id", "type": "int64"}, {"name": "data", "type": "string"}]
    )
    fill(
        yt_client,
        queue,
        [{"$tablet_index": i % 2, "id": i, "data": f"k{i % KEYS}"} for i in range(8)],
    )
    stream = spark.readStream.format("yt").option("consumer_path", consumer).load(queue)
    with pytest.raises(Exception, match="STREAMING_REAL_TIME_MODE") as refused:
        query = writers.start_real_time(
            stream.dropDuplicates(["data"]),
            writers.append(out),
            checkpoint_location=checkpoint(f"{yt_path}/checkpoint"),
            real_time="2 seconds",
        )
        try:
            query.awaitTermination(60)
        finally:
            query.stop()
    assert "Deduplicate" in str(refused.value) or "dropDuplicates" in str(refused.value).lower()
    assert rows(yt_client, out, "*") == []


def _refusal(
    spark: SparkSession, yt_client: Any, yt_path: str, partitions: int, shuffle: int
) -> str:
    """The error a stateful Real-time query of one task per partition ends with on local[2]."""
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=partitions)
    dynamic_table(
        yt_client,
        out,
        [
            {"name": "data", "type": "string", "sort_order": "ascending"},
            {"name": "count", "type": "int64"},
        ],
    )
    fill(
        yt_client,
        queue,
        [{"$tablet_index": i % partitions, "id": i, "data": f"k{i % KEYS}"} for i in range(8)],
    )
    spark.conf.set(SHUFFLE, str(shuffle))
    stream = spark.readStream.format("yt").option("consumer_path", consumer).load(queue)
    query = writers.start_real_time(
        stream.groupBy("data").count(),
        writers.upsert(out),
        checkpoint_location=checkpoint(f"{yt_path}/checkpoint"),
        real_time="2 seconds",
    )
    try:
        with pytest.raises(Exception) as refused:
            query.awaitTermination(120)
            raise AssertionError("the query ran on without its slots")
    finally:
        query.stop()
    assert rows(yt_client, out, "*") == []
    return str(refused.value)


@pytest.mark.skipif(not STATEFUL_REAL_TIME, reason="Spark 4.3's Real-time Mode")
def test_a_pipelined_group_larger_than_the_slots_is_refused_once_by_spark(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    # 2 source tasks fit local[2]; with 2 shuffle partitions the pipelined group needs 4 slots.
    # The source's check steps aside and Spark's own names the numbers: one message.
    message = _refusal(spark, yt_client, yt_path, partitions=2, shuffle=2)
    assert "CONCURRENT_SCHEDULER_INSUFFICIENT_SLOT" in message, message
    assert "needs 4 concurrent task slots" in message and "only 2 are currently free" in message
    assert "Real-time Mode needs a task slot" not in message, message


@pytest.mark.skipif(not STATEFUL_REAL_TIME, reason="Spark 4.3's Real-time Mode")
def test_more_source_tasks_than_slots_are_refused_with_the_shuffles_in_the_fix(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    # 3 source tasks on local[2]: the source's check refuses, and its fix counts the shuffle's
    # 2 tasks too, so that following it does not run into Spark's check next.
    message = _refusal(spark, yt_client, yt_path, partitions=3, shuffle=2)
    assert "Real-time Mode needs a task slot" in message, message
    assert "in 3 tasks" in message and "Spark has 2 task slots" in message, message
    assert "spark.sql.shuffle.partitions=2 more slots per shuffle, 5 in all" in message, message
    assert "CONCURRENT_SCHEDULER_INSUFFICIENT_SLOT" not in message, message


def test_the_upsert_writer_refuses_an_ordered_table_and_a_query_without_the_key(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    queue, consumer = f"{yt_path}/queue", f"{yt_path}/consumer"
    ordered, counts = f"{yt_path}/ordered", f"{yt_path}/counts"
    queue_with_consumer(yt_client, queue, consumer)
    dynamic_table(yt_client, ordered, [{"name": "data", "type": "string"}])
    dynamic_table(
        yt_client,
        counts,
        [
            {"name": "data", "type": "string", "sort_order": "ascending"},
            {"name": "count", "type": "int64"},
        ],
    )
    stream = spark.readStream.format("yt").option("consumer_path", consumer).load(queue)
    cases = [
        (ordered, stream.select("data"), f"{ordered} is an ordered table"),
        (counts, stream.selectExpr("id AS count"), f"key column data of {counts}"),
    ]
    for path, df, problem in cases:
        with pytest.raises(ValueError, match=r"^ytstream\.writers\.upsert: ") as refused:
            writers.start_real_time(
                df, writers.upsert(path), checkpoint_location=checkpoint(f"{yt_path}/ckpt")
            )
        assert problem in str(refused.value), refused.value
    assert spark.streams.active == []
