package io.ytstream.spark.metrics;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import io.ytstream.application.MeasureLag;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The plugin's gauges over {@link LagBoard}: after each change of the board or of a query's name,
 * the set of gauges is brought to what the board holds, one gauge per partition and figure (bytes
 * and seconds only where the source measured them), each reading the latest value. Spark's metrics
 * system sees the plugin's registry as a child, so gauges added or removed here appear in and go
 * from its sinks (Prometheus servlet, JMX) while the application runs.
 */
final class LagGauges implements LagBoard.Listener {

  private final MetricRegistry registry;
  private final Function<String, String> queryLabel;
  private final Set<String> registered = new TreeSet<>();
  private volatile Map<String, Long> values = Map.of();
  private volatile int sources;
  private boolean closed;

  /**
   * @param queryLabel a query's name for the gauges, from its id
   */
  LagGauges(MetricRegistry registry, Function<String, String> queryLabel) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.queryLabel = Objects.requireNonNull(queryLabel, "queryLabel");
    // Registered at once: Spark registers a plugin's registry as a source only if it is not empty
    // when registerMetrics returns (PluginContextImpl.registerMetrics).
    registry.register(MetricNames.SOURCES, (Gauge<Integer>) () -> sources);
  }

  @Override
  public synchronized void changed() {
    if (closed) {
      return;
    }
    Map<String, Long> next = new TreeMap<>();
    int count = 0;
    for (LagBoard.Publication p : LagBoard.publications()) {
      count++;
      String query = queryLabel.apply(p.queryId());
      for (MeasureLag.PartitionLag lag : p.partitions()) {
        next.put(
            MetricNames.partitionGauge(query, lag.partition(), MetricNames.LAG_ROWS), lag.rows());
        put(next, query, lag, MetricNames.LAG_BYTES, lag.bytes());
        put(next, query, lag, MetricNames.LAG_SECONDS, lag.seconds());
      }
    }
    values = next;
    sources = count;
    for (String name : new TreeSet<>(registered)) {
      if (!next.containsKey(name)) {
        registry.remove(name);
        registered.remove(name);
      }
    }
    for (String name : next.keySet()) {
      if (registered.add(name)) {
        registry.register(name, (Gauge<Long>) () -> values.getOrDefault(name, 0L));
      }
    }
  }

  /** Removes every gauge this registered. */
  synchronized void close() {
    closed = true;
    registered.forEach(registry::remove);
    registered.clear();
    registry.remove(MetricNames.SOURCES);
  }

  private static void put(
      Map<String, Long> out,
      String query,
      MeasureLag.PartitionLag lag,
      String figure,
      OptionalLong value) {
    if (value.isPresent()) {
      out.put(MetricNames.partitionGauge(query, lag.partition(), figure), value.getAsLong());
    }
  }
}
