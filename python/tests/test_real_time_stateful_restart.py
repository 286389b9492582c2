"""Stateful Real-time jobs (Spark 4.3) in their own process, killed with SIGKILL three times
mid-stream and started again on their yt:/// checkpoint while rows keep arriving:
groupBy(data).count() through the upsert writer ends with the counts of every row read, and
dropDuplicates through the exactly-once writer with every distinct row once."""

from __future__ import annotations

import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyspark
import pytest
from jobs_process import kill_job, start_job
from tables import checkpoint, dynamic_table, queue_with_consumer, rows, wait

from ytstream.testing import Emulator

JOB = Path(__file__).parent / "jobs" / "real_time_stateful.py"
PARTITIONS = 2
ROWS = 600  # in steps of 10 every 0.5 s while a run of the job is up
STEP = 10
KILLS = 3
TABLET = "__spyt_streaming_src_tablet_index"
ROW = "__spyt_streaming_src_row_index"

pytestmark = pytest.mark.skipif(
    tuple(int(p) for p in pyspark.__version__.split(".")[:2]) < (4, 3),
    reason="stateful queries in Real-time Mode are Spark 4.3's",
)


def _run_killed_three_times(
    emulator: Emulator,
    client: Any,
    yt_path: str,
    tmp_path: Path,
    shape: str,
    out_schema: list[dict[str, Any]],
    row: Callable[[int], dict[str, Any]],
    progress: Callable[[], int],
    done: Callable[[], bool],
) -> list[int]:
    """Feeds ROWS rows while runs of the job are up, kills three of them once each has made
    progress, and waits for the fourth to reach done(); returns progress() at each kill."""
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(client, queue, consumer, tablets=PARTITIONS)
    dynamic_table(client, out, out_schema)
    args = [shape, queue, consumer, out, checkpoint(f"{yt_path}/checkpoint")]
    log = tmp_path / "job.log"

    fed = 0
    feeding_error: list[BaseException] = []
    gate = threading.Event()

    def feed() -> None:
        nonlocal fed
        try:
            while fed < ROWS:
                if not gate.wait(timeout=300):
                    return
                client.insert_rows(queue, [row(i) for i in range(fed, fed + STEP)])
                fed += STEP
                time.sleep(0.5)
        except BaseException as error:  # reported by the test, not lost in the thread
            feeding_error.append(error)

    def started(runs: int) -> None:
        # rows arrive only while a run of the job is up, so that every kill is mid-stream
        wait(
            lambda: (
                log.read_text(errors="replace").count("query started") >= runs
                or (job is not None and job.poll() is not None)
            ),
            timeout=180,
            what="the job starting its query",
        )
        assert job is not None and job.poll() is None, log.read_text(errors="replace")[-4000:]
        gate.set()

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    kills_at: list[int] = []
    job: subprocess.Popen[bytes] | None = None
    try:
        for run in range(1, KILLS + 1):
            job = start_job(emulator, JOB, args, log)
            before = progress()
            started(run)
            # kill once this run has counted rows of its own (30, or the last ones if the feed
            # has ended)
            wait(
                lambda before=before, job=job: (
                    progress() >= min(before + 30, ROWS) or job.poll() is not None
                ),
                timeout=180,
                what="the job writing rows",
            )
            assert job.poll() is None, log.read_text(errors="replace")[-4000:]
            gate.clear()
            kills_at.append(progress())
            kill_job(job)
        job = start_job(emulator, JOB, args, log)
        started(KILLS + 1)
        feeder.join(timeout=180)
        assert not feeding_error, feeding_error
        assert fed == ROWS
        wait(lambda: done() or job.poll() is not None, timeout=240, what="the final table")
        time.sleep(3.0)  # a late write (a replay overwriting, a duplicate) would land now
        assert job.poll() is None, log.read_text(errors="replace")[-4000:]
    finally:
        gate.set()
        if job is not None and job.poll() is None:
            kill_job(job)
    return kills_at


def test_counts_upserted_by_key_survive_three_sigkills(
    yt_emulator: Emulator, yt_client: Any, yt_path: str, tmp_path: Path
) -> None:
    out = f"{yt_path}/out"
    keys = 7

    def table() -> dict[str, int]:
        return {r["data"]: r["count"] for r in rows(yt_client, out, "data, count")}

    seen: dict[str, int] = {}
    went_back: list[tuple[str, int, int]] = []

    def progress() -> int:
        # the rows counted so far; a count going back (a replay from the last checkpoint's
        # state) is what the docs promise a reader may see, and is recorded
        now = table()
        for key, n in now.items():
            if n < seen.get(key, 0):
                went_back.append((key, seen[key], n))
            seen[key] = n
        return sum(now.values())

    kills_at = _run_killed_three_times(
        yt_emulator,
        yt_client,
        yt_path,
        tmp_path,
        "counts",
        [
            {"name": "data", "type": "string", "sort_order": "ascending"},
            {"name": "count", "type": "int64"},
        ],
        lambda i: {"$tablet_index": i % PARTITIONS, "id": i, "data": f"k{i % keys}"},
        progress,
        lambda: progress() >= ROWS,
    )
    # the same counts computed in batch over every row the queue holds
    read = [r["data"] for r in rows(yt_client, f"{yt_path}/queue", "data")]
    assert len(read) == ROWS
    batch = dict(Counter(read))
    final = table()
    print(f"kills at {kills_at} rows counted; counts went back {len(went_back)} times: {went_back}")
    print(f"final table {sorted(final.items())}; batch {sorted(batch.items())}")
    assert final == batch


def test_drop_duplicates_through_the_exactly_once_writer_survives_three_sigkills(
    yt_emulator: Emulator, yt_client: Any, yt_path: str, tmp_path: Path
) -> None:
    out = f"{yt_path}/out"

    # Three copies of each value in a row, all in one partition (the queue is partitioned by
    # the value, as a producer partitions by key): a replay meets a value's copies in the same
    # order, so its first copy is the one kept, at the same source position.
    def row(i: int) -> dict[str, Any]:
        value = i // 3
        return {"$tablet_index": value % PARTITIONS, "id": i, "data": f"d{value}"}

    def written() -> int:
        return len(rows(yt_client, out, "id"))

    _run_killed_three_times(
        yt_emulator,
        yt_client,
        yt_path,
        tmp_path,
        "dedup",
        [
            {"name": TABLET, "type": "int64", "sort_order": "ascending", "required": True},
            {"name": ROW, "type": "int64", "sort_order": "ascending", "required": True},
            {"name": "id", "type": "int64"},
            {"name": "data", "type": "string"},
        ],
        row,
        lambda: written() * 3,
        lambda: written() >= ROWS // 3,
    )
    got = rows(yt_client, out, "id, data")
    values = [r["data"] for r in got]
    assert len(values) == len(set(values)), Counter(values).most_common(3)
    # every distinct value once, by its first copy
    assert sorted((r["id"], r["data"]) for r in got) == [(3 * v, f"d{v}") for v in range(ROWS // 3)]
