package io.ytstream.spark.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.ytstream.application.MeasureLag.PartitionLag;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The gauges over the lag board, in a registry hung under a parent the way Spark's metrics system
 * hangs a plugin's ({@code MetricsSystem.registerSource}: the plugin's registry registered as a
 * metric of the system's), so gauges added and removed after that reach the parent.
 */
class LagGaugesTest {

  private static final QueueId Q = QueueId.of("primary", "//home/orders");
  private static final String PLUGIN = "app-1.driver.plugin." + YtMetricsPlugin.class.getName();

  private final MetricRegistry parent = new MetricRegistry();
  private final MetricRegistry plugin = new MetricRegistry();
  private final Map<String, String> names = new ConcurrentHashMap<>();
  private LagGauges gauges;

  @BeforeEach
  void attach() {
    gauges = new LagGauges(plugin, id -> names.getOrDefault(id, id));
    parent.register(PLUGIN, plugin);
    LagBoard.attach(gauges);
  }

  @AfterEach
  void detach() {
    LagBoard.detach(gauges);
    gauges.close();
  }

  private Object value(String gauge) {
    Gauge<?> g = parent.getGauges().get(PLUGIN + "." + gauge);
    return g == null ? null : g.getValue();
  }

  private static PartitionLag lag(int partition, long rows, OptionalLong bytes, OptionalLong secs) {
    return new PartitionLag(new PartitionId(Q, partition), rows, bytes, secs);
  }

  @Test
  void eachPartitionHasItsFiguresUnderTheQueryAndQueueWithOnlyAllowedCharacters() {
    names.put("id-1", "orders-to-dwh");
    long source = LagBoard.newSource();
    LagBoard.publish(
        source,
        "id-1",
        List.of(
            lag(0, 7, OptionalLong.of(189), OptionalLong.of(4)),
            lag(1, 0, OptionalLong.empty(), OptionalLong.empty())));

    assertEquals(7L, value("ytstream.orders_to_dwh.primary___home_orders.0.lag_rows"));
    assertEquals(189L, value("ytstream.orders_to_dwh.primary___home_orders.0.lag_bytes"));
    assertEquals(4L, value("ytstream.orders_to_dwh.primary___home_orders.0.lag_seconds"));
    assertEquals(0L, value("ytstream.orders_to_dwh.primary___home_orders.1.lag_rows"));
    // Not measured: no gauge, rather than a made-up zero.
    assertEquals(null, value("ytstream.orders_to_dwh.primary___home_orders.1.lag_bytes"));
    assertEquals(1, value(MetricNames.SOURCES));

    LagBoard.publish(source, "id-1", List.of(lag(0, 2, OptionalLong.of(54), OptionalLong.of(0))));
    assertEquals(2L, value("ytstream.orders_to_dwh.primary___home_orders.0.lag_rows"));
    assertEquals(
        null,
        value("ytstream.orders_to_dwh.primary___home_orders.1.lag_rows"),
        "a partition the latest figures do not have loses its gauges");
  }

  @Test
  void aStoppedSourceLosesItsGaugesAndAQueryNamedLaterIsRenamed() {
    long source = LagBoard.newSource();
    LagBoard.publish(
        source, "id-2", List.of(lag(0, 3, OptionalLong.empty(), OptionalLong.empty())));
    assertEquals(3L, value("ytstream.id_2.primary___home_orders.0.lag_rows"));

    names.put("id-2", "named");
    gauges.changed(); // what the query's start event does
    assertEquals(null, value("ytstream.id_2.primary___home_orders.0.lag_rows"));
    assertEquals(3L, value("ytstream.named.primary___home_orders.0.lag_rows"));

    LagBoard.withdraw(source);
    assertFalse(
        parent.getGauges().keySet().stream().anyMatch(n -> n.contains("lag_")),
        parent.getGauges().keySet().toString());
    assertEquals(0, value(MetricNames.SOURCES));
  }

  @Test
  void withoutThePluginNothingIsKept() {
    LagBoard.detach(gauges);
    long source = LagBoard.newSource();
    assertFalse(LagBoard.enabled());
    LagBoard.publish(
        source, "id-3", List.of(lag(0, 1, OptionalLong.empty(), OptionalLong.empty())));
    assertTrue(LagBoard.publications().isEmpty());
    LagBoard.attach(gauges);
  }
}
