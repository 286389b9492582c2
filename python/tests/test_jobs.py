"""The guide's PySpark jobs, written as its listings write them, against the emulator.

One Spark session serves every test (the plugin's yt_spark); each test has its own tables under
yt_path and its own checkpoint in Cypress.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from guide_jobs import queue_to_table_with_data_length, transactional_counts_per_user
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql.functions import col, size, upper
from tables import (
    checkpoint,
    consumer_offsets,
    dynamic_table,
    fill,
    pull_all,
    queue_with_consumer,
    rows,
)


@pytest.fixture()
def spark(yt_spark: SparkSession) -> Iterator[SparkSession]:
    """The shared session, with the settings a test changes put back afterwards."""
    yield yt_spark
    yt_spark.conf.set("spark.yt.streaming.transactional", "false")
    yt_spark.conf.unset("spark.yt.write.dynBatchSize")


def test_queue_to_table_with_data_length(spark: SparkSession, yt_client: Any, yt_path: str) -> None:
    """SPYT's Python listing: select data, add data_length = length(data)."""
    queue_to_table_with_data_length(spark, yt_client, yt_path)


def test_rows_per_batch_and_write_request_size(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    """spark.yt.write.dynBatchSize=100 and max_rows_per_partition=1000, outputMode append."""
    spark.conf.set("spark.yt.write.dynBatchSize", "100")
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer)
    # $timestamp in an ordered table's schema: each row's commit timestamp, one per request.
    dynamic_table(
        yt_client,
        out,
        [
            {"name": "id", "type": "int64"},
            {"name": "data", "type": "string"},
            {"name": "$timestamp", "type": "uint64"},
        ],
    )
    fill(yt_client, queue, [{"id": i, "data": f"row {i}"} for i in range(2500)])

    query = (
        spark.readStream.format("yt")
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", 1000)
        .load(queue)
        .writeStream.outputMode("append")
        .format("yt")
        .option("path", out)
        .option("checkpointLocation", checkpoint(f"{yt_path}/checkpoints"))
        .trigger(processingTime="0 seconds")
        .start()
    )
    try:
        query.processAllAvailable()
        batches = [p["numInputRows"] for p in query.recentProgress if p["numInputRows"] > 0]
    finally:
        query.stop()

    assert batches == [1000, 1000, 500]
    written = pull_all(yt_client, out)
    assert sorted(r["id"] for r in written) == list(range(2500))
    assert all(r["data"] == f"row {r['id']}" for r in written)
    per_request: dict[int, int] = {}
    for r in written:
        per_request[r["$timestamp"]] = per_request.get(r["$timestamp"], 0) + 1
    assert sorted(per_request.values()) == [100] * 25


