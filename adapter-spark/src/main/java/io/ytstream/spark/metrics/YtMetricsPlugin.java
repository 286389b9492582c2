package io.ytstream.spark.metrics;

import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * Puts the {@code yt} sources' lag per queue partition into Spark's metrics system, so its sinks
 * (the {@code PrometheusServlet} at {@code /metrics/prometheus}, JMX, ...) show it while a query
 * runs: {@code spark.plugins=io.ytstream.spark.metrics.YtMetricsPlugin}. The gauges live in the
 * plugin's registry, which Spark names {@code <app id>.driver.plugin.<this class>}; their own names
 * are in {@link MetricNames}. Driver only: the sources measure lag on the driver.
 */
public final class YtMetricsPlugin implements SparkPlugin {

  @Override
  public DriverPlugin driverPlugin() {
    return new LagDriverPlugin();
  }

  @Override
  public ExecutorPlugin executorPlugin() {
    return null;
  }
}
