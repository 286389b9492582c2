"""A normal stop() logs no error: the driver's log4j output of a Real-time query, of a
micro-batch query and on Spark 4.3 of a stateful Real-time query (groupBy count through the upsert
writer), each stopped while rows flow, holds no ERROR and no stack trace of ytstream."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyspark
from tables import checkpoint, dynamic_table, fill, queue_with_consumer, rows, wait

from ytstream.testing import Emulator

JOB = Path(__file__).parent / "jobs" / "stop_quietly.py"
TABLET = "__spyt_streaming_src_tablet_index"
ROW = "__spyt_streaming_src_row_index"
STATEFUL_REAL_TIME = tuple(int(p) for p in pyspark.__version__.split(".")[:2]) >= (4, 3)

# Everything at INFO and above to one file; ytstream's own classes at DEBUG, so that the test
# also sees what a stop logs below INFO.
LOG4J2 = """\
status = warn
appender.file.type = File
appender.file.name = file
appender.file.fileName = {log}
appender.file.layout.type = PatternLayout
appender.file.layout.pattern = %d{{HH:mm:ss.SSS}} %p %c [%t]: %m%n%ex
rootLogger.level = info
rootLogger.appenderRef.file.ref = file
logger.ytstream.name = io.ytstream
logger.ytstream.level = debug
"""

_RECORD = re.compile(r"^\d\d:\d\d:\d\d\.\d{3} (?P<level>[A-Z]+) (?P<logger>\S+) ")


def _records(log: Path) -> list[tuple[str, str, str]]:
    """(level, logger, text with its stack trace) for each record of the log."""
    records: list[tuple[str, str, str]] = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        match = _RECORD.match(line)
        if match:
            records.append((match["level"], match["logger"], line))
        elif records:
            level, logger, text = records[-1]
            records[-1] = (level, logger, text + "\n" + line)
    return records


def test_stop_logs_no_error_in_real_time_or_micro_batch(
    yt_emulator: Emulator, yt_client: Any, yt_path: str, tmp_path: Path
) -> None:
    queue = f"{yt_path}/queue"
    rt_consumer, rt_out = f"{yt_path}/rt-consumer", f"{yt_path}/rt-out"
    mb_consumer, mb_out = f"{yt_path}/mb-consumer", f"{yt_path}/mb-out"
    queue_with_consumer(yt_client, queue, rt_consumer, tablets=2)
    yt_client.create("queue_consumer", mb_consumer)
    yt_client.register_queue_consumer(queue, mb_consumer, vital=False)
    dynamic_table(
        yt_client,
        rt_out,
        [
            {"name": TABLET, "type": "int64", "sort_order": "ascending", "required": True},
            {"name": ROW, "type": "int64", "sort_order": "ascending", "required": True},
            {"name": "id", "type": "int64"},
            {"name": "data", "type": "string"},
        ],
    )
    dynamic_table(
        yt_client, mb_out, [{"name": "id", "type": "int64"}, {"name": "data", "type": "string"}]
    )
    stateful: list[str] = []
    if STATEFUL_REAL_TIME:
        st_consumer, st_out = f"{yt_path}/st-consumer", f"{yt_path}/st-out"
        yt_client.create("queue_consumer", st_consumer)
        yt_client.register_queue_consumer(queue, st_consumer, vital=False)
        dynamic_table(
            yt_client,
            st_out,
            [
                {"name": "data", "type": "string", "sort_order": "ascending"},
                {"name": "count", "type": "int64"},
            ],
        )
        stateful = [st_consumer, st_out]
    log = tmp_path / "driver.log"
    config = tmp_path / "log4j2.properties"
    config.write_text(LOG4J2.format(log=log), encoding="utf-8")

    job = subprocess.Popen(
        [
            sys.executable,
            str(JOB),
            queue,
            rt_consumer,
            rt_out,
            mb_consumer,
            mb_out,
            checkpoint(f"{yt_path}/checkpoints"),
            *stateful,
        ],
        env={
            **os.environ,
            "YT_PROXY": yt_emulator.url,
            "YT_TOKEN": yt_emulator.token or "",
            "YTSTREAM_DRIVER_JAVA_OPTIONS": f"-Dlog4j2.configurationFile={config}",
        },
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    out: list[str] = []
    try:
        assert job.stdin is not None and job.stdout is not None

        def expect(line: str) -> None:
            while True:
                got = job.stdout.readline()  # type: ignore[union-attr]
                out.append(got)
                assert got, f"the job ended before '{line}':\n{''.join(out)[-4000:]}"
                if got.startswith(line):
                    return

        expect("real-time query started")
        # rows flow while the real-time query runs: its tasks pull when stop() interrupts them
        fill(
            yt_client,
            queue,
            [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in range(20)],
        )
        wait(lambda: len(rows(yt_client, rt_out, "id")) >= 20, what="20 rows in real time")
        fill(
            yt_client,
            queue,
            [{"$tablet_index": i % 2, "id": i, "data": f"d{i}"} for i in range(20, 30)],
        )
        wait(lambda: len(rows(yt_client, rt_out, "id")) >= 30, what="30 rows in real time")
        job.stdin.write("stop\n")
        job.stdin.flush()
        expect("real-time query stopped")
        assert out[-1].strip() == "real-time query stopped: exception=None", out[-1]

        expect("micro-batch query started")
        wait(lambda: len(rows(yt_client, mb_out, "id")) >= 30, what="30 rows in micro-batches")
        job.stdin.write("stop\n")
        job.stdin.flush()
        expect("micro-batch query stopped")
        assert out[-1].strip() == "micro-batch query stopped: exception=None", out[-1]

        if stateful:
            st_out = stateful[1]
            expect("stateful query started")
            # d0..d29 once each, then k0..k3 five times each while the query runs
            fill(
                yt_client,
                queue,
                [{"$tablet_index": i % 2, "id": i, "data": f"k{i % 4}"} for i in range(30, 50)],
            )

            def counts() -> dict[str, int]:
                return {r["data"]: r["count"] for r in rows(yt_client, st_out, "*")}

            final = {**{f"d{i}": 1 for i in range(30)}, **{f"k{k}": 5 for k in range(4)}}
            wait(lambda: counts() == final, what="the stateful counts")
            # more rows as stop() comes: the source's task pulls and the shuffle's task counts
            fill(
                yt_client,
                queue,
                [{"$tablet_index": i % 2, "id": i, "data": f"k{i % 4}"} for i in range(50, 60)],
            )
            job.stdin.write("stop\n")
            job.stdin.flush()
            expect("stateful query stopped")
            assert out[-1].strip() == "stateful query stopped: exception=None", out[-1]
        expect("done")
        assert job.wait(timeout=60) == 0
    finally:
        if job.poll() is None:
            job.kill()
            job.wait()

    records = _records(log)
    assert any(logger.startswith("io.ytstream") for _, logger, _ in records), "ytstream logged"
    loud = [(level, text) for level, _, text in records if level in ("WARN", "ERROR", "FATAL")]
    ours = [text for _, text in loud if "io.ytstream" in text]
    assert not ours, "WARN or ERROR records from or through ytstream:\n" + "\n".join(ours)[:6000]
    pulls = [text for level, text in loud if "pull_queue" in text or "real-time read" in text]
    assert not pulls, "the interrupted pull above DEBUG:\n" + "\n".join(pulls)[:6000]
    # What is left at ERROR is Spark's own, as with any sink: a stop cancels the batch's job
    # ("Data source write support ... is aborting"), and in Real-time Mode, where a batch always
    # runs, the cancelled stage denies the tasks' commits ("Aborting task" with "Commit denied").
    # A stateful query's pipelined shuffle adds its own: the consumer task interrupted in Spark's
    # StreamingShuffleReader ("Aborting task"), and its client seeing the killed producer go
    # ("Connection to streaming shuffle writer N closed before termination"), and its state store
    # interrupted while it writes the batch's changelog ("Fail to commit changelog file",
    # CANNOT_WRITE_STATE_STORE). When the session stops, a killed task's status can reach the
    # scheduler after its result getter's pool shut down ("Exception in statusUpdate",
    # RejectedExecutionException from TaskResultGetter).
    spark_only = [
        text
        for level, text in loud
        if level != "WARN"
        and not re.search(
            r"Data source write support|Commit denied|Abort(ing|ed) commit"
            r"|\.StreamingShuffleReader\w*\$"
            r"|streaming shuffle writer \d+ closed before termination"
            r"|StateStoreChangelogWriter\w* \[[^]]*\]: Fail to commit changelog file"
            r"|CANNOT_WRITE_STATE_STORE"
            r"|Exception in statusUpdate\n\S*RejectedExecutionException: Task"
            r" org\.apache\.spark\.scheduler\.TaskResultGetter",
            text,
        )
    ]
    assert not spark_only, "other ERROR records at a normal stop:\n" + "\n".join(spark_only)[:6000]
    ended = [
        text
        for level, logger, text in records
        if level == "DEBUG" and logger.endswith("YtRealTimeReader") and "task was killed" in text
    ]
    assert ended, "the real-time tasks' reads end at DEBUG when stop() kills them"
