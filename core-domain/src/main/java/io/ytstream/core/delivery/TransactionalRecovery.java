package io.ytstream.core.delivery;

import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.StreamOffsets;
import java.util.List;

/**
 * The transactional recovery table: the consumer offsets of a batch's partitions, read inside the
 * batch transaction (or re-read after an unknown commit outcome), decide what to do.
 *
 * <table>
 *   <caption>recovery table</caption>
 *   <tr><th>consumer offsets</th><th>decision</th></tr>
 *   <tr><td>all equal {@code lower}</td><td>COMMIT</td></tr>
 *   <tr><td>all equal {@code upper}</td><td>ALREADY_APPLIED</td></tr>
 *   <tr><td>anything else</td><td>FENCED</td></tr>
 * </table>
 *
 * A missing consumer row counts as 0.
 */
public final class TransactionalRecovery {

  private TransactionalRecovery() {}

  public static RecoveryVerdict decide(List<OffsetRange> ranges, StreamOffsets consumer) {
    if (ranges.isEmpty()) {
      throw new IllegalArgumentException("a transactional batch has at least one non-empty range");
    }
    boolean allAtLower = true;
    boolean allAtUpper = true;
    StringBuilder mismatch = new StringBuilder();
    for (OffsetRange range : ranges) {
      if (range.isEmpty()) {
        throw new IllegalArgumentException("empty range in a batch: " + range);
      }
      long current = consumer.getOrDefault(range.partition(), 0);
      boolean atLower = current == range.lower();
      boolean atUpper = current == range.upper();
      allAtLower &= atLower;
      allAtUpper &= atUpper;
      if (!atLower && !atUpper && mismatch.isEmpty()) {
        mismatch
            .append(range.partition())
            .append(" is at offset ")
            .append(current)
            .append(", expected ")
            .append(range.lower())
            .append(" (not applied) or ")
            .append(range.upper())
            .append(" (applied)");
      }
    }
    if (allAtLower) {
      return new RecoveryVerdict(RecoveryDecision.COMMIT, "consumer is at the batch start");
    }
    if (allAtUpper) {
      return new RecoveryVerdict(
          RecoveryDecision.ALREADY_APPLIED, "consumer is at the batch end: applied earlier");
    }
    if (mismatch.isEmpty()) {
      mismatch.append("some partitions are at the batch start and others at its end");
    }
    return new RecoveryVerdict(
        RecoveryDecision.FENCED,
        "another writer moved the consumer: "
            + mismatch
            + ". Is a second query (or an old driver) reading with the same consumer?");
  }
}
