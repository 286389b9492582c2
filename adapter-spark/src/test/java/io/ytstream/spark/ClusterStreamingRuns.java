package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.ytsaurus.ClusterSetup;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;

/**
 * One streaming query per delivery mode against a cluster reached over HTTP, as a user runs it:
 * Spark reads a queue through a registered consumer and writes an output table, with its checkpoint
 * on {@code yt:///}. Everything lives in a new {@code <root>/ytstream-spark-<uuid>}, created here
 * and removed afterwards. {@link RealClusterStreamingTest} runs it against a real cluster, {@link
 * EmulatorClusterStreamingTest} against the emulator in every build.
 */
final class ClusterStreamingRuns {

  enum Mode {
    AT_LEAST_ONCE,
    TRANSACTIONAL,
    IDEMPOTENT
  }

  private static final List<Column> QUEUE_COLUMNS = TestCluster.QUEUE_COLUMNS;

  private final SparkSession spark;
  private final String proxy;
  private final Map<String, String> settings;
  private final YPath root;

  /**
   * @param settings adapter-ytsaurus settings ({@code yt.token}, {@code yt.http.*}); Spark gets
   *     each as {@code spark.hadoop.<key>}
   * @param parent where the run's own folder is made (it must exist and be writable)
   */
  ClusterStreamingRuns(
      SparkSession spark, String proxy, Map<String, String> settings, YPath parent) {
    this.spark = spark;
    this.proxy = proxy;
    this.settings = settings;
    this.root = parent.child("ytstream-spark-" + UUID.randomUUID());
  }

  /** Runs one query in {@code mode}: every row of the queue reaches the output, exactly once. */
  void run(Mode mode) throws Exception {
    try (ClusterSetup setup = new ClusterSetup(proxy, settings)) {
      YtCluster cluster = setup.cluster();
      YPath dir = root.child(mode.name().toLowerCase(java.util.Locale.ROOT));
      YPath queue = dir.child("queue");
      YPath consumer = dir.child("consumer");
      YPath out = dir.child("out");
      try {
        setup.createMapNode(dir);
        setup.createOrderedTable(queue, QUEUE_COLUMNS, 2);
        setup.createConsumer(consumer);
        setup.register(queue, consumer);
        if (mode == Mode.IDEMPOTENT) {
          setup.createSortedTable(out, RealTimeWritersTest.KEYED_OUTPUT);
        } else {
          setup.createOrderedTable(out, QUEUE_COLUMNS, 1);
        }
        List<Long> input = new ArrayList<>();
        input.addAll(produce(cluster, queue, 0, 0, 10));
        input.addAll(produce(cluster, queue, 1, 100, 105));
        runQuery(mode, queue, consumer, out, "yt:/" + dir.child("checkpoint").value());
        List<Long> output = new ArrayList<>();
        for (Row r : cluster.outputTables().readAll(out)) {
          output.add((Long) r.get("id"));
        }
        output.sort(Long::compare);
        assertEquals(input, output, mode + ": every queue row in the output once");
        long consumed =
            cluster
                .consumerOffsets()
                .read(new ConsumerId(cluster.name(), consumer), new QueueId(cluster.name(), queue))
                .total();
        assertEquals(input.size(), consumed, mode + ": the consumer reached the queue's end");
      } finally {
        setup.remove(root);
      }
    }
  }

  private void runQuery(Mode mode, YPath queue, YPath consumer, YPath out, String checkpoint)
      throws Exception {
    spark.conf().set(YtSettings.PROXY, proxy);
    settings.forEach((key, value) -> spark.conf().set("spark.hadoop." + key, value));
    spark.conf().set(YtSettings.TRANSACTIONAL, Boolean.toString(mode == Mode.TRANSACTIONAL));
    try {
      StreamingQuery q =
          spark
              .readStream()
              .format("yt")
              .option("consumer_path", consumer.value())
              .option("max_rows_per_partition", "4")
              .option("include_service_columns", Boolean.toString(mode == Mode.IDEMPOTENT))
              .load(queue.value())
              .writeStream()
              .format("yt")
              .option("path", out.value())
              .option("checkpointLocation", checkpoint)
              .trigger(Trigger.AvailableNow())
              .start();
      try {
        q.awaitTermination();
      } finally {
        q.stop();
      }
    } finally {
      spark.conf().unset(YtSettings.PROXY);
      spark.conf().unset(YtSettings.TRANSACTIONAL);
      settings.keySet().forEach(key -> spark.conf().unset("spark.hadoop." + key));
    }
  }

  /** Appends rows {@code id = from .. to-1} to one tablet of the queue; returns their ids. */
  private static List<Long> produce(
      YtCluster cluster, YPath queue, int tablet, long from, long to) {
    List<Row> rows = new ArrayList<>();
    List<Long> ids = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
      ids.add(id);
    }
    cluster.outputTables().append(queue, rows);
    return ids;
  }
}
