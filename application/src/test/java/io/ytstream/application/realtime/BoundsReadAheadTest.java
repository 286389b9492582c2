package io.ytstream.application.realtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.plan.QueueBounds;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BoundsReadAheadTest {

  private static final QueueId Q = QueueId.of("primary", "//q");

  private QueueBounds answer = bounds(10);
  private final BoundsReadAhead readAhead =
      new BoundsReadAhead(
          () -> {
            if (answer == null) {
              throw new IllegalStateException("proxy unavailable");
            }
            return answer;
          });

  private static QueueBounds bounds(long upper) {
    return QueueBounds.of(Map.of(Q, List.of(new PartitionBounds(0, 0, upper))));
  }

  @Test
  void nothingIsOfferedBeforeTheFirstRead() {
    assertEquals(Optional.empty(), readAhead.fresh(0));
  }

  @Test
  void aFailedReadKeepsTheLastBoundsUntilTheyAreTooOld() {
    assertEquals(Optional.empty(), readAhead.refresh(1_000));
    answer = null;

    assertTrue(readAhead.refresh(2_000).isPresent(), "the failure goes to the caller's log");

    assertEquals(
        bounds(10).asMap(), readAhead.fresh(1_000 + BoundsReadAhead.MAX_AGE_MS - 1).get().asMap());
    assertEquals(Optional.empty(), readAhead.fresh(1_000 + BoundsReadAhead.MAX_AGE_MS));
  }

  @Test
  void aNewReadReplacesTheBounds() {
    readAhead.refresh(0);
    answer = bounds(25);
    readAhead.refresh(1_000);

    assertEquals(bounds(25).asMap(), readAhead.fresh(1_500).get().asMap());
  }
}
