package io.ytstream.benchmarks.spark;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.StreamingQueryProgress;

/**
 * What the harnesses read from a finished query's progress reports: rows per second of the batches
 * that had data (input rows over the summed {@code triggerExecution} time: planning, offset and
 * commit logs, the job and the sink's commit, without query start-up), and batches per second
 * between two batch starts.
 */
final class QueryFigures {

  private QueryFigures() {}

  static List<StreamingQueryProgress> dataBatches(StreamingQuery query) {
    List<StreamingQueryProgress> out = new ArrayList<>();
    for (StreamingQueryProgress p : query.recentProgress()) {
      if (p.numInputRows() > 0) {
        out.add(p);
      }
    }
    out.sort(Comparator.comparingLong(StreamingQueryProgress::batchId));
    return out;
  }

  static long rows(StreamingQuery query) {
    long rows = 0;
    for (StreamingQueryProgress p : dataBatches(query)) {
      rows += p.numInputRows();
    }
    return rows;
  }

  static double rowsPerSecond(StreamingQuery query) {
    long rows = 0;
    long millis = 0;
    for (StreamingQueryProgress p : dataBatches(query)) {
      rows += p.numInputRows();
      Long ms = p.durationMs().get("triggerExecution");
      millis += ms == null ? 0 : ms;
    }
    if (millis == 0) {
      throw new IllegalStateException("query " + query.name() + " reported no batch with data");
    }
    return rows * 1000.0 / millis;
  }

  /**
   * Batches per second over {@code count} batches after the first {@code skip}: the time from the
   * start of batch {@code skip} to the start of batch {@code skip + count}.
   */
  static double batchesPerSecond(StreamingQuery query, int skip, int count) {
    List<StreamingQueryProgress> batches = dataBatches(query);
    if (batches.size() <= skip + count) {
      throw new IllegalStateException(
          "query " + query.name() + " ran " + batches.size() + " batches, need " + (skip + count));
    }
    long from = Instant.parse(batches.get(skip).timestamp()).toEpochMilli();
    long to = Instant.parse(batches.get(skip + count).timestamp()).toEpochMilli();
    return count * 1000.0 / Math.max(1, to - from);
  }
}
