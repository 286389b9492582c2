package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.api.java.function.VoidFunction2;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.DataStreamReader;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

/**
 * {@code max_rows_per_trigger} caps a batch over all partitions, split by backlog; {@code
 * min_rows_per_trigger} holds batches back until enough rows wait or {@code max_trigger_delay}
 * passed; Trigger.AvailableNow honours the cap, ignores the minimum and stops at the end it saw
 * when it began.
 */
class TriggerSizingSparkTest {

  private final SparkSession spark = SharedSpark.get();

  private DataStreamReader reader() {
    return spark.readStream().format("yt").option("consumer_path", "//c");
  }

  /** The ids each batch saw, per batch, in batch order. */
  private static final class Batches {
    final List<List<Long>> ids = Collections.synchronizedList(new ArrayList<>());

    List<Long> all() {
      List<Long> out = new ArrayList<>();
      synchronized (ids) {
        ids.forEach(out::addAll);
      }
      out.sort(Long::compare);
      return out;
    }

    List<Integer> sizes() {
      List<Integer> out = new ArrayList<>();
      synchronized (ids) {
        ids.forEach(b -> out.add(b.size()));
      }
      return out;
    }
  }

  private static List<Long> idsOf(Dataset<Row> df) {
    List<Long> ids = new ArrayList<>();
    for (Row r : df.select("id").collectAsList()) {
      ids.add(r.getLong(0));
    }
    return ids;
  }

  private StreamingQuery run(
      Dataset<Row> df, String checkpoint, Trigger trigger, VoidFunction2<Dataset<Row>, Long> each)
      throws Exception {
    return df.writeStream()
        .option("checkpointLocation", checkpoint)
        .trigger(trigger)
        .foreachBatch(each)
        .start();
  }

  private static void toEnd(StreamingQuery q) throws Exception {
    try {
      q.awaitTermination();
    } finally {
      q.stop();
    }
  }

