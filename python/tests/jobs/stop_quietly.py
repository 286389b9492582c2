"""A Real-time query and a micro-batch query, each stopped by stop(), driven by its test.

python stop_quietly.py QUEUE RT_CONSUMER RT_OUT MB_CONSUMER MB_OUT CKPT_DIR, with YT_PROXY and
YT_TOKEN. The variable YTSTREAM_DRIVER_JAVA_OPTIONS goes into spark.driver.extraJavaOptions (the
test's -Dlog4j2.configurationFile, which sends the driver's log to a file). Prints a line when
each query has started and waits for a line on stdin before stopping it.
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
spark.stop()
print("done", flush=True)
