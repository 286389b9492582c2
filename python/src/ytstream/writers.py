"""ytstream's Real-time Mode writers from PySpark, without touching PySpark's private handles.

PySpark's ``foreach`` takes Python code only, which Spark runs in Python workers; ytstream's
writers are JVM ``ForeachWriter`` objects (an upsert keyed by source position, an upsert keyed by
the table's own key for stateful queries, an append, a push through a queue producer). Describe
one here and :func:`start_real_time` attaches it to the query in the JVM and hands back the usual
:class:`pyspark.sql.streaming.StreamingQuery`.

>>> from ytstream import writers
>>> rows = (spark.readStream.format("yt")
...         .option("consumer_path", "//home/consumer")
...         .option("include_service_columns", True)
...         .load("//home/q"))  # doctest: +SKIP
>>> query = writers.start_real_time(
...     rows, writers.exactly_once("//home/out"),
...     checkpoint_location="yt:///home/checkpoints/rt")  # doctest: +SKIP

A Spark Connect DataFrame works too when its server enables ytstream's command plugin
(``spark.connect.extensions.command.classes=io.ytstream.spark.connect.RealTimeWriterCommand``,
:data:`CONNECT_PLUGIN`): the client sends the query, and the server attaches the writer in its JVM.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pyspark.sql import DataFrame
    from pyspark.sql.streaming.query import StreamingQuery

__all__ = [
    "CONNECT_PLUGIN",
    "ForeachWriter",
    "append",
    "exactly_once",
    "producer",
    "start_real_time",
    "upsert",
]

#: The Spark Connect server's setting that lets a Connect client start these writers.
CONNECT_PLUGIN = {
    "spark.connect.extensions.command.classes": "io.ytstream.spark.connect.RealTimeWriterCommand"
}

# The command's type: a WriteStreamOperationStart whose options name the writer (ytstream.*).
_CONNECT_COMMAND = "type.googleapis.com/io.ytstream.RealTimeForeachWriter"

_CLASSES = {
    "exactly_once": "YtExactlyOnceForeachWriter",
    "upsert": "YtUpsertForeachWriter",
    "append": "YtAppendForeachWriter",
    "producer": "YtProducerForeachWriter",
}


@dataclass(frozen=True)
class ForeachWriter:
    """A description of one of ytstream's JVM writers; build it with the functions below."""

    kind: str
    path: str
    flush_interval: timedelta | None = None
    max_buffered_rows: int | None = None
    producer_path: str | None = None
    writer_id: str | None = None
    source_queue: str | None = None

    @property
    def java_class(self) -> str:
        """The writer's JVM class."""
        return "io.ytstream.spark.writers." + _CLASSES[self.kind]


def _checked(
    kind: str,
    path: str,
    flush_interval: timedelta | float | None,
    max_buffered_rows: int | None,
    **more: str | None,
) -> ForeachWriter:
    where = f"ytstream.writers.{kind}"
    if not isinstance(path, str) or not path.startswith("//"):
        raise ValueError(f"{where}: path={path!r} is not a Cypress path; give e.g. '//home/out'")
    for name, value in more.items():
        if value is not None and (not isinstance(value, str) or not value):
            raise ValueError(f"{where}: {name}={value!r} must be a non-empty str")
    if more.get("producer_path") is not None and not str(more["producer_path"]).startswith("//"):
        raise ValueError(
            f"{where}: producer_path={more['producer_path']!r} is not a Cypress path; give the"
            " queue producer's path, e.g. '//home/producer' (yt create queue_producer ...)"
        )
    given = flush_interval
    if isinstance(flush_interval, (int, float)) and not isinstance(flush_interval, bool):
        flush_interval = timedelta(seconds=flush_interval)
    if flush_interval is not None and (
        not isinstance(flush_interval, timedelta) or flush_interval < timedelta(0)
    ):
        raise ValueError(
            f"{where}: flush_interval={given!r} is not a duration of 0 or more; give"
            " seconds (0.005) or a datetime.timedelta"
        )
    if max_buffered_rows is not None and (
        isinstance(max_buffered_rows, bool)
        or not isinstance(max_buffered_rows, int)
        or max_buffered_rows < 1
    ):
        raise ValueError(
            f"{where}: max_buffered_rows={max_buffered_rows!r} is not a whole number of 1 or more"
        )
    return ForeachWriter(kind, path, flush_interval, max_buffered_rows, **more)


