package io.ytstream.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.spark.config.YtSettings;
import io.ytstream.spark.metrics.YtMetricsPlugin;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lag gauges of {@link YtMetricsPlugin} as an operator sees them: a SparkSession of its own
 * (the plugin, the UI on a free port, Spark's {@code PrometheusServlet} sink at {@code
 * /metrics/prometheus} and its JMX sink), a streaming query over the in-memory cluster with rows
 * pending, and the driver's endpoint scraped over HTTP while the query runs.
 *
 * <p>Needs a JVM without a SparkContext (plugins and sinks are read when the context starts), so it
 * runs in the {@code own-context} Surefire execution, not the shared fork. Figures as in {@code
 * LagMetricsSparkTest}: a row of {@code id int64, payload string} with both lag columns weighs 1 +
 * 8 + payload bytes + 8 + 8 ({@code yt/yt/client/table_client/unversioned_row.cpp}, {@code
 * GetDataWeight}); seconds are whole seconds of commit time under a manual clock.
 */
class OwnContextLagPluginTest {

  private static final String TOKEN = "AQAD-lag-plugin-secret-token";
  private static final long P0_ROW = 1 + 8 + 2 + 8 + 8; // payload "p0".."p9"
  private static final long P1_ROW = 1 + 8 + 4 + 8 + 8; // payload "p100".."p103"
  private static final String CLUSTER = "lagplugin";
  private static final String QUEUE = "lagplugin___q"; // lagplugin://q, sanitised

  private static SparkSession spark;
  private static String appId;
  private static URI scrape;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  @BeforeAll
  static void ownSession() throws IOException {
    assertTrue(
        SparkSession.getDefaultSession().isEmpty() && SparkSession.getActiveSession().isEmpty(),
        "this test needs a JVM without a SparkContext: Surefire runs OwnContext*Test in an"
            + " execution of its own (own-context); run it alone with -Dtest=OwnContextLagPluginTest");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    spark =
        SparkSession.builder()
            .master("local[2]")
            .appName("ytstream-lag-plugin")
            .config("spark.plugins", YtMetricsPlugin.class.getName())
            .config("spark.ui.enabled", "true")
            .config("spark.ui.port", Integer.toString(port))
            .config("spark.ui.prometheus.enabled", "true")
            .config(
                "spark.metrics.conf.*.sink.prometheusServlet.class",
                "org.apache.spark.metrics.sink.PrometheusServlet")
            .config("spark.metrics.conf.*.sink.prometheusServlet.path", "/metrics/prometheus")
            .config("spark.metrics.conf.*.sink.jmx.class", "org.apache.spark.metrics.sink.JmxSink")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.sql.shuffle.partitions", "2")
            .config("spark.sql.adaptive.enabled", "false")
            .config(YtSettings.TOKEN, TOKEN)
            .getOrCreate();
    appId = spark.sparkContext().applicationId();
    scrape = URI.create(spark.sparkContext().uiWebUrl().get() + "/metrics/prometheus/");
  }

  @AfterAll
  static void stopSession() {
    if (spark != null) {
      spark.stop();
    }
  }

