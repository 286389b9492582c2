package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.emulator.EmulatorOptions;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.emulator.YtEmulatorExtension;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The {@code yt} sink streaming into a static table over HTTP (the emulator): the table's kind
 * chooses the route, each batch's rows land once with the batch's record, a batch run again after
 * its commit writes nothing, and what cannot hold is refused naming the option.
 */
class StaticTableSinkOverHttpTest {

  private static final String QUEUE = "//q";
  private static final String CONSUMER = "//c";
  private static final String OUT = "//static_out";

  @RegisterExtension
  final YtEmulatorExtension yt = new YtEmulatorExtension(EmulatorOptions.defaults());

  private final SparkSession spark = SharedSpark.get();

  @AfterEach
  void resetSession() {
    spark.conf().unset(YtSettings.PROXY);
  }

  private EmulatorCluster cluster(YtEmulator emulator) {
    EmulatorCluster c = new EmulatorCluster(emulator);
    c.queue(QUEUE, 2).consumer(CONSUMER, QUEUE);
    c.cluster.createStaticTable(YPath.of(OUT), TestCluster.QUEUE_COLUMNS);
    spark.conf().set(YtSettings.PROXY, c.url());
    return c;
  }

  private static List<Long> staticIds(EmulatorCluster c) {
    List<Long> ids = new ArrayList<>();
    for (Row r : c.cluster.staticTableAppends().readAll(YPath.of(OUT))) {
      ids.add((Long) r.get("id"));
    }
    ids.sort(Long::compare);
    return ids;
  }

  private static List<Long> range(long from, long to) {
    List<Long> ids = new ArrayList<>();
    for (long i = from; i < to; i++) {
      ids.add(i);
    }
    return ids;
  }

  private StreamingQuery run(String checkpoint) throws Exception {
    StreamingQuery q = StaticSinkDriverMain.start(spark, QUEUE, CONSUMER, OUT, "yt:/" + checkpoint);
    q.processAllAvailable();
    return q;
  }

  @Test
  void everyRowLandsOnceAndTheTableRecordsTheBatch(YtEmulator emulator) throws Exception {
    EmulatorCluster c = cluster(emulator);
    c.produce(QUEUE, 0, 0, 300);
    c.produce(QUEUE, 1, 1000, 1250);
    StreamingQuery q = run("//ckpt/static");
    c.produce(QUEUE, 0, 300, 350);
    q.processAllAvailable();
    q.stop();

    List<Long> expected = range(0, 350);
    expected.addAll(range(1000, 1250));
    assertEquals(expected, staticIds(c));
    Map<?, ?> record =
        (Map<?, ?>)
            c.cluster
                .staticTableAppends()
                .attribute(YPath.of(OUT), "ytstream_batches")
                .orElseThrow();
    Map<?, ?> entry = (Map<?, ?>) record.get(q.id().toString());
    assertEquals(c.newest("//ckpt/static/commits"), ((Number) entry.get("batch")).longValue());
    assertEquals(600, c.consumerTotal(CONSUMER, QUEUE), "the consumer follows the commits");
    assertTrue(c.cluster.liveTransactions().isEmpty(), "no transaction left open");
  }

  @Test
  void aBatchRunAgainAfterItsCommitWritesNothing(YtEmulator emulator) throws Exception {
    EmulatorCluster c = cluster(emulator);
    c.produce(QUEUE, 0, 0, 100);
    run("//ckpt/again").stop();
    // The driver died after the sink's commit, before Spark logged commits/N.
    assertTrue(c.dropLastCommitIfLogged("//ckpt/again"));

    run("//ckpt/again").stop();

    assertEquals(range(0, 100), staticIds(c));
  }

  @Test
  void aProducerPathWithAStaticTableIsRefusedNamingTheOption(YtEmulator emulator) {
    cluster(emulator);
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .readStream()
                    .format("yt")
                    .option("consumer_path", CONSUMER)
                    .load(QUEUE)
                    .writeStream()
                    .format("yt")
                    .option("path", OUT)
                    .option("producer_path", "//producer")
                    .option("checkpointLocation", "yt:///ckpt/producer")
                    .trigger(Trigger.ProcessingTime(0))
                    .start()
                    .processAllAvailable());
    String message = rootMessage(e);
    assertTrue(
        message.contains("option producer_path = '//producer'")
            && message.contains("static table")
            && message.contains("remove producer_path"),
        message);
  }

  @Test
  void aColumnTheStaticTableLacksIsRefusedAsForADynamicTable(YtEmulator emulator) {
    EmulatorCluster c = cluster(emulator);
    c.cluster.createStaticTable(
        YPath.of("//narrow"), List.of(new Column("id", "int64", false, false)));
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .readStream()
                    .format("yt")
                    .option("consumer_path", CONSUMER)
                    .load(QUEUE)
                    .writeStream()
                    .format("yt")
                    .option("path", "//narrow")
                    .option("checkpointLocation", "yt:///ckpt/narrow")
                    .start()
                    .processAllAvailable());
    String message = rootMessage(e);
    assertTrue(message.contains("schema mismatch") && message.contains("'payload'"), message);
  }

  @Test
  void aTabletChoiceForAStaticTableIsRefusedNamingTheOptionAndWritesNothing(YtEmulator emulator) {
    EmulatorCluster c = cluster(emulator);
    c.produce(QUEUE, 0, 0, 10);
    Exception e =
        assertThrows(
            Exception.class,
            () ->
                spark
                    .readStream()
                    .format("yt")
                    .option("consumer_path", CONSUMER)
                    .load(QUEUE)
                    .writeStream()
                    .format("yt")
                    .option("path", OUT)
                    .option("output_tablet_key", "id")
                    .option("checkpointLocation", "yt:///ckpt/tablet-key")
                    .trigger(Trigger.ProcessingTime(0))
                    .start()
                    .processAllAvailable());
    String message = rootMessage(e);
    assertTrue(
        message.contains("option output_tablet_key = 'id'")
            && message.contains("static table, which has no tablets")
            && message.contains("Drop the option"),
        message);
    assertEquals(List.of(), staticIds(c));
  }

  private static String rootMessage(Throwable e) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append(" | ");
    }
    return all.toString();
  }
}
