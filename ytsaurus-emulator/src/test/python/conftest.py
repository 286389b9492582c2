"""Fixtures that start the emulator's runnable jar and point the official client at it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yt.wrapper as yt

_LISTENING = re.compile(r"listening on \[(?P<urls>[^\]]+)\]")


class Emulator:
    """A running emulator process: its first proxy's address and the process itself."""

    def __init__(self, process: subprocess.Popen[str], url: str) -> None:
        self.process = process
        self.url = url

    @property
    def address(self) -> str:
        """``host:port`` as a user passes it to ``--proxy``."""
        return self.url.removeprefix("http://")


def _jar() -> Path:
    given = os.environ.get("YTSTREAM_EMULATOR_JAR")
    jar = (
        Path(given) if given else Path(__file__).parents[3] / "target" / "ytsaurus-emulator-all.jar"
    )
    if not jar.is_file():
        pytest.exit(
            f"the emulator's jar {jar} is missing: run `mvn -B -pl ytsaurus-emulator -am package`"
            " first, or set YTSTREAM_EMULATOR_JAR",
            returncode=2,
        )
    return jar


def start_emulator(*arguments: str) -> Emulator:
    """Starts ``java -jar ytsaurus-emulator-all.jar --port 0 ...`` and waits for its address."""
    java = shutil.which("java")
    if java is None:
        pytest.exit("java is not on PATH: install a Java 17 runtime", returncode=2)
    process = subprocess.Popen(
        [java, "-jar", str(_jar()), "--port", "0", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    seen = []
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen.append(line)
        match = _LISTENING.search(line)
        if match:
            return Emulator(process, match.group("urls").split(",")[0].strip())
    process.kill()
    raise RuntimeError("the emulator did not start:\n" + "".join(seen))


def stop_emulator(emulator: Emulator) -> None:
    emulator.process.terminate()
    try:
        emulator.process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        emulator.process.kill()
        emulator.process.wait()


@pytest.fixture(scope="session")
def emulator() -> Iterator[Emulator]:
    """One emulator for the session, as a user starts it: the jar's defaults."""
    running = start_emulator()
    yield running
    stop_emulator(running)


def client_config(address: str, **proxy: Any) -> dict[str, Any]:
    """The client's configuration for the emulator: its defaults, no token."""
    return {
        "backend": "http",
        "proxy": {"url": address, **proxy},
        "enable_token": False,
    }


@pytest.fixture(scope="session")
def client(emulator: Emulator) -> yt.YtClient:
    return yt.YtClient(config=client_config(emulator.address))


@pytest.fixture()
def test_dir(client: yt.YtClient) -> Iterator[str]:
    """A fresh map node per test, removed afterwards."""
    path = f"//home/tests/{uuid.uuid4().hex[:12]}"
    client.create("map_node", path, recursive=True)
    yield path
    client.remove(path, recursive=True, force=True)


def wait(predicate: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout:.0f} s")
        time.sleep(0.1)
