package io.ytstream.spark.writers;

import io.ytstream.application.ServiceColumns;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.UserInputErrors;
import io.ytstream.spark.config.YtSettings;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;

/**
 * A {@code ForeachWriter} that writes every input row into an ordered queue exactly once, in
 * Real-time Mode or any other trigger, through queue producer sessions (YTsaurus 24.1+): one
 * session per source partition, each row numbered by its source row index, so the server skips the
 * rows a restarted or replayed task pushes again.
 *
 * <p>The stream must be read with {@code include_service_columns=true} and keep {@code
 * __spyt_streaming_src_tablet_index} and {@code __spyt_streaming_src_row_index} (and {@code
 * __ytstream_src_queue} when it reads several queues); they number the rows and are not written.
 * Exactly once holds for stateless queries whose output for a source row is the same on every run
 * (select, filter, deterministic expressions), one output row per source row, without a shuffle:
 * the session id comes from the writer id (by default the query id, which the checkpoint keeps) and
 * the source partition.
 *
 * <pre>{@code
 * df.writeStream().foreach(YtProducerForeachWriter.builder()
 *         .path("//home/out-queue").producerPath("//home/producer").build())
 *     .outputMode("update").trigger(Trigger.RealTime("5 minutes")).start();
 * }</pre>
 *
 * Rows are pushed at least every {@code flushInterval} (default 5 ms), whenever {@code
 * maxBufferedRows} (default 1,000) have gathered, and when the task ends. A newer writer of the
 * same session fences this one: its push fails with "another writer took over this session" and is
 * not retried.
 */
public final class YtProducerForeachWriter extends ForeachWriter<org.apache.spark.sql.Row> {

  private static final long serialVersionUID = 1L;

  static final String NAME = "YtProducerForeachWriter";

  /** The local property Spark sets on a streaming query's jobs: its id, kept by the checkpoint. */
  static final String QUERY_ID_PROPERTY = "sql.streaming.queryId";

  private static final Set<String> SERVICE =
      Set.of(ServiceColumns.TABLET_INDEX, ServiceColumns.ROW_INDEX, ServiceColumns.QUEUE);

  private static final List<String> PRODUCER_KEY =
      List.of("queue_cluster", "queue_path", "session_id");

  final ForeachWriterConfig config;
  private final String producerPath;
  private final String writerId;
  private final String sourceQueue;

  private transient YtCluster cluster;
  private transient ProducerPushBuffer out;
  private transient int outputTablets;
  private transient RowValues rowValues;
  private transient boolean checkedRow;

  private YtProducerForeachWriter(
      ForeachWriterConfig config, String producerPath, String writerId, String sourceQueue) {
    this.config = config;
    this.producerPath = producerPath;
    this.writerId = writerId;
    this.sourceQueue = sourceQueue;
  }

  public static Builder builder() {
    return new Builder();
  }

  static void checkQueue(TableDescription t) {
    if (t.sorted()) {
      throw new IllegalArgumentException(
          NAME
              + ": "
              + t.path()
              + " (builder path) is a sorted table; this writer pushes into an ordered queue. Set"
              + " path(\"//home/out-queue\") to a queue, or use YtExactlyOnceForeachWriter to"
              + " upsert into a sorted table");
    }
  }

  static void checkProducer(TableDescription t) {
    List<String> keys = t.keyColumns().stream().map(Column::name).toList();
    if (!t.sorted() || !keys.equals(PRODUCER_KEY)) {
      throw new IllegalArgumentException(
          NAME
              + ": "
              + t.path()
              + " (builder producerPath) is not a queue producer (a sorted table keyed by "
              + PRODUCER_KEY
              + ", it has "
              + (t.sorted() ? "key " + keys : "no key")
              + "); create one with `yt create queue_producer "
              + t.path()
              + "` and pass it to producerPath(...)");
    }
  }

  private static TableDescription describe(YtCluster c, YPath path, String what) {
    try {
      return c.tableMetadata().describe(path);
    } catch (RuntimeException e) {
      throw UserInputErrors.describeFailed(path, what, e);
    }
  }

  @Override
  public boolean open(long partitionId, long epochId) {
    String id = writerId;
    if (id == null) {
      TaskContext task = TaskContext.get();
      id = task == null ? null : task.getLocalProperty(QUERY_ID_PROPERTY);
    }
    if (id == null || id.isBlank()) {
      throw new IllegalStateException(
          NAME
              + ": no writer id: this task does not belong to a streaming query, so its query id"
              + " cannot name the producer sessions; call writerId(\"my-pipeline\") on the"
              + " builder");
    }
    cluster = config.cluster.connect();
    try {
      TableDescription queue =
          describe(cluster, config.outputPath(), "output queue (builder path)");
      checkQueue(queue);
      outputTablets = Math.max(1, queue.tabletCount());
      rowValues = new RowValues(queue, NAME, config.path, "queue", SERVICE);
      checkedRow = false;
      out =
          new ProducerPushBuffer(
              NAME,
              cluster.queueProducers(),
              YPath.of(producerPath),
              config.outputPath(),
              id,
              config.maxBufferedRows,
              config.flushIntervalMs);
    } catch (RuntimeException e) {
      cluster.close();
      cluster = null;
      throw e;
    }
    return true;
  }

