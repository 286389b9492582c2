"""A pytest plugin: the YTsaurus emulator for tests of PySpark jobs, with no cluster.

Installed with the package (the ``pytest11`` entry point ``ytstream``), it offers these
fixtures; nothing starts until a test asks for one:

``yt_emulator`` (session)
    An :class:`Emulator`: ``java -jar ytsaurus-emulator-all.jar --port 0 --token <random>``
    from the jar the package carries, started once and stopped (by its process) at the end.
``yt_client`` (session)
    The official ``yt.wrapper.YtClient`` pointed at it, to create queues and tables and read
    what a job wrote (``pip install ytstream[testing]``).
``yt_spark`` (session)
    One local Spark session (``local[2]``, the UI off, two shuffle partitions, the JVM's first
    JIT tier only) configured for the emulator by :func:`ytstream.configure`, stopped at the
    end; a test switches to transactional mode with
    ``spark.conf.set("spark.yt.streaming.transactional", "true")``.
``yt_path`` (test)
    A fresh map node for the test's tables, removed afterwards.

``YTSTREAM_EMULATOR_JAR`` names another emulator jar.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from ytstream._config import B, SettingValue, configure
from ytstream._jars import emulator_jar_path

if TYPE_CHECKING:
    from pyspark.sql import SparkSession

__all__ = ["Emulator", "start_emulator"]

_LISTENING = re.compile(r"listening on \[(?P<urls>[^\]]+)\]")


def _java() -> str:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if found is None:
        raise RuntimeError(
            "the YTsaurus emulator needs Java 17 or newer, and there is no java on PATH and no"
            " JAVA_HOME; install a Java 17 runtime (Debian/Ubuntu: apt-get install"
            " openjdk-17-jre-headless)"
        )
    return found


class Emulator:
    """A running emulator: its address, its token and its process.

    Parameters
    ----------
    process : subprocess.Popen
        The ``java -jar`` process.
    url : str
        The proxy's URL, ``http://127.0.0.1:<port>``.
    token : str, optional
        The token the emulator requires, if any (it acts as the superuser).
    log : pathlib.Path
        The file that receives the emulator's output.
    """

    def __init__(
        self, process: subprocess.Popen[bytes], url: str, token: str | None, log: Path
    ) -> None:
        self.process = process
        self.url = url
        self.token = token
        self.log = log

    @property
    def address(self) -> str:
        """``host:port``, as ``YT_PROXY`` and the ``yt`` command line take it."""
        return self.url.removeprefix("http://")

    def client(self, **config: Any) -> Any:
        """Return an official ``yt.wrapper.YtClient`` for the emulator.

        Parameters
        ----------
        **config
            More of the client's configuration (``yt.wrapper.default_config``'s keys).

        Returns
        -------
        yt.wrapper.YtClient
            The client, with the emulator's token.
        """
        try:
            import yt.wrapper
        except ImportError as error:
            raise RuntimeError(
                "the official YTsaurus client is not installed: pip install 'ytstream[testing]'"
                " (ytsaurus-client and ytsaurus-yson)"
            ) from error
        base: dict[str, Any] = {"backend": "http", "proxy": {"url": self.address}}
        if self.token is None:
            base["enable_token"] = False
        else:
            base["token"] = self.token
        return yt.wrapper.YtClient(config={**base, **config})

    def configure(self, builder: B, mode: str = "at-least-once", **settings: SettingValue) -> B:
        """Configure a Spark session builder for this emulator, as :func:`ytstream.configure`.

        Parameters
        ----------
        builder : :class:`pyspark.sql.SparkSession.Builder`
            The builder.
        mode, **settings
            As in :func:`ytstream.configure`.

        Returns
        -------
        :class:`pyspark.sql.SparkSession.Builder`
            The same builder.
        """
        return configure(builder, proxy=self.url, token=self.token, mode=mode, **settings)

    def stop(self, timeout: float = 20.0) -> None:
        """Stop the emulator: SIGTERM (it closes its cluster), SIGKILL after ``timeout`` s."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_emulator(
    *arguments: str,
    token: str | None = None,
    jar: str | None = None,
    log_dir: Path | None = None,
    timeout: float = 60.0,
) -> Emulator:
    """Start the emulator on a free port and wait until it listens.

    Parameters
    ----------
    *arguments : str
        More command-line options (``--max-rows-per-pull 10``, ``--state-dir DIR``...).
    token : str, optional
        The token to require; none by default.
    jar : str, optional
        The emulator's jar; by default ``YTSTREAM_EMULATOR_JAR``, else the package's.
    log_dir : pathlib.Path, optional
        Where to write the emulator's output (``emulator.log``); a temporary folder by default.
    timeout : float, default 60
        Seconds to wait for it to listen.

    Returns
    -------
    Emulator
        The running emulator; call :meth:`Emulator.stop` when done.

    Raises
    ------
    RuntimeError
        When Java is missing or the emulator does not start; the message holds its output.
    """
    jar = jar or os.environ.get("YTSTREAM_EMULATOR_JAR") or emulator_jar_path()
    folder = log_dir or Path(tempfile.mkdtemp(prefix="ytstream-emulator-"))
    log = folder / "emulator.log"
    command = [_java(), "-jar", jar, "--port", "0", *arguments]
    if token is not None:
        command += ["--token", token]
    with open(log, "wb") as out:
        # Output goes to a file, not a pipe: nobody reads a pipe after start, and a full pipe
        # would block the emulator.
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text(encoding="utf-8", errors="replace")
        match = _LISTENING.search(text)
        if match:
            url = match.group("urls").split(",")[0].strip()
            return Emulator(process, url, token, log)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise RuntimeError(
        f"the YTsaurus emulator ({' '.join(command[:3])}) did not start within {timeout:.0f} s;"
        f" its output:\n{log.read_text(encoding='utf-8', errors='replace')}"
    )


@pytest.fixture(scope="session")
def yt_emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Emulator]:
    """Run one emulator, with a random token, for the test session."""
    emulator = start_emulator(
        token=secrets.token_hex(16), log_dir=tmp_path_factory.mktemp("yt-emulator")
    )
    try:
        yield emulator
    finally:
        emulator.stop()


@pytest.fixture(scope="session")
def yt_client(yt_emulator: Emulator) -> Any:
    """Return the official ``yt.wrapper.YtClient`` pointed at the session's emulator."""
    return yt_emulator.client()


@pytest.fixture(scope="session")
def yt_spark(yt_emulator: Emulator) -> Iterator[SparkSession]:
    """Run one local Spark session configured for the emulator, for the test session."""
    try:
        from pyspark.sql import SparkSession
    except ImportError as error:
        raise RuntimeError("PySpark is not installed: pip install 'ytstream[pyspark]'") from error
    builder = (
        SparkSession.builder.master("local[2]")
        .appName("ytstream-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        # the first JIT tier only: the driver's JVM starts in about half the time, and tests'
        # small batches never need the optimizing compiler
        .config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1")
    )
    spark = yt_emulator.configure(builder).getOrCreate()
    try:
        yield spark
    finally:
        spark.stop()


@pytest.fixture()
def yt_path(yt_client: Any) -> Iterator[str]:
    """Create a fresh map node for one test's tables; remove it afterwards."""
    path = f"//tmp/ytstream-tests/{uuid.uuid4().hex[:12]}"
    yt_client.create("map_node", path, recursive=True)
    yield path
    yt_client.remove(path, recursive=True, force=True)
