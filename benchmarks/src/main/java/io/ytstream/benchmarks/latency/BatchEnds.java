package io.ytstream.benchmarks.latency;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.spark.sql.streaming.StreamingQueryListener;

/**
 * When each batch of each query ended, as seen by this JVM ({@link LatencyClock} at the progress
 * event): a real-time batch ends at a batch boundary, so the distance of the slowest row's send
 * time to the nearest end says whether the max is the boundary's gap or something else.
 */
final class BatchEnds extends StreamingQueryListener {

  private record End(UUID query, long micros) {}

  private final List<End> ends = new ArrayList<>();

  @Override
  public void onQueryStarted(QueryStartedEvent event) {}

  @Override
  public synchronized void onQueryProgress(QueryProgressEvent event) {
    ends.add(new End(event.progress().id(), LatencyClock.nowMicros()));
  }

  @Override
  public void onQueryIdle(QueryIdleEvent event) {}

  @Override
  public void onQueryTerminated(QueryTerminatedEvent event) {}

  /** The batch ends of {@code query} in {@code [fromMicros, toMicros)}, in time order. */
  synchronized List<Long> between(UUID query, long fromMicros, long toMicros) {
    List<Long> out = new ArrayList<>();
    for (End e : ends) {
      if (e.query().equals(query) && e.micros() >= fromMicros && e.micros() < toMicros) {
        out.add(e.micros());
      }
    }
    out.sort(null);
    return out;
  }

  /**
   * The signed distance in microseconds from {@code micros} to the nearest batch end of {@code
   * query} (positive: the end came after), or {@link Long#MAX_VALUE} when it has none.
   */
  synchronized long nearest(UUID query, long micros) {
    long best = Long.MAX_VALUE;
    for (End e : ends) {
      if (e.query().equals(query)) {
        long d = e.micros() - micros;
        if (Math.abs(d) < Math.abs(best)) {
          best = d;
        }
      }
    }
    return best;
  }
}
