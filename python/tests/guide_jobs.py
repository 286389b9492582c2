"""The guide's jobs that run unchanged on a classic and on a Spark Connect session.

Each builds its tables under ``yt_path``, runs the job on ``session`` and checks every output row.
"""

from __future__ import annotations

from typing import Any

from pyspark.sql.functions import col, length
from tables import checkpoint, consumer_offsets, dynamic_table, fill, queue_with_consumer, rows


def queue_to_table_with_data_length(session: Any, yt_client: Any, yt_path: str) -> None:
    """SPYT's Python listing: select data, add data_length = length(data)."""
    queue, consumer, result = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/result"
    queue_with_consumer(yt_client, queue, consumer, tablets=2)
    dynamic_table(
        yt_client,
        result,
        [{"name": "data", "type": "string"}, {"name": "data_length", "type": "int64"}],
    )
    words = ["a", "bbb", "", "ytsaurus", "дом"]
    fill(
        yt_client,
        queue,
        [{"$tablet_index": i % 2, "id": i, "data": w} for i, w in enumerate(words)],
    )

    query = (
        session.readStream.format("yt")
        .option("consumer_path", consumer)
        .load(queue)
        .select(col("data"))
        .withColumn("data_length", length(col("data")))
        .writeStream.format("yt")
        .option("checkpointLocation", checkpoint(f"{yt_path}/checkpoints"))
        .trigger(processingTime="2 seconds")
        .option("path", result)
        .start()
    )
    try:
        query.processAllAvailable()
    finally:
        query.stop()

    written = sorted(
        (r["data"], r["data_length"]) for r in rows(yt_client, result, "data, data_length")
    )
    assert written == sorted((w, len(w)) for w in words)
    assert consumer_offsets(yt_client, consumer) == {0: 3, 1: 2}


def transactional_counts_per_user(session: Any, yt_client: Any, yt_path: str) -> None:
    """The guide's transactional job: groupBy("user").count() into a sorted table, update mode."""
    session.conf.set("spark.yt.streaming.transactional", "true")
    queue, consumer, counts = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/counts"
    queue_with_consumer(
        yt_client,
        queue,
        consumer,
        tablets=2,
        schema=[{"name": "user", "type": "string"}, {"name": "n", "type": "int64"}],
    )
    dynamic_table(
        yt_client,
        counts,
        [
            {"name": "user", "type": "string", "sort_order": "ascending"},
            {"name": "count", "type": "int64"},
        ],
    )
    users = ["ann", "bob", "cid"]
    fill(
        yt_client,
        queue,
        [{"$tablet_index": n % 2, "user": users[n % 3], "n": n} for n in range(90)],
    )

    query = (
        session.readStream.format("yt")
        .option("consumer_path", consumer)
        .option("max_rows_per_partition", 20)
        .load(queue)
        .groupBy("user")
        .count()
        .writeStream.format("yt")
        .outputMode("update")
        .option("path", counts)
        .option("checkpointLocation", checkpoint(f"{yt_path}/checkpoints"))
        .trigger(processingTime="0 seconds")
        .start()
    )
    try:
        query.processAllAvailable()
        batches = [p.numInputRows for p in query.recentProgress if p.numInputRows > 0]
        # more rows while it runs: the counts go on from the state, exactly once
        fill(
            yt_client,
            queue,
            [{"$tablet_index": n % 2, "user": users[n % 3], "n": n} for n in range(90, 120)],
        )
        query.processAllAvailable()
    finally:
        query.stop()

    assert batches[:3] == [40, 40, 10], "at most 20 rows per partition per batch"
    assert sorted((r["user"], r["count"]) for r in rows(yt_client, counts, "user, [count]")) == [
        ("ann", 40),
        ("bob", 40),
        ("cid", 40),
    ]
    assert consumer_offsets(yt_client, consumer) == {0: 60, 1: 60}
