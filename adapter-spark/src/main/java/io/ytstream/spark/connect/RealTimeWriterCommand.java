package io.ytstream.spark.connect;

import io.ytstream.spark.writers.YtAppendForeachWriter;
import io.ytstream.spark.writers.YtExactlyOnceForeachWriter;
import io.ytstream.spark.writers.YtProducerForeachWriter;
import io.ytstream.spark.writers.YtUpsertForeachWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.apache.spark.connect.proto.WriteStreamOperationStart;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.classic.Dataset;
import org.apache.spark.sql.connect.planner.SparkConnectPlanner;
import org.apache.spark.sql.connect.plugin.CommandPlugin;
import org.apache.spark.sql.connect.service.ExecuteHolder;
import org.apache.spark.sql.connect.service.SparkConnectService$;
import org.apache.spark.sql.streaming.DataStreamWriter;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.types.StructType;
import org.sparkproject.connect.protobuf.Any;
import org.sparkproject.connect.protobuf.InvalidProtocolBufferException;

/**
 * A Spark Connect command that starts a Real-time Mode query writing with one of ytstream's JVM
 * writers, for clients without a JVM (PySpark's Connect client: {@code ytstream.writers}).
 *
 * <p>Spark's Real-time Mode takes only the sinks of its allowlist ({@code RealTimeModeAllowlist} in
 * Spark: the foreach sink, console, memory, Kafka), compared by class name, so the {@code yt} sink
 * cannot carry the writers there; and the Connect client's {@code foreach} sends Python code or a
 * Java-serialized writer, which a Python client cannot make. This command receives the query as the
 * client's own {@code WriteStreamOperationStart} (the streaming plan, output mode, checkpoint,
 * query name), packed in a {@code google.protobuf.Any} of type {@value #TYPE_URL}, with the writer
 * and the Real-time batch duration in options named {@code ytstream.*}, and starts {@code
 * writeStream.foreach(writer).trigger(Trigger.RealTime(...))} in the client's server-side session.
 * The client finds the query by its name.
 *
 * <p>Enable it on the Connect server: {@code
 * spark.connect.extensions.command.classes=io.ytstream.spark.connect.RealTimeWriterCommand}. The
 * query runs in the client's session like one Connect started: the client's {@code spark.streams}
 * lists it, {@code stop()} stops it, and closing the client's session stops it.
 */
public final class RealTimeWriterCommand implements CommandPlugin {

  public static final String TYPE_URL = "type.googleapis.com/io.ytstream.RealTimeForeachWriter";

  // The batch duration goes as an option, not as the message's trigger: Spark 4.1's Connect
  // protocol has no Real-time trigger.
  static final String REAL_TIME = "ytstream.real_time";
  static final String WRITER = "ytstream.writer";
  static final String PATH = "ytstream.path";
  static final String FLUSH_INTERVAL_MICROS = "ytstream.flush_interval_micros";
  static final String MAX_BUFFERED_ROWS = "ytstream.max_buffered_rows";
  static final String PRODUCER_PATH = "ytstream.producer_path";
  static final String WRITER_ID = "ytstream.writer_id";
  static final String SOURCE_QUEUE = "ytstream.source_queue";