  @Test
  void theTotalCapIsSplitAcrossPartitionsByBacklog() throws Exception {
    TestCluster c = TestCluster.create(spark, "trigcap");
    c.queue("//q", 2).consumer("//c", "//q");
    c.produce("//q", 0, 0, 30);
    c.produce("//q", 1, 100, 110);
    Batches batches = new Batches();
    StreamingQuery q =
        run(
            reader().option("max_rows_per_trigger", "8").load("//q"),
            "yt:///ckpt/trigcap",
            Trigger.AvailableNow(),
            (df, id) -> batches.ids.add(idsOf(df)));
    toEnd(q);
    assertEquals(TestCluster.range(0, 30).size() + 10, batches.all().size(), "every row once");
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 30));
    expected.addAll(TestCluster.range(100, 110));
    assertEquals(expected, batches.all());
    assertEquals(List.of(8, 8, 8, 8, 8), batches.sizes(), "40 rows, 8 a trigger");
    // The first trigger: backlogs 30 and 10 share 8 rows 6:2.
    List<Long> first = new ArrayList<>(batches.ids.get(0));
    first.sort(Long::compare);
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 100L, 101L), first);
    assertEquals(40, c.consumerTotal("//c", "//q"), "the consumer is at the end");
  }

  /**
   * Rows appended while an AvailableNow run is going are left for the next run: the run ends at the
   * queue's end as it was when the run began, however many capped triggers it takes.
   */
  @Test
  void availableNowStopsAtTheEndItSawWhenItBegan() throws Exception {
    TestCluster c = TestCluster.create(spark, "trignow");
    c.queue("//q", 2).consumer("//c", "//q");
    c.produce("//q", 0, 0, 12);
    c.produce("//q", 1, 100, 108);
    Batches batches = new Batches();
    StreamingQuery q =
        run(
            reader().option("max_rows_per_trigger", "5").load("//q"),
            "yt:///ckpt/trignow",
            Trigger.AvailableNow(),
            (df, id) -> {
              batches.ids.add(idsOf(df));
              if (id == 0) {
                // During the run, before its second trigger is planned.
                c.produce("//q", 0, 12, 30);
                c.produce("//q", 1, 108, 120);
              }
            });
    toEnd(q);
    List<Long> before = new ArrayList<>(TestCluster.range(0, 12));
    before.addAll(TestCluster.range(100, 108));
    assertEquals(before, batches.all(), "exactly the 20 rows there when the run began");
    assertEquals(List.of(5, 5, 5, 5), batches.sizes(), "the cap held in every trigger");

    Batches next = new Batches();
    toEnd(
        run(
            reader().option("max_rows_per_trigger", "5").load("//q"),
            "yt:///ckpt/trignow",
            Trigger.AvailableNow(),
            (df, id) -> next.ids.add(idsOf(df))));
    List<Long> appended = new ArrayList<>(TestCluster.range(12, 30));
    appended.addAll(TestCluster.range(108, 120));
    assertEquals(appended, next.all(), "the next run reads what arrived during the first");
  }

  /**
   * A minimum must not end an AvailableNow run early: it ends at the first trigger without rows.
   */
  @Test
  void availableNowReadsEverythingDespiteAMinimum() throws Exception {
    TestCluster c = TestCluster.create(spark, "trigmin");
    c.queue("//q", 1).consumer("//c", "//q");
    c.produce("//q", 0, 0, 16);
    Batches batches = new Batches();
    toEnd(
        run(
            reader()
                .option("max_rows_per_trigger", "5")
                .option("min_rows_per_trigger", "5")
                .option("max_trigger_delay", "1h")
                .load("//q"),
            "yt:///ckpt/trigmin",
            Trigger.AvailableNow(),
            (df, id) -> batches.ids.add(idsOf(df))));
    assertEquals(TestCluster.range(0, 16), batches.all());
    assertEquals(List.of(5, 5, 5, 1), batches.sizes());
  }

  /**
   * With a minimum, a trigger with fewer rows runs no batch until the delay passed since the last
   * one; enough rows run one at once.
   */
  @Test
  void aMinimumHoldsBatchesBackUntilTheDelay() throws Exception {
    TestCluster c = TestCluster.create(spark, "trigdelay");
    c.queue("//q", 1).consumer("//c", "//q");
    c.produce("//q", 0, 0, 20);
    Batches batches = new Batches();
    List<Long> batchTimes = Collections.synchronizedList(new ArrayList<>());
    StreamingQuery q =
        run(
            reader()
                .option("min_rows_per_trigger", "10")
                .option("max_trigger_delay", "4s")
                .load("//q"),
            "yt:///ckpt/trigdelay",
            Trigger.ProcessingTime(100),
            (df, id) -> {
              List<Long> ids = idsOf(df);
              if (!ids.isEmpty()) {
                batches.ids.add(ids);
                batchTimes.add(System.nanoTime());
              }
            });
    try {
      Await.until(Duration.ofSeconds(30), () -> batches.ids.size() == 1, batches.ids::toString);
      c.produce("//q", 0, 20, 23);
      long appendedAt = System.nanoTime();
      Await.until(Duration.ofSeconds(30), () -> batches.ids.size() == 2, batches.ids::toString);
      long waitedMs = (batchTimes.get(1) - appendedAt) / 1_000_000;
      assertTrue(waitedMs >= 2_500, "3 rows < 10 waited for the delay, not " + waitedMs + " ms");
      assertEquals(TestCluster.range(20, 23), batches.ids.get(1));
      c.produce("//q", 0, 23, 40);
      long bigAt = System.nanoTime();
      Await.until(Duration.ofSeconds(30), () -> batches.ids.size() == 3, batches.ids::toString);
      long tookMs = (batchTimes.get(2) - bigAt) / 1_000_000;
      assertTrue(tookMs < 2_500, "17 rows >= 10 ran at once, not after " + tookMs + " ms");
      assertEquals(TestCluster.range(23, 40), batches.ids.get(2));
      StreamingQueryProgress last = q.lastProgress();
      assertTrue(last != null);
    } finally {
      q.stop();
    }
    assertEquals(TestCluster.range(0, 20), batches.ids.get(0), "the first batch runs at once");
  }
}
