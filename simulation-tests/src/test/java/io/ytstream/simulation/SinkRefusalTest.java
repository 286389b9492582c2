package io.ytstream.simulation;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.simulation.check.BatchBound;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each check of a memory refusal fails on a message that breaks it, and a right one passes. */
class SinkRefusalTest {

  private static final PartitionId P = new PartitionId(QueueId.of("primary", "//sim/q"), 0);
  private static final StreamOffsets START = StreamOffsets.of(Map.of(P, 10L));

  private static String refusal(long largest, String advice) {
    return "batch 3 is too large for the executors' memory in transactional mode: each write task"
        + " keeps its rows in memory until the batch transaction commits, and partition 0 ran out."
        + " This batch read up to "
        + largest
        + " rows from each of 1 queue partitions (option max_rows_per_partition caps that; its"
        + " default is 100000). Lower option max_rows_per_partition"
        + advice
        + ", or give executors more memory (spark.executor.memory). Nothing was written. Batch 3's"
        + " range is already in the checkpoint's offset log, so a restarted query runs it again"
        + " with the same rows: a lower max_rows_per_partition sizes the batches after it; for"
        + " this one, give executors more memory, or set option max_rows_per_task to run it in"
        + " smaller tasks.";
  }

  private static String check(long rows, String message) {
    return BatchBound.memoryRefusalError(
        "partition 0 ran out", START, StreamOffsets.of(Map.of(P, 10 + rows)), message);
  }

  @Test
  void aRefusalProposingFewerRowsPasses() {
    assertNull(check(20, refusal(20, " (now at least 20; try 5)")));
    assertNull(check(2, refusal(2, " (now at least 2; try 1)")));
    assertNull(check(1, refusal(1, "")), "one row a partition: only more memory helps");
  }

  @Test
  void aProposalOfNoRowsOrAsManyIsWrong() {
    assertNotNull(check(2, refusal(2, " (now at least 2; try 0)")));
    assertNotNull(check(20, refusal(20, " (now at least 20; try 20)")));
    assertNotNull(check(20, refusal(20, "")), "no proposal for a range of 20 rows");
    assertNotNull(check(1, refusal(1, " (now at least 1; try 1)")));
  }

  @Test
  void aRefusalMustDescribeTheBatchAndSayWhyTheTaskStopped() {
    assertNotNull(check(20, refusal(19, " (now at least 19; try 4)")), "another range");
    assertNotNull(
        check(20, refusal(20, " (now at least 20; try 5)").replace("partition 0 ran out", "?")));
    assertNotNull(
        check(20, refusal(20, " (now at least 20; try 5)").replace("spark.executor.memory", "")));
    assertNotNull(
        check(20, refusal(20, " (now at least 20; try 5)").replace("for this one", "")),
        "the logged batch needs more memory");
  }
}
