package io.ytstream.benchmarks.latency;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The control of the latency comparison: the sink's part alone. No queue, no source, no Spark
 * query: per partition a thread stands in for the real-time task, paced as the queue's producer
 * ({@link QueueProducer}: about every millisecond the rows due, each stamped just before), and
 * hands each row straight to a writer of its own (the one the query's task would get, through the
 * same {@link TimedConnector} to the same emulator), opening and closing it at every batch boundary
 * as Spark does. What it measures, send to the writer's write returning, every variant pays on top
 * of its source's part: the floor no source can go under.
 */
final class WriterFloor implements LatencyStore.Producer {

  /** The rows the query hands the append writer: the queue's columns. */
  static final StructType APPEND_ROW =
      new StructType()
          .add("id", DataTypes.LongType, false)
          .add(LatencyRecorder.SENT_COLUMN, DataTypes.LongType, false);

  /** The exactly-once writer's: with the source position ({@code include_service_columns}). */
  static final StructType EXACTLY_ONCE_ROW =
      APPEND_ROW
          .add(LatencyBench.TABLET_INDEX, DataTypes.LongType, false)
          .add(LatencyBench.ROW_INDEX, DataTypes.LongType, false);

  private final List<QueueProducer> partitions = new ArrayList<>();

  /**
   * Starts {@code partitions} feeders of {@code rate / partitions} rows/s each, partition p getting
   * the ids p, p + partitions, …, each with a writer from {@code writers} (built on the driver, as
   * for a query), a new epoch opened every {@code batchMs}.
   */
  WriterFloor(
      Supplier<ForeachWriter<Row>> writers,
      boolean exactlyOnce,
      int partitions,
      int rate,
      long batchMs) {
    for (int p = 0; p < partitions; p++) {
      Feeder feeder = new Feeder(writers.get(), exactlyOnce, p, partitions, batchMs);
      this.partitions.add(
          QueueProducer.start("writer floor, partition " + p, feeder, rate / (double) partitions));
    }
  }

  @Override
  public void window(long fromMicros, long toMicros) {
    partitions.forEach(p -> p.window(fromMicros, toMicros));
  }

  @Override
  public long stop() {
    long sent = 0;
    for (QueueProducer p : partitions) {
      sent += p.stop();
    }
    return sent;
  }

  @Override
  public void close() {
    partitions.forEach(QueueProducer::close);
  }

  /** One partition's stand-in task: its rows, in order, to its writer. */
  private static final class Feeder implements QueueProducer.Appender {
    private final ForeachWriter<Row> writer;
    private final boolean exactlyOnce;
    private final int partition;
    private final int partitions;
    private final long batchMicros;
    private long epoch;
    private long epochs;
    private long epochEndMicros;

    Feeder(
        ForeachWriter<Row> writer,
        boolean exactlyOnce,
        int partition,
        int partitions,
        long batchMs) {
      this.writer = writer;
      this.exactlyOnce = exactlyOnce;
      this.partition = partition;
      this.partitions = partitions;
      this.batchMicros = batchMs * 1000;
      this.epochEndMicros = Long.MIN_VALUE;
    }

    @Override
    public void append(long from, long to, long nowMicros) {
      if (nowMicros >= epochEndMicros) {
        // A batch boundary: the task ends (its writer flushes in close) and the next one opens.
        if (epoch > 0) {
          writer.close(null);
        }
        epochs++;
        epoch = epochs;
        writer.open(partition, epoch);
        epochEndMicros = nowMicros + batchMicros;
      }
      for (long i = from; i < to; i++) {
        long id = i * partitions + partition;
        writer.process(
            exactlyOnce
                ? new GenericRowWithSchema(
                    new Object[] {id, nowMicros, (long) partition, i}, EXACTLY_ONCE_ROW)
                : new GenericRowWithSchema(new Object[] {id, nowMicros}, APPEND_ROW));
      }
    }

    /** Ends the last epoch (its rows written); called again, does nothing. */
    @Override
    public void close() {
      if (epoch > 0) {
        epoch = 0;
        writer.close(null);
      }
    }
  }
}
