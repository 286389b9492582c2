package io.ytstream.benchmarks.latency;

import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.ConsumerOffsets;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.QueueMetadata;
import io.ytstream.ports.QueuePartitionReader;
import io.ytstream.ports.QueueProducers;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableMetadata;
import io.ytstream.ports.TabletTransactions;
import io.ytstream.ports.TimeSource;
import io.ytstream.ports.spi.YtCluster;
import java.util.List;

/**
 * A cluster connection whose output writes report to {@link LatencyRecorder}: after {@code append}
 * or {@code upsert} returns, each written row's {@code sent_us} is paired with the time of return.
 * Everything else is the wrapped connection's.
 */
final class TimedCluster implements YtCluster {

  private final YtCluster inner;
  private final OutputTables timed;

  TimedCluster(YtCluster inner) {
    this.inner = inner;
    OutputTables out = inner.outputTables();
    this.timed =
        new OutputTables() {
          @Override
          public void append(YPath orderedTable, List<Row> rows) {
            out.append(orderedTable, rows);
            report(orderedTable, rows);
          }

          @Override
          public void upsert(YPath sortedTable, List<Row> rows) {
            out.upsert(sortedTable, rows);
            report(sortedTable, rows);
          }

          @Override
          public List<Row> readAll(YPath table) {
            return out.readAll(table);
          }
        };
  }

  private static void report(YPath table, List<Row> rows) {
    long now = LatencyClock.nowMicros();
    long[] sent = new long[rows.size()];
    int n = 0;
    for (Row r : rows) {
      if (r.get(LatencyRecorder.SENT_COLUMN) instanceof Long s) {
        sent[n++] = s;
      }
    }
    LatencyRecorder.of(table.value()).written(sent, n, now);
  }

  @Override
  public String name() {
    return inner.name();
  }

  @Override
  public QueuePartitionReader queueReader() {
    return inner.queueReader();
  }

  @Override
  public QueueMetadata queueMetadata() {
    return inner.queueMetadata();
  }

  @Override
  public ConsumerOffsets consumerOffsets() {
    return inner.consumerOffsets();
  }

  @Override
  public TabletTransactions transactions() {
    return inner.transactions();
  }

  @Override
  public OutputTables outputTables() {
    return timed;
  }

  @Override
  public TableMetadata tableMetadata() {
    return inner.tableMetadata();
  }

  @Override
  public CheckpointStore checkpoints() {
    return inner.checkpoints();
  }

  @Override
  public TimeSource time() {
    return inner.time();
  }

  @Override
  public QueueProducers queueProducers() {
    return inner.queueProducers();
  }

  @Override
  public void close() {
    inner.close();
  }
}
