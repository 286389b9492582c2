package io.ytstream.application.offsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.QueueBounds;
import io.ytstream.core.plan.StartOffsetResolver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** starting_offsets: earliest, latest and Kafka's JSON per partition, resolved against bounds. */
class StartingOffsetsTextTest {

  private static final QueueId Q = QueueId.of("primary", "//home/q");
  private static final QueueId R = QueueId.of("primary", "//home/r");

  private static final QueueBounds BOUNDS =
      QueueBounds.of(
          Map.of(
              Q, List.of(new PartitionBounds(0, 3, 10), new PartitionBounds(1, 0, 4)),
              R, List.of(new PartitionBounds(0, 5, 5))));

  private static StreamOffsets offsets(long q0, long q1, long r0) {
    return StreamOffsets.of(
        Map.of(new PartitionId(Q, 0), q0, new PartitionId(Q, 1), q1, new PartitionId(R, 0), r0));
  }

  private static StreamOffsets resolve(String text) {
    return StartOffsetResolver.resolve(StartingOffsetsText.parse(text), BOUNDS);
  }

  private static String refused(String text) {
    return assertThrows(IllegalArgumentException.class, () -> resolve(text)).getMessage();
  }

  @Test
  void earliestIsTheFirstRowStillThereAndLatestTheEnd() {
    assertEquals(offsets(3, 0, 5), resolve("earliest"));
    assertEquals(offsets(10, 4, 5), resolve(" LATEST "));
  }

  @Test
  void jsonGivesEachPartitionWithMinusTwoEarliestAndMinusOneLatest() {
    assertEquals(
        offsets(7, 0, 5),
        resolve("{\"//home/q\": {\"0\": 7, \"1\": -2}, \"//home/r\": {\"0\": -1}}"));
    // Below the first row stays: the planner reports it as data loss.
    assertEquals(
        offsets(1, 4, 5),
        resolve("{\"//home/q\": {\"0\": 1, \"1\": 4}, \"//home/r\": {\"0\": 5}}"));
  }

  @Test
  void badJsonSaysWhatIsWrong() {
    assertTrue(refused("soon").contains("is not earliest, latest, or JSON per queue"));
    assertTrue(
        refused("{\"//home/q\": {\"0\": 7, \"1\": 1}}")
            .contains("no offset for //home/r partition 0: give every partition"));
    assertTrue(
        refused("{\"//home/q\": {\"0\": 11, \"1\": 1}, \"//home/r\": {\"0\": 5}}")
            .contains("starts //home/q partition 0 at 11, beyond its end (10 rows)"));
    assertTrue(
        refused("{\"//home/x\": {\"0\": 1}}")
            .contains("names //home/x, which this query does not read"));
    assertTrue(
        refused("{\"//home/q\": {\"0\": 1, \"1\": 1, \"2\": 1}, \"//home/r\": {\"0\": 5}}")
            .contains("names //home/q partition 2, but the queue has 2 partitions"));
    assertTrue(
        refused("{\"//home/q\": {\"0\": -3}}")
            .contains("must be a row index >= 0, -2 (earliest) or -1 (latest), got -3"));
    assertTrue(
        refused("{\"//home/q\": {\"a\": 1}}").contains("'a' of //home/q is not a partition"));
  }
}
