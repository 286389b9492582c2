"""A Real-time query, a micro-batch query and on Spark 4.3 a stateful Real-time query, each
stopped by stop(), driven by its test.

python stop_quietly.py QUEUE RT_CONSUMER RT_OUT MB_CONSUMER MB_OUT CKPT_DIR [ST_CONSUMER ST_OUT],
with YT_PROXY and YT_TOKEN. The variable YTSTREAM_DRIVER_JAVA_OPTIONS goes into
spark.driver.extraJavaOptions (the test's -Dlog4j2.configurationFile, which sends the driver's
log to a file). Prints a line when each query has started and waits for a line on stdin before
stopping it. With ST_CONSUMER and ST_OUT, a groupBy count through the upsert writer comes last.
"""

import os
import sys

from pyspark.sql import SparkSession

import ytstream
from ytstream import writers

queue, rt_consumer, rt_out, mb_consumer, mb_out, checkpoints = sys.argv[1:7]
builder = (
    SparkSession.builder.master("local[2]")
    .appName("ytstream-stop-quietly")
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "2")
    .config(
        "spark.driver.extraJavaOptions",
        "-XX:TieredStopAtLevel=1 " + os.environ["YTSTREAM_DRIVER_JAVA_OPTIONS"],
    )
)
spark = ytstream.configure(builder).getOrCreate()


def step(message: str) -> None:
    print(message, flush=True)
    sys.stdin.readline()


query = writers.start_real_time(
    spark.readStream.format("yt")
    .option("consumer_path", rt_consumer)
    .option("include_service_columns", True)
    .load(queue),
    writers.exactly_once(rt_out, flush_interval=0.005),
    checkpoint_location=f"{checkpoints}/real-time",
    # longer than the test: stop() always comes in the middle of a batch, its tasks reading
    real_time="1 minute",
)
step("real-time query started")
query.stop()
print(f"real-time query stopped: exception={query.exception()}", flush=True)

query = (
    spark.readStream.format("yt")
    .option("consumer_path", mb_consumer)
    .load(queue)
    .writeStream.format("yt")
    .option("path", mb_out)
    .option("checkpointLocation", f"{checkpoints}/micro-batch")
    .trigger(processingTime="200 milliseconds")
    .start()
)
step("micro-batch query started")
query.stop()
print(f"micro-batch query stopped: exception={query.exception()}", flush=True)

if len(sys.argv) > 8:
    st_consumer, st_out = sys.argv[7:9]
    # one source task (both partitions) and one shuffle partition: the pipelined stages' two
    # tasks fit local[2]
    spark.conf.set("spark.sql.shuffle.partitions", "1")
    spark.conf.set("spark.sql.streaming.realTimeMode.minBatchDuration", "1s")
    query = writers.start_real_time(
        spark.readStream.format("yt")
        .option("consumer_path", st_consumer)
        .option("real_time_partitions_per_task", 2)
        .load(queue)
        .groupBy("data")
        .count(),
        writers.upsert(st_out, flush_interval=0.005),
        checkpoint_location=f"{checkpoints}/stateful",
        real_time="2 seconds",
    )
    step("stateful query started")
    query.stop()
    print(f"stateful query stopped: exception={query.exception()}", flush=True)

spark.stop()
print("done", flush=True)
