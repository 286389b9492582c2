package io.ytstream.simulation.check;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.delivery.BatchShareNumbering;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.Row;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.IntToLongFunction;
import java.util.function.LongFunction;

/**
 * Producer mode: a session's user_meta names another source position than the output's. A push
 * whose rows are all skipped still replaces the session's user_meta (the in-memory cluster does so,
 * as the server), so a share pushed behind a later batch would set it back.
 */
public final class UserMetaMatchesOutput {

  public static final Property PROPERTY =
      new Property("UserMetaMatchesOutput", "user_meta disagrees with the output");

  private UserMetaMatchesOutput() {}

  /**
   * Every session that has written a row records in its user_meta the batch it holds: its numbers
   * are that batch's ({@code sequence_number} is the batch's base plus its row count, less one),
   * its source end offsets are the ones the checkpoint logged for that batch, and no output row of
   * any partition lies at or beyond the highest end offset the sessions record for it, so the
   * user_meta accounts for everything the output holds.
   */
  public static void check(
      Violations out,
      List<Row> sessions,
      List<PartitionId> partitions,
      LongFunction<Optional<StreamOffsets>> loggedEnd,
      IntToLongFunction newestRow) {
    long[] recordedEnd = new long[partitions.size()];
    for (Row row : sessions) {
      String id = (String) row.get("session_id");
      long sequenceNumber = (Long) row.get("sequence_number");
      if (sequenceNumber < 0) {
        continue;
      }
      Object meta = row.get("user_meta");
      if (!(meta instanceof Map<?, ?> m)
          || !(m.get("batch_id") instanceof Long batch)
          || !(m.get("row_count") instanceof Long rows)
          || !(m.get("source_end_offsets") instanceof String end)) {
        out.add(
            PROPERTY,
            "session "
                + id
                + " holds sequence number "
                + sequenceNumber
                + " but its user_meta "
                + meta
                + " records no batch, row count and source end offsets");
        continue;
      }
      long expected = BatchShareNumbering.base(batch) + rows - 1;
      if (sequenceNumber != expected) {
        out.add(
            PROPERTY,
            "session "
                + id
                + " holds sequence number "
                + sequenceNumber
                + ", but its user_meta records "
                + rows
                + " row(s) of batch "
                + batch
                + ", which end at "
                + expected);
      }
      Optional<StreamOffsets> logged = loggedEnd.apply(batch);
      StreamOffsets offsets = OffsetsJson.parse(end);
      String disagreement = disagreement(offsets, logged);
      if (disagreement != null) {
        out.add(
            PROPERTY,
            "session "
                + id
                + "'s user_meta records source end offsets "
                + end
                + " for batch "
                + batch
                + ", but "
                + disagreement);
        continue;
      }
      for (int i = 0; i < offsets.size(); i++) {
        int o = partitions.indexOf(offsets.partitionAt(i));
        if (o >= 0) {
          recordedEnd[o] = Math.max(recordedEnd[o], offsets.offsetAt(i));
        }
      }
    }
    for (int o = 0; o < recordedEnd.length; o++) {
      long newest = newestRow.applyAsLong(o);
      if (newest >= recordedEnd[o]) {
        out.add(
            PROPERTY,
            "the output holds row "
                + newest
                + " of "
                + partitions.get(o)
                + ", but no session's user_meta records an end offset past "
                + recordedEnd[o]);
        return;
      }
    }
  }

  /**
   * Null when every partition the recorded end names has that offset in the batch's logged end;
   * else what differs. (The sink records the ends of the partitions the batch read rows from.)
   */
  private static String disagreement(StreamOffsets recorded, Optional<StreamOffsets> logged) {
    if (logged.isEmpty()) {
      return "the checkpoint has no offsets for that batch";
    }
    for (int i = 0; i < recorded.size(); i++) {
      OptionalLong there = logged.get().get(recorded.partitionAt(i));
      if (there.isEmpty() || there.getAsLong() != recorded.offsetAt(i)) {
        return "the checkpoint logged " + OffsetsJson.write(logged.get());
      }
    }
    return null;
  }
}
