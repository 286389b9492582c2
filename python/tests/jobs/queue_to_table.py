"""A transactional PySpark job as a user runs it: python queue_to_table.py QUEUE CONSUMER OUT CKPT.

The proxy and the token come from YT_PROXY and YT_TOKEN, as configure reads them. The test that
runs it kills it with SIGKILL mid-stream and starts it again on the same yt:/// checkpoint.
"""

import sys

from pyspark.sql import SparkSession

import ytstream

queue, consumer, out, checkpoint = sys.argv[1:5]
builder = (
    SparkSession.builder.master("local[2]")
    .appName("ytstream-kill-restart")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "2")
    # the first JIT tier only: the JVM starts in about half the time
    .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1")
)
spark = ytstream.configure(builder, mode="transactional").getOrCreate()
query = (
    spark.readStream.format("yt")
    .option("consumer_path", consumer)
    .option("max_rows_per_partition", 25)
    .load(queue)
    .writeStream.format("yt")
    .option("path", out)
    .option("checkpointLocation", checkpoint)
    .trigger(processingTime="200 milliseconds")
    .start()
)
print("query started", flush=True)
query.awaitTermination()
