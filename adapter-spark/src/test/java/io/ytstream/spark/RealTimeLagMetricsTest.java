package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Real-time Mode reports lag in rows, bytes and seconds too: a slow writer leaves each 1 s batch
 * behind a queue of 2,000 rows, and every report's figures match the rows left unread, worked out
 * from the server's weight rule (1 + 8 + payload bytes + 8 + 8 per row).
 */
class RealTimeLagMetricsTest {

  private static final int ROWS = 2_000;

  private final SparkSession spark = SharedSpark.get();

  @BeforeEach
  void shortBatches() {
    RealTimeTests.shortBatches(spark);
  }

  @AfterEach
  void reset() {
    RealTimeTests.reset(spark);
  }

  private static long weight(long id) {
    return 1 + 8 + ("p" + id).length() + 8 + 8;
  }

  @Test
  void eachReportMatchesTheRowsLeftUnread() throws Exception {
    ManualClock clock = new ManualClock();
    InMemoryCluster cluster = new InMemoryCluster("rt-lag-" + UUID.randomUUID(), clock);
    InMemoryClusters.register(cluster);
    List<Column> columns = new ArrayList<>(TestCluster.QUEUE_COLUMNS);
    columns.add(new Column("$timestamp", "uint64", false, false));
    columns.add(new Column("$cumulative_data_weight", "int64", false, false));
    cluster.createOrderedTable(YPath.of("//q"), columns, 1);
    cluster.createConsumer(YPath.of("//c"));
    cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
    List<io.ytstream.ports.Row> rows = new ArrayList<>();
    for (long id = 0; id < ROWS; id++) {
      if (id == ROWS / 2) {
        cluster.appendToTablet(YPath.of("//q"), 0, rows);
        rows = new ArrayList<>();
        clock.advance(Duration.ofSeconds(3));
      }
      rows.add(io.ytstream.ports.Row.of("id", id, "payload", "p" + id));
    }
    cluster.appendToTablet(YPath.of("//q"), 0, rows);
    StreamingQuery q = null;
    try {
      spark.conf().set(YtSettings.PROXY, "inmemory:" + cluster.name());
      q =
          spark
              .readStream()
              .format("yt")
              .option("consumer_path", "//c")
              .load("//q")
              .writeStream()
              .foreach(new SlowWriter("rt-lag"))
              .outputMode("update")
              .option("checkpointLocation", "yt:///ckpt/rt-lag")
              .trigger(Trigger.RealTime(RealTimeTests.BATCH))
              .start();
      Await.until(
          Duration.ofSeconds(90),
          () -> CollectingForeachWriter.seen("rt-lag").size() >= ROWS,
          () -> CollectingForeachWriter.seen("rt-lag").size() + " rows");
      StreamingQuery running = q;
      Await.until(
          Duration.ofSeconds(30),
          () -> running.recentProgress().length >= 2,
          () -> running.recentProgress().length + " reports");
    } finally {
      if (q != null) {
        q.stop();
      }
      InMemoryClusters.remove(cluster.name());
    }
    List<Map<String, String>> behind = new ArrayList<>();
    for (StreamingQueryProgress p : q.recentProgress()) {
      Map<String, String> m = p.sources()[0].metrics();
      long rowsBehind = Long.parseLong(m.getOrDefault("totalRowsBehindLatest", "0"));
      if (rowsBehind == 0) {
        continue;
      }
      behind.add(m);
      long consumed = ROWS - rowsBehind;
      long bytes = 0;
      for (long id = consumed; id < ROWS; id++) {
        bytes += weight(id);
      }
      assertEquals(Long.toString(bytes), m.get("totalBytesBehindLatest"), m.toString());
      assertEquals(consumed < ROWS / 2 ? "3" : "0", m.get("maxSecondsBehindLatest"), m.toString());
    }
    assertFalse(behind.isEmpty(), "a report with rows behind: " + q.recentProgress().length);
  }

  /** Collects rows as {@link CollectingForeachWriter} does, 2 ms a row. */
  private static final class SlowWriter extends ForeachWriter<Row> {

    private static final long serialVersionUID = 1L;

    private final CollectingForeachWriter rows;

    SlowWriter(String name) {
      this.rows = new CollectingForeachWriter(name);
    }

    @Override
    public boolean open(long partitionId, long epochId) {
      return rows.open(partitionId, epochId);
    }

    @Override
    public void process(Row row) {
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      rows.process(row);
    }

    @Override
    public void close(Throwable errorOrNull) {
      rows.close(errorOrNull);
    }
  }
}
