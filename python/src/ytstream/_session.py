"""``spark_session``: a session configured by ``configure``, stopped on leaving the block."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ytstream._config import SettingValue, configure
from ytstream._jars import jar_path

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


@contextmanager
def spark_session(
    proxy: str | None = None,
    token: str | None = None,
    mode: str = "at-least-once",
    app_name: str | None = None,
    master: str | None = None,
    spark_conf_args: Mapping[str, str] | None = None,
    **settings: SettingValue,
) -> Iterator[SparkSession]:
    """Start a Spark session for YTsaurus, yield it, and stop it when the block ends.

    The shape of SPYT's ``spyt.spark_session()``: the session is built by
    ``SparkSession.builder`` with :func:`ytstream.configure`, so the connector jar, the proxy, the
    token and the mode are set. As in SPYT, a session that was already running when the block
    began is handed out and left running at the end.

    Parameters
    ----------
    proxy, token, mode, **settings
        As in :func:`ytstream.configure`.
    app_name : str, optional
        ``spark.app.name``.
    master : str, optional
        ``spark.master``, e.g. ``"local[2]"``; by default what ``spark-submit`` or Spark's
        defaults give.
    spark_conf_args : mapping of str to str, optional
        Any other Spark settings, as SPYT's argument of that name takes them.

    Yields
    ------
    :class:`pyspark.sql.SparkSession`
        The session.

    Raises
    ------
    RuntimeError
        When a session already running in this process lacks the connector jar: the JVM is up
        and a jar named now would not reach the driver's class path.

    Examples
    --------
    >>> import ytstream
    >>> with ytstream.spark_session(proxy="http://localhost:8000", master="local[2]") as spark:
    ...     spark.read.format("yt").load("//home/q").count()  # doctest: +SKIP
    """
    from pyspark.sql import SparkSession

    running = SparkSession.getActiveSession()
    builder = SparkSession.builder
    if master is not None:
        builder = builder.master(master)
    if app_name is not None:
        builder = builder.appName(app_name)
    for key, value in (spark_conf_args or {}).items():
        builder = builder.config(key, value)
    configure(builder, proxy=proxy, token=token, mode=mode, **settings)
    spark = builder.getOrCreate()
    jars = spark.conf.get("spark.jars", "") or ""
    if running is not None and jar_path() not in jars.split(","):
        raise RuntimeError(
            "ytstream.spark_session: a Spark session was already running in this Python process"
            " without ytstream's jar, and a jar named once the JVM is up does not reach the"
            " driver's class path; build that first session with ytstream.configure, or start a"
            " new Python process"
        )
    try:
        yield spark
    finally:
        if running is None:
            spark.stop()