def exactly_once(
    path: str,
    *,
    flush_interval: timedelta | float | None = None,
    max_buffered_rows: int | None = None,
    source_queue: str | None = None,
) -> ForeachWriter:
    """Describe ``YtExactlyOnceForeachWriter``: upserts into a sorted table by source position.

    The table is keyed by ``__spyt_streaming_src_tablet_index`` and
    ``__spyt_streaming_src_row_index`` (read with ``include_service_columns``), so a replayed
    row overwrites itself: exactly once.

    Parameters
    ----------
    path : str
        The sorted output table.
    flush_interval : float or datetime.timedelta, optional
        Longest time a row waits in the writer, in seconds (the writer's default: 5 ms).
    max_buffered_rows : int, optional
        Most rows held before a write (the writer's default: 1,000).
    source_queue : str, optional
        The source queue, when the query reads several.

    Returns
    -------
    ForeachWriter
        For :func:`start_real_time`.
    """
    return _checked(
        "exactly_once", path, flush_interval, max_buffered_rows, source_queue=source_queue
    )


def upsert(
    path: str,
    *,
    flush_interval: timedelta | float | None = None,
    max_buffered_rows: int | None = None,
) -> ForeachWriter:
    """Describe ``YtUpsertForeachWriter``: upserts into a sorted table by the table's own key.

    For stateful queries (``groupBy(...).agg(...)``, ``transformWithState``): the table holds
    the latest row of each key, and a batch replayed after a restart writes the same keys again,
    so the table converges to the same rows. While a restarted query replays, a key's row can go
    back to its value at the last checkpoint (a count drops) and climb again. The table must be
    sorted and the query's columns must include every key column (checked when the query starts).

    Parameters
    ----------
    path : str
        The sorted output table, keyed e.g. by the ``groupBy`` columns.
    flush_interval, max_buffered_rows
        As in :func:`exactly_once`.

    Returns
    -------
    ForeachWriter
        For :func:`start_real_time`.
    """
    return _checked("upsert", path, flush_interval, max_buffered_rows)


def append(
    path: str,
    *,
    flush_interval: timedelta | float | None = None,
    max_buffered_rows: int | None = None,
) -> ForeachWriter:
    """Describe ``YtAppendForeachWriter``: appends to an ordered table, at least once.

    Parameters
    ----------
    path : str
        The ordered output table.
    flush_interval, max_buffered_rows
        As in :func:`exactly_once`.

    Returns
    -------
    ForeachWriter
        For :func:`start_real_time`.
    """
    return _checked("append", path, flush_interval, max_buffered_rows)


def producer(
    path: str,
    producer_path: str,
    *,
    writer_id: str | None = None,
    source_queue: str | None = None,
    flush_interval: timedelta | float | None = None,
    max_buffered_rows: int | None = None,
) -> ForeachWriter:
    """Describe ``YtProducerForeachWriter``: pushes into a queue through producer sessions.

    Each source partition gets a session of its own and each row its source row index as
    sequence number, so a replay's rows are skipped by the server: exactly once into a queue,
    for deterministic, stateless queries with at most one output row per source row.

    Parameters
    ----------
    path : str
        The output queue (an ordered table).
    producer_path : str
        The queue producer (``yt create queue_producer <path>``).
    writer_id : str, optional
        Names the sessions; by default the query's id, which a restart on the same checkpoint
        keeps. Give the old one to a query started on a new checkpoint.
    source_queue : str, optional
        The source queue, when the query reads several.
    flush_interval, max_buffered_rows
        As in :func:`exactly_once`.

    Returns
    -------
    ForeachWriter
        For :func:`start_real_time`.
    """
    return _checked(
        "producer",
        path,
        flush_interval,
        max_buffered_rows,
        producer_path=producer_path,
        writer_id=writer_id,
        source_queue=source_queue,
    )


