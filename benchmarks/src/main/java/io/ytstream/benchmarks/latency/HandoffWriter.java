package io.ytstream.benchmarks.latency;

import org.apache.spark.sql.ForeachWriter;
import org.apache.spark.sql.Row;

/**
 * A writer that writes nothing: it times each row when Spark hands it over ({@code process}), so a
 * variant with it measures the source's part alone, send to hand-over, with no sink on the way.
 * Reports to {@link LatencyRecorder} as {@link TimedConnector} does for real writes; local mode
 * only (the recorder is this JVM's).
 */
final class HandoffWriter extends ForeachWriter<Row> {

  private static final long serialVersionUID = 1L;

  private final String output;
  private transient LatencyRecorder recorder;
  private transient int sentAt;
  private final long[] one = new long[1];

  HandoffWriter(String output) {
    this.output = output;
  }

  @Override
  public boolean open(long partitionId, long epochId) {
    recorder = LatencyRecorder.of(output);
    sentAt = -1;
    return true;
  }

  @Override
  public void process(Row row) {
    long now = LatencyClock.nowMicros();
    if (sentAt < 0) {
      sentAt = row.fieldIndex(LatencyRecorder.SENT_COLUMN);
    }
    one[0] = row.getLong(sentAt);
    recorder.written(one, 1, now);
  }

  @Override
  public void close(Throwable errorOrNull) {}
}
