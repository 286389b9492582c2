package io.ytstream.spark.metrics;

import java.util.Map;
import org.apache.spark.SparkContext;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.PluginContext;

/** Follows the queries' names from the start, and the board from the metrics' registration. */
final class LagDriverPlugin implements DriverPlugin {

  private SparkContext sc;
  private QueryNames names;
  private volatile LagGauges gauges;

  @Override
  public Map<String, String> init(SparkContext sc, PluginContext ctx) {
    this.sc = sc;
    this.names =
        new QueryNames(
            () -> {
              LagGauges g = gauges;
              if (g != null) {
                g.changed();
              }
            });
    sc.addSparkListener(names);
    return Map.of();
  }

  @Override
  public void registerMetrics(String appId, PluginContext ctx) {
    LagGauges g = new LagGauges(ctx.metricRegistry(), names::label);
    gauges = g;
    LagBoard.attach(g);
  }

  @Override
  public void shutdown() {
    LagGauges g = gauges;
    if (g != null) {
      LagBoard.detach(g);
      g.close();
    }
    if (sc != null && names != null) {
      sc.removeSparkListener(names);
    }
  }
}
