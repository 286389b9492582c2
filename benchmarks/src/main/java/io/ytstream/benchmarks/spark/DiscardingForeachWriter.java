package io.ytstream.benchmarks.spark;

import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;

/**
 * A ForeachWriter that takes every row and keeps none: what Spark's foreach API itself costs per
 * row (an external {@link Row} built from each of Spark's internal rows), the floor under any
 * ForeachWriter's.
 */
final class DiscardingForeachWriter extends ForeachWriter<Row> {

  private static final long serialVersionUID = 1L;

  @Override
  public boolean open(long partitionId, long epochId) {
    return true;
  }

  @Override
  public void process(Row row) {
    // Kept nowhere: the row's cost is Spark's making it.
  }

  @Override
  public void close(Throwable errorOrNull) {
    // Nothing was opened.
  }
}
