package io.ytstream.spark.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.spark.Await;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Bounds read ahead on a thread of their own: the newest read is served while it is younger than
 * the age limit; a failing read keeps the last; past the limit nothing is served (the boundary then
 * reads in line and reports the error).
 */
class PrefetchedBoundsTest {

  private static final QueueId QUEUE = QueueId.of("c", "//q");

  private static QueueBounds upTo(long total) {
    return QueueBounds.of(Map.of(QUEUE, List.of(new PartitionBounds(0, 0, total))));
  }

  @Test
  void servesTheNewestReadUntilItIsTooOldAndKeepsItWhenReadsFail() throws InterruptedException {
    AtomicLong now = new AtomicLong(10_000);
    AtomicInteger reads = new AtomicInteger();
    AtomicInteger failures = new AtomicInteger();
    AtomicBoolean failing = new AtomicBoolean();
    try (PrefetchedBounds prefetched =
        PrefetchedBounds.start(
            () -> {
              if (failing.get()) {
                failures.incrementAndGet();
                throw new IllegalStateException("injected");
              }
              return upTo(reads.incrementAndGet());
            },
            now::get,
            5,
            "test")) {
      Await.until(Duration.ofSeconds(30), () -> reads.get() >= 3, () -> "not read again");
      assertTrue(total(prefetched) >= 2, "a newer read is served: " + total(prefetched));

      failing.set(true);
      Await.until(Duration.ofSeconds(30), () -> failures.get() >= 2, () -> "no failed read");
      long kept = total(prefetched);
      Await.until(Duration.ofSeconds(30), () -> failures.get() >= 4, () -> "no more reads");
      assertEquals(kept, total(prefetched), "the last good read is kept while reads fail");

      now.addAndGet(PrefetchedBounds.MAX_AGE_MS);
      assertTrue(prefetched.fresh().isEmpty(), "too old: the caller reads in line");
    }
  }

  private static long total(PrefetchedBounds prefetched) {
    return prefetched.fresh().orElseThrow().asMap().values().iterator().next().totalRowCount();
  }
}
