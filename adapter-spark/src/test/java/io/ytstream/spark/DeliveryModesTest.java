package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.ServiceColumns;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The three modes when a driver stops after the sink committed batch N but before Spark wrote
 * {@code commits/N}: Spark runs batch N again. At-least-once writes it twice; the transactional
 * sink finds the consumer at the batch's end and aborts the new transaction; the idempotent
 * receiver overwrites the same keys.
 */
class DeliveryModesTest {

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void resetMode() {
    spark.conf().unset(YtSettings.TRANSACTIONAL);
  }

  private void run(String queue, String out, String ckpt, boolean serviceColumns) throws Exception {
    Dataset<org.apache.spark.sql.Row> df =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", "4")
            .option("include_service_columns", Boolean.toString(serviceColumns))
            .load(queue);
    df.writeStream()
        .format("yt")
        .option("path", out)
        .option("checkpointLocation", ckpt)
        .trigger(Trigger.AvailableNow())
        .start()
        .awaitTermination();
  }

  private static TestCluster source(TestCluster c) {
    c.queue("//q", 2).consumer("//c", "//q");
    c.produce("//q", 0, 0, 10);
    c.produce("//q", 1, 100, 106);
    return c;
  }

  private static List<Long> expected() {
    List<Long> ids = new ArrayList<>(TestCluster.range(0, 10));
    ids.addAll(TestCluster.range(100, 106));
    return ids;
  }

  @Test
  void atLeastOnceWritesARerunBatchTwice() throws Exception {
    TestCluster c = source(TestCluster.create(spark, "modes-alo"));
    c.orderedTable("//out", 2);
    run("//q", "//out", "yt:///ckpt/m", false);
    assertEquals(expected(), c.ids("//out"));
    c.dropLastCommit("//ckpt/m");
    run("//q", "//out", "yt:///ckpt/m", false);
    assertNotEquals(expected(), c.ids("//out"), "the rerun batch is written again");
    assertTrue(c.ids("//out").containsAll(expected()), "and nothing is lost");
    assertEquals(16, c.consumerTotal("//c", "//q"));
  }

  @Test
  void transactionalAbortsARerunOfAnAppliedBatch() throws Exception {
    spark.conf().set(YtSettings.TRANSACTIONAL, "true");
    TestCluster c = source(TestCluster.create(spark, "modes-tx"));
    c.orderedTable("//out", 2);
    run("//q", "//out", "yt:///ckpt/m", false);
    assertEquals(expected(), c.ids("//out"));
    assertEquals(10, c.consumerOffset("//c", "//q", 0));
    assertEquals(6, c.consumerOffset("//c", "//q", 1));
    for (int i = 0; i < 2; i++) {
      c.dropLastCommit("//ckpt/m");
      run("//q", "//out", "yt:///ckpt/m", false);
      assertEquals(expected(), c.ids("//out"), "rerun " + i + " wrote nothing twice");
    }
    assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open");
    c.produce("//q", 1, 106, 109);
    run("//q", "//out", "yt:///ckpt/m", false);
    List<Long> more = expected();
    more.addAll(TestCluster.range(106, 109));
    more.sort(Long::compare);
    assertEquals(more, c.ids("//out"));
    assertEquals(9, c.consumerOffset("//c", "//q", 1));
  }

  @Test
  void idempotentReceiverOverwritesARerunBatch() throws Exception {
    TestCluster c = source(TestCluster.create(spark, "modes-idem"));
    c.sortedTable(
        "//out",
        List.of(
            new Column(ServiceColumns.TABLET_INDEX, "int64", true, true),
            new Column(ServiceColumns.ROW_INDEX, "int64", true, true),
            new Column("id", "int64", false, false),
            new Column("payload", "string", false, false)));
    run("//q", "//out", "yt:///ckpt/m", true);
    assertEquals(expected(), c.ids("//out"));
    c.dropLastCommit("//ckpt/m");
    run("//q", "//out", "yt:///ckpt/m", true);
    assertEquals(expected(), c.ids("//out"), "the rerun overwrote the same keys");
    Set<String> keys = new HashSet<>();
    for (Row r : c.rows("//out")) {
      keys.add(r.get(ServiceColumns.TABLET_INDEX) + "/" + r.get(ServiceColumns.ROW_INDEX));
      long tablet = (Long) r.get(ServiceColumns.TABLET_INDEX);
      long row = (Long) r.get(ServiceColumns.ROW_INDEX);
      long id = (Long) r.get("id");
      assertEquals(tablet == 0 ? row : 100 + row, id, "service columns are the source position");
    }
    assertEquals(16, keys.size());
  }
}