def test_composite_types_keep_their_types(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    """parsing_type_v3=true on read, write_type_v3=true on write: list, struct, dict, optional."""
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    tags = {"type_name": "list", "item": "utf8"}
    point = {
        "type_name": "struct",
        "members": [
            {"name": "x", "type": "double"},
            {"name": "y", "type": {"type_name": "optional", "item": "double"}},
        ],
    }
    counts = {
        "type_name": "optional",
        "item": {"type_name": "dict", "key": "utf8", "value": "uint64"},
    }
    schema = [
        {"name": "id", "type_v3": "int64"},
        {"name": "tags", "type_v3": tags},
        {"name": "point", "type_v3": point},
        {"name": "counts", "type_v3": counts},
    ]
    queue_with_consumer(yt_client, queue, consumer, schema=schema)
    dynamic_table(
        yt_client,
        out,
        [*schema, {"name": "tag_count", "type_v3": "int32"}, {"name": "x", "type_v3": "double"}],
    )
    fill(
        yt_client,
        queue,
        [
            {"id": 1, "tags": ["a", "b"], "point": {"x": 1.5, "y": None}, "counts": [["k", 7]]},
            {"id": 2, "tags": [], "point": {"x": -0.25, "y": 2.0}, "counts": None},
        ],
    )

    query = (
        spark.readStream.format("yt")
        .option("consumer_path", consumer)
        .option("parsing_type_v3", "true")
        .load(queue)
        .withColumn("tag_count", size(col("tags")))
        .withColumn("x", col("point.x"))
        .writeStream.format("yt")
        .option("write_type_v3", "true")
        .option("path", out)
        .option("checkpointLocation", checkpoint(f"{yt_path}/checkpoints"))
        .trigger(processingTime="2 seconds")
        .start()
    )
    try:
        query.processAllAvailable()
    finally:
        query.stop()

    written = {r["id"]: r for r in rows(yt_client, out, "id, tags, point, counts, tag_count, x")}
    assert set(written) == {1, 2}
    assert list(written[1]["tags"]) == ["a", "b"]
    assert _struct(written[1]["point"]) == {"x": 1.5, "y": None}
    assert [list(p) for p in written[1]["counts"]] == [["k", 7]]
    assert (written[1]["tag_count"], written[1]["x"]) == (2, 1.5)
    assert list(written[2]["tags"]) == []
    assert _struct(written[2]["point"]) == {"x": -0.25, "y": 2.0}
    assert written[2]["counts"] is None
    assert (written[2]["tag_count"], written[2]["x"]) == (0, -0.25)


def _struct(value: Any) -> dict[str, Any]:
    """A struct as the client returns it: a map (named) or a list (positional)."""
    if isinstance(value, dict):
        return dict(value)
    return dict(zip(("x", "y"), value, strict=True))


def test_transactional_mode_counts_per_user(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    """The guide's transactional job: groupBy("user").count() into a sorted table, update mode."""
    transactional_counts_per_user(spark, yt_client, yt_path)


def test_foreach_batch_appends_each_batch_with_a_static_write(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    """foreachBatch with a Python function whose batch DataFrame is written by format("yt")."""
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(
        yt_client,
        out,
        [
            {"name": "id", "type": "int64"},
            {"name": "data", "type": "string"},
            {"name": "batch", "type": "int64"},
        ],
    )
    fill(
        yt_client,
        queue,
        [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in range(30)],
    )
    seen: list[int] = []

    def append_batch(batch_df: DataFrame, batch_id: int) -> None:
        seen.append(batch_id)
        batch_df.withColumn("batch", col("id") * 0 + batch_id).write.format("yt").mode(
            "append"
        ).save(out)

    query = (
        spark.readStream.format("yt")
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", 10)
        .load(queue)
        .writeStream.option("checkpointLocation", checkpoint(f"{yt_path}/checkpoints"))
        .trigger(processingTime="1 second")
        .foreachBatch(append_batch)
        .start()
    )
    try:
        query.processAllAvailable()
    finally:
        query.stop()

    written = rows(yt_client, out, "id, data, batch")
    assert sorted(r["id"] for r in written) == list(range(30))
    assert all(r["data"] == f"d{r['id']}" for r in written)
    assert sorted({r["batch"] for r in written}) == [0, 1]
    assert seen == [0, 1], "two batches of at most 10 rows per partition"
    assert consumer_offsets(yt_client, consumer) == {0: 15, 1: 15}


def test_static_read_by_offsets(spark: SparkSession, yt_client: Any, yt_path: str) -> None:
    """spark.read with starting_offsets and ending_offsets: a range of a queue, no consumer."""
    queue, consumer = f"{yt_path}/queue", f"{yt_path}/consumer"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    fill(
        yt_client,
        queue,
        [
            {"$tablet_index": t, "id": 10 * t + i, "data": f"{t}.{i}"}
            for t in (0, 1)
            for i in range(8)
        ],
    )

    ranged = (
        spark.read.format("yt")
        .option("starting_offsets", json.dumps({queue: {"0": 5, "1": -2}}))
        .option("ending_offsets", json.dumps({queue: {"0": -1, "1": 3}}))
        .option("include_service_columns", True)
        .load(queue)
        .collect()
    )
    got = sorted(
        (
            r["__spyt_streaming_src_tablet_index"],
            r["__spyt_streaming_src_row_index"],
            r["id"],
            r["data"],
        )
        for r in ranged
    )
    assert got == [(0, i, i, f"0.{i}") for i in (5, 6, 7)] + [
        (1, i, 10 + i, f"1.{i}") for i in (0, 1, 2)
    ]
    everything = spark.read.format("yt").load(queue)
    assert everything.count() == 16
    assert consumer_offsets(yt_client, consumer) == {}, "a static read moves no consumer"


def test_idempotent_receiver_keyed_by_the_service_columns(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    """include_service_columns into a sorted table keyed by them; a replay overwrites."""
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(
        yt_client,
        out,
        [
            {
                "name": "__spyt_streaming_src_tablet_index",
                "type": "int64",
                "sort_order": "ascending",
                "required": True,
            },
            {
                "name": "__spyt_streaming_src_row_index",
                "type": "int64",
                "sort_order": "ascending",
                "required": True,
            },
            {"name": "id", "type": "int64"},
            {"name": "data", "type": "string"},
        ],
    )
    fill(yt_client, queue, [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in range(10)])

    def run(checkpoint_path: str) -> int:
        query = (
            spark.readStream.format("yt")
            .option("consumer_path", consumer)
            .option("include_service_columns", True)
            .load(queue)
            .withColumn("data", upper(col("data")))
            .writeStream.format("yt")
            .option("path", out)
            .option("checkpointLocation", checkpoint(checkpoint_path))
            .start()
        )
        try:
            query.processAllAvailable()
            return sum(p["numInputRows"] for p in query.recentProgress)
        finally:
            query.stop()

    assert run(f"{yt_path}/checkpoints") == 10
    # the same rows again (a new checkpoint from the consumer's start): the keys take them once
    yt_client.delete_rows(
        consumer,
        [{"queue_cluster": "emulator", "queue_path": queue, "partition_index": p} for p in (0, 1)],
    )
    assert run(f"{yt_path}/checkpoints-again") == 10

    written = rows(
        yt_client,
        out,
        "__spyt_streaming_src_tablet_index, __spyt_streaming_src_row_index, id, data",
    )
    assert sorted(
        (
            r["__spyt_streaming_src_tablet_index"],
            r["__spyt_streaming_src_row_index"],
            r["id"],
            r["data"],
        )
        for r in written
    ) == sorted((i % 2, i // 2, i, f"D{i}") for i in range(10))


def test_producer_sessions_queue_to_queue(
    spark: SparkSession, yt_client: Any, yt_path: str
) -> None:
    """producer_path: each task pushes its share through a queue producer into a queue."""
    queue, consumer = f"{yt_path}/queue", f"{yt_path}/consumer"
    out, producer = f"{yt_path}/out", f"{yt_path}/producer"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(
        yt_client,
        out,
        [{"name": "id", "type": "int64"}, {"name": "data", "type": "string"}],
        tablets=2,
    )
    yt_client.create("queue_producer", producer)
    fill(yt_client, queue, [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in range(40)])

    query = (
        spark.readStream.format("yt")
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", 10)
        .load(queue)
        .writeStream.format("yt")
        .option("path", out)
        .option("producer_path", producer)
        .option("checkpointLocation", checkpoint(f"{yt_path}/checkpoints"))
        .start()
    )
    try:
        query.processAllAvailable()
    finally:
        query.stop()

    written = rows(yt_client, out, "id, data")
    assert sorted((r["id"], r["data"]) for r in written) == [(i, f"d{i}") for i in range(40)]
    assert consumer_offsets(yt_client, consumer) == {0: 20, 1: 20}
