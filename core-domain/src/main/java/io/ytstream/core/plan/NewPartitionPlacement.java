package io.ytstream.core.plan;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A batch that places the partitions its start does not know (the queue was resharded): each gets
 * an end of its own with no rows, so the lower bound of every later range is in the offset log and
 * a range never has to guess a start.
 *
 * <p>A partition placed past where the consumer stands (0 without a row) lost the rows before its
 * place: they were in the queue while the query ran and were trimmed unread, as Kafka's source
 * reports them. They are data loss under the policy.
 *
 * @param end the batch's start with every new partition at its place
 * @param losses the rows trimmed before each new partition's place, in partition order
 */
public record NewPartitionPlacement(StreamOffsets end, List<DataLoss> losses) {

  public NewPartitionPlacement {
    if (end == null) {
      throw new NullPointerException("end");
    }
    losses = List.copyOf(losses);
  }

  /**
   * The placing batch, when {@code resolved} holds a partition {@code start} does not know.
   *
   * @param start the batch's start (the end of the last batch)
   * @param resolved where each partition starts ({@link StartOffsetResolver}): {@code start}'s
   *     offsets and, for a partition it does not know, the consumer's or the partition's first row
   * @param consumerNow the consumer's offsets (a partition without a row stands at 0)
   * @return empty when every partition of {@code resolved} is in {@code start}
   * @throws DataLossException when rows were trimmed before a new partition's place and the policy
   *     is to fail
   */
  public static Optional<NewPartitionPlacement> of(
      StreamOffsets start,
      StreamOffsets resolved,
      StreamOffsets consumerNow,
      DataLossPolicy policy) {
    TreeMap<PartitionId, Long> added = new TreeMap<>();
    List<DataLoss> trimmedBeforePlaced = new ArrayList<>();
    resolved
        .asMap()
        .forEach(
            (p, offset) -> {
              if (start.get(p).isEmpty()) {
                added.put(p, offset);
                long from = consumerNow.getOrDefault(p, 0);
                if (offset > from) {
                  trimmedBeforePlaced.add(new DataLoss(p, from, offset));
                }
              }
            });
    if (added.isEmpty()) {
      return Optional.empty();
    }
    if (!trimmedBeforePlaced.isEmpty() && policy == DataLossPolicy.FAIL) {
      throw new DataLossException(trimmedBeforePlaced);
    }
    return Optional.of(
        new NewPartitionPlacement(start.overlay(StreamOffsets.of(added)), trimmedBeforePlaced));
  }
}
