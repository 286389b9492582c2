package io.ytstream.spark.source;

import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * Rows the read tasks skipped because they were trimmed between planning and reading ({@code
 * fail_on_data_loss=false}), summed over a batch's tasks in Spark's SQL metrics. Rows already
 * trimmed at planning time are counted by the source's {@code lostRows} progress metric.
 */
public final class LostRowsMetric extends CustomSumMetric {

  static final String NAME = "lostRows";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "trimmed rows skipped while reading (fail_on_data_loss=false)";
  }

  public static CustomTaskMetric taskValue(long rows) {
    return new CustomTaskMetric() {
      @Override
      public String name() {
        return NAME;
      }

      @Override
      public long value() {
        return rows;
      }
    };
  }
}