def _jvm_writer(jvm: Any, writer: ForeachWriter, jschema: Any = None) -> Any:
    package = jvm.io.ytstream.spark.writers
    builder = getattr(package, _CLASSES[writer.kind]).builder().path(writer.path)
    if writer.kind == "upsert" and jschema is not None:
        builder = builder.rowSchema(jschema)
    if writer.flush_interval is not None:
        micros = round(writer.flush_interval / timedelta(microseconds=1))
        builder = builder.flushInterval(jvm.java.time.Duration.ofNanos(micros * 1000))
    if writer.max_buffered_rows is not None:
        builder = builder.maxBufferedRows(writer.max_buffered_rows)
    if writer.producer_path is not None:
        builder = builder.producerPath(writer.producer_path)
    if writer.writer_id is not None:
        builder = builder.writerId(writer.writer_id)
    if writer.source_queue is not None:
        builder = builder.sourceQueue(writer.source_queue)
    return builder.build()


def start_real_time(
    df: DataFrame,
    writer: ForeachWriter,
    *,
    checkpoint_location: str,
    real_time: str = "5 minutes",
    output_mode: str = "update",
    query_name: str | None = None,
) -> StreamingQuery:
    """Start a streaming query that writes with one of ytstream's writers in Real-time Mode.

    The same as ``df.writeStream.foreach(<the JVM writer>).outputMode(output_mode)
    .option("checkpointLocation", checkpoint_location).trigger(realTime=real_time).start()``
    would be if PySpark's ``foreach`` took a JVM writer. Progress tracking is Spark's default:
    on Spark 4.3 asynchronous for a stateless query, which the ``yt`` source follows (its
    consumer moves only to the ends Spark has written to the checkpoint).

    Parameters
    ----------
    df : :class:`pyspark.sql.DataFrame`
        A streaming DataFrame (``spark.readStream.format("yt")...``), with
        ``include_service_columns`` for the exactly-once and producer writers.
    writer : ForeachWriter
        From :func:`exactly_once`, :func:`upsert`, :func:`append` or :func:`producer`.
    checkpoint_location : str
        The query's checkpoint, e.g. ``yt:///home/checkpoints/rt``.
    real_time : str, default "5 minutes"
        Real-time Mode's batch (checkpoint) interval, at least
        ``spark.sql.streaming.realTimeMode.minBatchDuration``.
    output_mode : str, default "update"
        Real-time Mode takes ``update``.
    query_name : str, optional
        The query's name.

    Returns
    -------
    :class:`pyspark.sql.streaming.StreamingQuery`
        The running query, as ``DataStreamWriter.start()`` returns it.

    Raises
    ------
    TypeError
        For a batch DataFrame.
    ValueError
        When the writer refuses its settings (``build()`` checks the table's kind, the producer,
        the buffer size); the message is the writer's.
    RuntimeError
        When a Spark Connect server does not run :data:`CONNECT_PLUGIN`, or the query ended at
        start.

    Notes
    -----
    With a Spark Connect DataFrame, the server starts the query in the client's server-side
    session (its ``spark.streams`` lists it and ``stop()`` stops it); ``query_name`` defaults to
    ``ytstream-real-time-<random>``, by which the client finds it. Closing the client's session
    stops it, as it stops the queries Connect starts itself.
    """
    if not isinstance(writer, ForeachWriter):
        raise TypeError(
            "ytstream.writers.start_real_time: writer is a"
            f" {type(writer).__name__}; give ytstream.writers.exactly_once(...), upsert(...),"
            " append(...) or producer(...)"
        )
    jdf = getattr(df, "_jdf", None)
    if jdf is None and not _is_connect(df):
        raise TypeError(
            "ytstream.writers.start_real_time: df is neither a classic nor a Spark Connect"
            f" DataFrame ({type(df).__module__}.{type(df).__name__})"
        )
    if not df.isStreaming:
        raise TypeError(
            "ytstream.writers.start_real_time: df is not a streaming DataFrame; read it with"
            " spark.readStream"
        )
    from pyspark.errors import IllegalArgumentException

    if jdf is None:
        try:
            return _start_connect(
                df, writer, checkpoint_location, real_time, output_mode, query_name
            )
        except IllegalArgumentException as error:
            raise ValueError(f"ytstream.writers.{writer.kind}: {_message(error)}") from None

    from py4j.protocol import Py4JJavaError

    spark = df.sparkSession
    jvm = spark.sparkContext._jvm
    assert jvm is not None
    try:
        jwriter = _jvm_writer(jvm, writer, jdf.schema())
    except IllegalArgumentException as error:  # the writer's build() refusing its settings
        raise ValueError(f"ytstream.writers.{writer.kind}: {_message(error)}") from None
    except Py4JJavaError as error:
        raise ValueError(
            f"ytstream.writers.{writer.kind}: {error.java_exception.getMessage()}"
        ) from None
    stream = (
        jdf.writeStream()
        .foreach(jwriter)
        .outputMode(output_mode)
        .option("checkpointLocation", checkpoint_location)
        .trigger(jvm.org.apache.spark.sql.streaming.Trigger.RealTime(real_time))
    )
    if query_name is not None:
        stream = stream.queryName(query_name)
    jquery = stream.start()
    query = spark.streams.get(jquery.id().toString())
    if query is None:  # stopped before Spark listed it
        raise RuntimeError(
            f"ytstream.writers.start_real_time: the query {jquery.id().toString()} ended at"
            f" start: {jquery.exception()}"
        )
    return query


