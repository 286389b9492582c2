"""The README's quick start: python queue_to_table.py localhost:8000 (the emulator's address)."""

import sys

from pyspark.sql.functions import col, length

import ytstream

with ytstream.spark_session(proxy=sys.argv[1], master="local[2]", mode="transactional") as spark:
    query = (
        spark.readStream.format("yt")
        .option("consumer_path", "//home/quickstart/consumer")
        .load("//home/quickstart/queue")
        .select(col("data"))
        .withColumn("data_length", length(col("data")))
        .writeStream.format("yt")
        .option("path", "//home/quickstart/result")
        .option("checkpointLocation", "yt:///home/quickstart/checkpoint")
        .trigger(availableNow=True)  # what is in the queue now, then stop
        .start()
    )
    query.awaitTermination()
    print(f"{query.lastProgress['numInputRows']} rows in the last batch")
