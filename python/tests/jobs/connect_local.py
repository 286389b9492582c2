"""The guide's queue-to-table listing through PySpark's local Spark Connect server.

python connect_local.py QUEUE CONSUMER RESULT CKPT, with the proxy and the token in YT_PROXY and
YT_TOKEN. SparkSession.builder.remote("local[2]") starts a Connect server inside this process
with configure's spark.jars on its class path; the job then runs through the thin client. A
process of its own: PySpark refuses a local Connect server beside a running classic session.
"""

import sys

from pyspark.sql import SparkSession
from pyspark.sql.functions import col, length

import ytstream

queue, consumer, result, checkpoint = sys.argv[1:5]
builder = (
    SparkSession.builder.remote("local[2]")
    .appName("ytstream-connect-local")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "2")
    # the first JIT tier only: the JVM starts in about half the time
    .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1")
)
spark = ytstream.configure(builder).getOrCreate()
print(f"client: {type(spark).__module__}.{type(spark).__name__}", flush=True)
try:
    query = (
        spark.readStream.format("yt")
        .option("consumer_path", consumer)
        .load(queue)
        .select(col("data"))
        .withColumn("data_length", length(col("data")))
        .writeStream.format("yt")
        .option("checkpointLocation", checkpoint)
        .trigger(processingTime="2 seconds")
        .option("path", result)
        .start()
    )
    try:
        query.processAllAvailable()
    finally:
        query.stop()
finally:
    spark.stop()
print("done", flush=True)