def _message(error: Any) -> str:
    """Return a refusal's message.

    PySpark's getMessage() is empty for a JVM exception without an error condition (the
    writers' IllegalArgumentException), whose text str() gives before the JVM stack trace.
    """
    message = error.getMessage()
    if not message:
        message = str(error).split("\n\nJVM stacktrace:", 1)[0]
    return str(message)


def _is_connect(df: Any) -> bool:
    return type(df).__module__.startswith("pyspark.sql.connect.")


def _connect_options(writer: ForeachWriter) -> dict[str, str]:
    options = {"ytstream.writer": writer.kind, "ytstream.path": writer.path}
    if writer.flush_interval is not None:
        micros = round(writer.flush_interval / timedelta(microseconds=1))
        options["ytstream.flush_interval_micros"] = str(micros)
    if writer.max_buffered_rows is not None:
        options["ytstream.max_buffered_rows"] = str(writer.max_buffered_rows)
    for key in ("producer_path", "writer_id", "source_queue"):
        value = getattr(writer, key)
        if value is not None:
            options[f"ytstream.{key}"] = value
    return options


def _start_connect(
    df: Any,
    writer: ForeachWriter,
    checkpoint_location: str,
    real_time: str,
    output_mode: str,
    query_name: str | None,
) -> StreamingQuery:
    # The query as PySpark's own Connect writer describes it (plan, output mode, checkpoint,
    # name), sent to the server's RealTimeWriterCommand instead of its sink.
    from pyspark.errors.exceptions.connect import SparkConnectException

    name = query_name or f"ytstream-real-time-{uuid.uuid4().hex[:12]}"
    stream: Any = (
        df.writeStream.outputMode(output_mode)
        .option("checkpointLocation", checkpoint_location)
        .queryName(name)
    )
    # the batch duration as an option: PySpark 4.1's Connect writer has no trigger(realTime=...)
    for key, value in {**_connect_options(writer), "ytstream.real_time": real_time}.items():
        stream = stream.option(key, value)
    spark = df.sparkSession
    client = spark.client
    start = stream._write_stream.command(client).write_stream_operation_start
    from pyspark.sql.connect.proto import Command

    command = Command()
    command.extension.type_url = _CONNECT_COMMAND
    command.extension.value = start.SerializeToString()
    try:
        client.execute_command(command)
    except SparkConnectException as error:
        if "extension" not in str(error).lower():
            raise
        raise RuntimeError(
            "ytstream.writers.start_real_time: the Spark Connect server does not run ytstream's"
            " command plugin; start it with the connector jar and"
            f" {next(iter(CONNECT_PLUGIN))}={next(iter(CONNECT_PLUGIN.values()))}"
        ) from error
    for query in spark.streams.active:
        if query.name == name:
            return query  # type: ignore[no-any-return]
    raise RuntimeError(
        f"ytstream.writers.start_real_time: the query {name} ended at start; see the Connect"
        " server's log"
    )
