package io.ytstream.spark;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.ports.Row;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@code $tablet_index} column chooses each row's tablet over HTTP (the emulator), exactly once
 * across a rerun of the last batch in the transactional and producer modes.
 */
class ChosenOutputTabletOverHttpTest {

  private static final int OUT_TABLETS = 3;

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void reset() {
    spark.conf().unset(YtSettings.PROXY);
    spark.conf().unset(YtSettings.TRANSACTIONAL);
  }

  private void run(boolean producer) throws Exception {
    Dataset<org.apache.spark.sql.Row> df =
        spark
            .readStream()
            .format("yt")
            .option("consumer_path", "//c")
            .option("max_rows_per_partition", "4")
            .load("//q")
            .withColumn("$tablet_index", col("id").mod(OUT_TABLETS));
    var w =
        df.writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/http")
            .trigger(Trigger.AvailableNow());
    if (producer) {
      w = w.option("producer_path", "//producer");
    }
    w.start().awaitTermination();
  }

  private void everyRowOnceInItsTablet(YtEmulator emulator, boolean producer) throws Exception {
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue("//q", 2).consumer("//c", "//q").orderedTable("//out", OUT_TABLETS);
    c.cluster.createQueueProducer(YPath.of("//producer"));
    c.produce("//q", 0, 0, 10);
    c.produce("//q", 1, 100, 106);
    spark.conf().set(YtSettings.PROXY, c.url());
    spark.conf().set(YtSettings.TRANSACTIONAL, Boolean.toString(!producer));
    run(producer);
    assertTrue(c.dropLastCommitIfLogged("//ckpt/http"), "the last batch is run again");
    run(producer);

    List<Long> all = new ArrayList<>();
    for (int t = 0; t < OUT_TABLETS; t++) {
      List<Long> ids = new ArrayList<>();
      for (Row r : c.cluster.rows(YPath.of("//out"), t, 0)) {
        ids.add((Long) r.get("id"));
      }
      for (long id : ids) {
        assertEquals(id % OUT_TABLETS, t, "id " + id + " in tablet " + t);
      }
      all.addAll(ids);
    }
    all.sort(Long::compare);
    List<Long> expected = new ArrayList<>(TestCluster.range(0, 10));
    expected.addAll(TestCluster.range(100, 106));
    assertEquals(expected, all, "every row once");
  }

  @Test
  void transactional(YtEmulator emulator) throws Exception {
    everyRowOnceInItsTablet(emulator, false);
  }

  @Test
  void producerSessions(YtEmulator emulator) throws Exception {
    everyRowOnceInItsTablet(emulator, true);
  }
}