  private static String scrape() throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(scrape).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, r.statusCode(), r.body());
    return r.body();
  }

  /** The servlet's line for a plugin gauge: Spark's full name with non-alphanumerics as '_'. */
  private static String promKey(String gauge) {
    String full = appId + ".driver.plugin." + YtMetricsPlugin.class.getName() + "." + gauge;
    return "metrics_" + full.replaceAll("[^a-zA-Z0-9]", "_") + "_Value{type=\"gauges\"}";
  }

  private static Long promValue(String body, String gauge) {
    Matcher m =
        Pattern.compile("(?m)^" + Pattern.quote(promKey(gauge)) + " (-?\\d+)$").matcher(body);
    return m.find() ? Long.valueOf(m.group(1)) : null;
  }

  private static Set<ObjectName> jmxGauges(String gauge) throws Exception {
    return JMX.queryNames(new ObjectName("metrics:type=gauges,*"), null).stream()
        .filter(n -> n.getKeyProperty("name").endsWith(gauge))
        .collect(Collectors.toSet());
  }

  private static String gauge(String query, int partition, String figure) {
    return "ytstream." + query + "." + QUEUE + "." + partition + "." + figure;
  }

  private static List<Column> lagColumns() {
    List<Column> columns = new ArrayList<>(TestCluster.QUEUE_COLUMNS);
    columns.add(new Column("$timestamp", "uint64", false, false));
    columns.add(new Column("$cumulative_data_weight", "int64", false, false));
    return columns;
  }

  private static void produce(InMemoryCluster cluster, int tablet, long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
    }
    cluster.outputTables().append(YPath.of("//q"), rows);
  }

  private static StreamingQuery start(String name, String maxRowsPerPartition) throws Exception {
    var reader = spark.readStream().format("yt").option("consumer_path", "//c");
    if (maxRowsPerPartition != null) {
      reader = reader.option("max_rows_per_partition", maxRowsPerPartition);
    }
    var writer =
        reader
            .load("//q")
            .writeStream()
            .format("yt")
            .option("path", "//out")
            .option("checkpointLocation", "yt:///ckpt/lag-plugin")
            // The first trigger runs at once, the next at the following multiple of a year since
            // the epoch (ProcessingTimeExecutor): the lag stays put to be read.
            .trigger(Trigger.ProcessingTime(Duration.ofDays(365).toMillis()));
    if (name != null) {
      writer = writer.queryName(name);
    }
    return writer.start();
  }

  @Test
  void lagPerPartitionOnTheDriversPrometheusEndpointAndJmxWhileTheQueryRuns() throws Exception {
    ManualClock clock = new ManualClock();
    InMemoryCluster cluster = new InMemoryCluster(CLUSTER, clock);
    InMemoryClusters.register(cluster);
    try {
      spark.conf().set(YtSettings.PROXY, "inmemory:" + CLUSTER);
      cluster.createOrderedTable(YPath.of("//q"), lagColumns(), 2);
      cluster.createOrderedTable(YPath.of("//out"), TestCluster.QUEUE_COLUMNS, 1);
      cluster.createConsumer(YPath.of("//c"));
      cluster.registerConsumer(YPath.of("//q"), YPath.of("//c"), true);
      produce(cluster, 0, 0, 5);
      clock.advance(Duration.ofSeconds(4));
      produce(cluster, 0, 5, 10);
      produce(cluster, 1, 100, 104);

      String before = scrape();
      assertEquals(0L, promValue(before, "ytstream.sources"), before);

      // Behind: the first batch reads [0, 3) of each partition; partition 0 has rows 3..9 unread
      // (row 3 from the first second, row 9 from 4 s later), partition 1 has row 103.
      StreamingQuery behind = start("orders-lag", "3");
      String query = "orders_lag";
      String[] seen = {""};
      try {
        Await.until(
            Duration.ofSeconds(60),
            () -> {
              try {
                seen[0] = scrape();
              } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
              return promValue(seen[0], gauge(query, 1, "lag_rows")) != null;
            },
            () -> seen[0]);
        String body = seen[0];
        assertEquals(7L, promValue(body, gauge(query, 0, "lag_rows")), body);
        assertEquals(7 * P0_ROW, promValue(body, gauge(query, 0, "lag_bytes")), body);
        assertEquals(4L, promValue(body, gauge(query, 0, "lag_seconds")), body);
        assertEquals(1L, promValue(body, gauge(query, 1, "lag_rows")), body);
        assertEquals(P1_ROW, promValue(body, gauge(query, 1, "lag_bytes")), body);
        assertEquals(0L, promValue(body, gauge(query, 1, "lag_seconds")), body);
        assertEquals(1L, promValue(body, "ytstream.sources"), body);
        assertFalse(body.contains(TOKEN), "the token is in the scrape");

        // JMX shows the same gauge (JmxSink's reporter: domain "metrics", type "gauges").
        Set<ObjectName> lagRows = jmxGauges(gauge(query, 0, "lag_rows"));
        assertEquals(1, lagRows.size(), lagRows.toString());
        assertEquals(7L, JMX.getAttribute(lagRows.iterator().next(), "Value"));
      } finally {
        behind.stop();
      }

      // Stopped: its gauges are gone.
      String stopped = scrape();
      assertEquals(null, promValue(stopped, gauge(query, 0, "lag_rows")), stopped);
      assertFalse(stopped.contains("_lag_rows_"), stopped);
      assertEquals(0L, promValue(stopped, "ytstream.sources"), stopped);
      assertEquals(Set.of(), jmxGauges(gauge(query, 0, "lag_rows")));

      // Caught up: the same query (same checkpoint, so the same id), unnamed and uncapped, reads
      // the rest in its first batch; its gauges carry the id and read 0.
      StreamingQuery caughtUp = start(null, null);
      String byId = caughtUp.id().toString().replace('-', '_');
      try {
        Await.until(
            Duration.ofSeconds(60),
            () -> {
              try {
                seen[0] = scrape();
              } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
              }
              return promValue(seen[0], gauge(byId, 1, "lag_rows")) != null;
            },
            () -> seen[0]);
        String body = seen[0];
        for (int p = 0; p < 2; p++) {
          assertEquals(0L, promValue(body, gauge(byId, p, "lag_rows")), body);
          assertEquals(0L, promValue(body, gauge(byId, p, "lag_bytes")), body);
          assertEquals(0L, promValue(body, gauge(byId, p, "lag_seconds")), body);
        }
        assertEquals(null, promValue(body, gauge(query, 0, "lag_rows")), body);
      } finally {
        caughtUp.stop();
      }
      assertEquals(14, cluster.outputTables().readAll(YPath.of("//out")).size());
      assertFalse(scrape().contains("_lag_rows_"));
    } finally {
      InMemoryClusters.remove(CLUSTER);
    }
  }
}