  @Override
  public void process(org.apache.spark.sql.Row row) {
    StructType schema = row.schema();
    if (!checkedRow) {
      checkServiceColumns(schema);
      checkedRow = true;
    }
    long tablet = row.getLong(schema.fieldIndex(ServiceColumns.TABLET_INDEX));
    long rowIndex = row.getLong(schema.fieldIndex(ServiceColumns.ROW_INDEX));
    String queue = queueOf(row, schema);
    Map<String, Object> values = rowValues.of(row);
    // The same source partition lands in the same output tablet, keeping its order.
    values.put("$tablet_index", tablet % outputTablets);
    out.add(queue, tablet, rowIndex, Row.of(values));
  }

  private String queueOf(org.apache.spark.sql.Row row, StructType schema) {
    for (String f : schema.fieldNames()) {
      if (f.equals(ServiceColumns.QUEUE)) {
        Object q = row.get(schema.fieldIndex(f));
        return q == null ? "" : q.toString();
      }
    }
    return sourceQueue == null ? "" : sourceQueue;
  }

  private void checkServiceColumns(StructType schema) {
    List<String> names = List.of(schema.fieldNames());
    for (String needed : List.of(ServiceColumns.TABLET_INDEX, ServiceColumns.ROW_INDEX)) {
      if (!names.contains(needed)) {
        throw new IllegalArgumentException(
            NAME
                + ": the rows have no column "
                + needed
                + " (they have "
                + names
                + "); this writer numbers each row by its source position: read the stream with"
                + " option(\"include_service_columns\", \"true\") and keep "
                + ServiceColumns.TABLET_INDEX
                + " and "
                + ServiceColumns.ROW_INDEX
                + " in the select");
      }
    }
  }

  /** Rows this task's pushes carried that the server skipped as already written. */
  long skippedRowCount() {
    return out == null ? 0 : out.skippedRowCount();
  }

  /** Rows this task pushed, skipped ones included. */
  long pushedRowCount() {
    return out == null ? 0 : out.pushedRowCount();
  }

  @Override
  public void close(Throwable errorOrNull) {
    try {
      if (errorOrNull == null && out != null) {
        out.flush();
      }
    } finally {
      if (out != null) {
        out.close();
      }
      if (cluster != null) {
        cluster.close();
      }
      cluster = null;
    }
  }

  @Override
  public String toString() {
    return NAME + "[" + config + " through " + producerPath + "]";
  }

  /** The session's per-tablet row limit of one transaction, or its default without a session. */
  private static long maxRowsPerTablet() {
    scala.Option<SparkSession> active = SparkSession.getActiveSession();
    return (active.isDefined() ? YtSettings.of(active.get()) : YtSettings.of(Map.of()))
        .maxRowsPerTabletPerTransaction();
  }

  /**
   * A flush pushes a session's rows, which all go to one output tablet, in one tablet transaction
   * per push, so a flush of more rows than a tablet takes per transaction would be refused (1717)
   * at the push; it is refused here, before anything is written.
   */
  static void checkFlushFitsATablet(int maxBufferedRows, long maxRowsPerTablet) {
    if (maxBufferedRows > maxRowsPerTablet) {
      throw new IllegalArgumentException(
          NAME
              + ": maxBufferedRows("
              + maxBufferedRows
              + ") is above the rows one tablet takes in one transaction, "
              + maxRowsPerTablet
              + " ("
              + YtSettings.MAX_ROWS_PER_TABLET
              + "); a flush pushes up to maxBufferedRows rows into one output tablet in one"
              + " transaction, which the cluster refuses. Set maxBufferedRows("
              + maxRowsPerTablet
              + ") or less, or raise "
              + YtSettings.MAX_ROWS_PER_TABLET
              + " to the cluster's own limit if it is higher");
    }
  }

  /** Builds the writer on the driver; the output queue and the producer are checked here. */
  public static final class Builder extends ForeachWriterBuilder<Builder> {
    private String producerPath;
    private String writerId;
    private String sourceQueue;

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    /** The queue producer (a table made by {@code yt create queue_producer}); required. */
    public Builder producerPath(String producer) {
      this.producerPath = producer;
      return this;
    }

    /**
     * Names the producer sessions (default: the query id, which the checkpoint keeps). Give the
     * same value to a query started again on a new checkpoint that must not write rows twice.
     */
    public Builder writerId(String id) {
      this.writerId = id;
      return this;
    }

    /** The source queue's path, part of the session id when the stream reads one queue. */
    public Builder sourceQueue(String queue) {
      this.sourceQueue = queue;
      return this;
    }

    public YtProducerForeachWriter build() {
      ForeachWriterConfig config = resolve(NAME);
      if (producerPath == null || producerPath.isBlank()) {
        throw new IllegalArgumentException(
            NAME
                + ": the queue producer is missing: create one with `yt create queue_producer"
                + " //home/producer` and call producerPath(\"//home/producer\") on the builder");
      }
      if (writerId != null && writerId.isBlank()) {
        throw new IllegalArgumentException(
            NAME + ": writerId must not be blank; leave it unset to use the query id");
      }
      checkFlushFitsATablet(config.maxBufferedRows, maxRowsPerTablet());
      try (YtCluster c = config.cluster.connect()) {
        checkQueue(describe(c, config.outputPath(), "output queue (builder path)"));
        checkProducer(describe(c, YPath.of(producerPath), "queue producer (builder producerPath)"));
      }
      return new YtProducerForeachWriter(config, producerPath, writerId, sourceQueue);
    }
  }
}