  @Override
  public boolean process(byte[] raw, SparkConnectPlanner planner) {
    Any command;
    try {
      command = Any.parseFrom(raw);
    } catch (InvalidProtocolBufferException e) {
      return false;
    }
    if (!TYPE_URL.equals(command.getTypeUrl())) {
      return false;
    }
    WriteStreamOperationStart start;
    try {
      start = WriteStreamOperationStart.parseFrom(command.getValue());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          TYPE_URL + ": the command does not hold a WriteStreamOperationStart: " + e.getMessage(),
          e);
    }
    org.apache.spark.sql.classic.SparkSession session = planner.session();
    LogicalPlan plan = planner.transformRelation(start.getInput());
    try {
      track(planner, start(session, Dataset.ofRows(session, plan), start));
    } catch (TimeoutException e) {
      throw new IllegalStateException("the real-time query did not start: " + e.getMessage(), e);
    }
    return true;
  }

  /**
   * Registers the query with Connect's own streaming queries, as Connect does for those its {@code
   * writeStream.start()} starts: closing the client's session stops it, and interrupting the
   * command's operation does too. (Spark's {@code private[connect]} API, public in bytecode; the
   * same on Spark 4.1 and 4.2.)
   */
  private static void track(SparkConnectPlanner planner, StreamingQuery query) {
    scala.Option<ExecuteHolder> operation = planner.executeHolderOpt();
    if (operation.isDefined()) {
      SparkConnectService$.MODULE$
          .streamingSessionManager()
          .registerNewStreamingQuery(
              planner.sessionHolder(),
              query,
              operation.get().sparkSessionTags(),
              operation.get().operationId());
    }
  }

  static StreamingQuery start(
      org.apache.spark.sql.classic.SparkSession session,
      Dataset<Row> rows,
      WriteStreamOperationStart start)
      throws TimeoutException {
    Map<String, String> options = start.getOptionsMap();
    String realTime = options.get(REAL_TIME);
    if (realTime == null || realTime.isBlank()) {
      throw new IllegalArgumentException(
          TYPE_URL + ": option " + REAL_TIME + " (the Real-time batch duration) is missing");
    }
    // The writers' builders read the cluster's proxy and token from the active session.
    SparkSession.setActiveSession(session);
    DataStreamWriter<Row> stream =
        rows.writeStream()
            .foreach(writer(options, rows.schema()))
            .trigger(Trigger.RealTime(realTime));
    if (!start.getOutputMode().isEmpty()) {
      stream = stream.outputMode(start.getOutputMode());
    }
    if (!start.getQueryName().isEmpty()) {
      stream = stream.queryName(start.getQueryName());
    }
    for (Map.Entry<String, String> option : options.entrySet()) {
      if (!option.getKey().startsWith("ytstream.")) {
        stream = stream.option(option.getKey(), option.getValue());
      }
    }
    return stream.start();
  }

  static ForeachWriter<Row> writer(Map<String, String> options) {
    return writer(options, null);
  }

  /** The writer the options name; {@code schema}, the query's, lets the upsert writer check it. */
  static ForeachWriter<Row> writer(Map<String, String> options, StructType schema) {
    String kind = options.getOrDefault(WRITER, "");
    String path = options.get(PATH);
    return switch (kind) {
      case "exactly_once" -> {
        YtExactlyOnceForeachWriter.Builder b = YtExactlyOnceForeachWriter.builder().path(path);
        buffer(b, options);
        if (options.containsKey(SOURCE_QUEUE)) {
          b.sourceQueue(options.get(SOURCE_QUEUE));
        }
        yield b.build();
      }
      case "upsert" -> {
        YtUpsertForeachWriter.Builder b = YtUpsertForeachWriter.builder().path(path);
        buffer(b, options);
        if (schema != null) {
          b.rowSchema(schema);
        }
        yield b.build();
      }
      case "append" -> {
        YtAppendForeachWriter.Builder b = YtAppendForeachWriter.builder().path(path);
        buffer(b, options);
        yield b.build();
      }
      case "producer" -> {
        YtProducerForeachWriter.Builder b =
            YtProducerForeachWriter.builder().path(path).producerPath(options.get(PRODUCER_PATH));
        buffer(b, options);
        if (options.containsKey(WRITER_ID)) {
          b.writerId(options.get(WRITER_ID));
        }
        if (options.containsKey(SOURCE_QUEUE)) {
          b.sourceQueue(options.get(SOURCE_QUEUE));
        }
        yield b.build();
      }
      default ->
          throw new IllegalArgumentException(
              TYPE_URL
                  + ": option "
                  + WRITER
                  + "='"
                  + kind
                  + "' is not a writer; give exactly_once, upsert, append or producer");
    };
  }

  private static void buffer(
      io.ytstream.spark.writers.ForeachWriterBuilder<?> builder, Map<String, String> options) {
    if (options.containsKey(FLUSH_INTERVAL_MICROS)) {
      builder.flushInterval(
          Duration.ofNanos(Long.parseLong(options.get(FLUSH_INTERVAL_MICROS)) * 1_000));
    }
    if (options.containsKey(MAX_BUFFERED_ROWS)) {
      builder.maxBufferedRows(Integer.parseInt(options.get(MAX_BUFFERED_ROWS)));
    }
  }
}
