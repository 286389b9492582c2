"""A test job in a process of its own, and its death by SIGKILL, as a machine dying kills it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from ytstream.testing import Emulator


def start_job(emulator: Emulator, job: Path, args: list[str], log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "YT_PROXY": emulator.url, "YT_TOKEN": emulator.token or ""}
    with open(log, "ab") as out:
        # Its own process group: the kill takes the Python driver and its JVM together, as the
        # machine dying would, rather than leaving the JVM to notice its parent has gone.
        return subprocess.Popen(
            [sys.executable, str(job), *args],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def kill_job(job: subprocess.Popen[bytes]) -> None:
    os.killpg(job.pid, signal.SIGKILL)
    job.wait()
    deadline = time.monotonic() + 30
    while True:  # every process of the group gone, the JVM included
        try:
            os.killpg(job.pid, 0)
        except ProcessLookupError:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"process group {job.pid} outlived SIGKILL")
        time.sleep(0.1)
