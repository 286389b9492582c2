"""A transactional PySpark job in its own process, killed with SIGKILL three times mid-stream
and started again on its yt:/// checkpoint while rows keep arriving: none lost, none twice."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from jobs_process import kill_job, start_job
from tables import checkpoint, consumer_offsets, dynamic_table, queue_with_consumer, rows, wait

from ytstream.testing import Emulator

JOB = Path(__file__).parent / "jobs" / "queue_to_table.py"
PARTITIONS = 2
ROWS = 600  # in steps of 20 every 0.25 s while a run of the job is up
KILLS = 3


def test_sigkill_three_times_loses_and_duplicates_nothing(
    yt_emulator: Emulator, yt_client: Any, yt_path: str, tmp_path: Path
) -> None:
    queue, consumer, out = f"{yt_path}/queue", f"{yt_path}/consumer", f"{yt_path}/out"
    queue_with_consumer(yt_client, queue, consumer, tablets=PARTITIONS)
    dynamic_table(
        yt_client, out, [{"name": "id", "type": "int64"}, {"name": "data", "type": "string"}]
    )
    args = [queue, consumer, out, checkpoint(f"{yt_path}/checkpoint")]
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
                step = [
                    {"$tablet_index": i % PARTITIONS, "id": i, "data": f"row-{i}"}
                    for i in range(fed, fed + 20)
                ]
                yt_client.insert_rows(queue, step)
                fed += 20
                time.sleep(0.25)
        except BaseException as error:  # reported by the test, not lost in the thread
            feeding_error.append(error)

    def written() -> int:
        return len(rows(yt_client, out, "id"))

    def started(runs: int) -> None:
        # rows arrive only while a run of the job is up, so that every kill is mid-stream
        wait(
            lambda: (
                log.read_text(errors="replace").count("query started") >= runs
                or (job is not None and job.poll() is not None)
            ),
            timeout=120,
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
            job = start_job(yt_emulator, JOB, args, log)
            before = written()
            started(run)
            # kill once this run has committed batches and while rows are still arriving
            wait(
                lambda before=before, job=job: written() >= before + 40 or job.poll() is not None,
                timeout=120,
                what="the job writing rows",
            )
            assert job.poll() is None, log.read_text(errors="replace")[-4000:]
            gate.clear()
            kills_at.append(written())
            kill_job(job)
        job = start_job(yt_emulator, JOB, args, log)
        started(KILLS + 1)
        feeder.join(timeout=120)
        assert not feeding_error, feeding_error
        assert fed == ROWS
        wait(
            lambda: written() >= ROWS or job.poll() is not None,
            timeout=180,
            what=f"all {ROWS} rows written",
        )
        time.sleep(1.0)  # a late duplicate would land now
        assert job.poll() is None, log.read_text(errors="replace")[-4000:]
    finally:
        gate.set()
        if job is not None and job.poll() is None:
            kill_job(job)

    ids = [r["id"] for r in rows(yt_client, out, "id, data")]
    assert len(ids) == ROWS, f"{len(ids) - len(set(ids))} duplicated"
    assert sorted(ids) == list(range(ROWS)), f"lost: {sorted(set(range(ROWS)) - set(ids))[:20]}"
    assert consumer_offsets(yt_client, consumer) == {
        p: ROWS // PARTITIONS for p in range(PARTITIONS)
    }
    assert len(kills_at) == KILLS and kills_at[-1] < ROWS, f"kills at {kills_at} rows written"
    assert log.read_text(errors="replace").count("query started") == KILLS + 1
