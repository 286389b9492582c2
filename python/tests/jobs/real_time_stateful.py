"""A stateful Real-time PySpark job (Spark 4.3) as a user runs it:
python real_time_stateful.py counts|dedup QUEUE CONSUMER OUT CKPT.

counts: groupBy(data).count() upserted by key (writers.upsert); dedup: dropDuplicates(data) over
rows that keep the service columns, upserted by source position (writers.exactly_once). The proxy
and the token come from YT_PROXY and YT_TOKEN. The test that runs it kills it with SIGKILL
mid-stream and starts it again on the same yt:/// checkpoint.
"""

import sys

from pyspark.sql import SparkSession

import ytstream
from ytstream import writers

shape, queue, consumer, out, checkpoint = sys.argv[1:6]
builder = (
    SparkSession.builder.master("local[2]")
    .appName("ytstream-kill-restart-stateful")
    .config("spark.ui.enabled", "false")
    # one source task (both partitions) and one shuffle partition: the pipelined stages' two
    # tasks fit local[2]
    .config("spark.sql.shuffle.partitions", "1")
    .config("spark.sql.streaming.realTimeMode.minBatchDuration", "1s")
    .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1")
)
spark = ytstream.configure(builder).getOrCreate()
stream = (
    spark.readStream.format("yt")
    .option("consumer_path", consumer)
    .option("real_time_partitions_per_task", 2)
    .option("include_service_columns", shape == "dedup")
    .load(queue)
)
if shape == "counts":
    query = writers.start_real_time(
        stream.groupBy("data").count(),
        writers.upsert(out),
        checkpoint_location=checkpoint,
        real_time="2 seconds",
    )
else:
    query = writers.start_real_time(
        stream.dropDuplicates(["data"]),
        writers.exactly_once(out),
        checkpoint_location=checkpoint,
        real_time="2 seconds",
    )
print("query started", flush=True)
query.awaitTermination()
