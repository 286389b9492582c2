package io.ytstream.simulation;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.delivery.BatchShareNumbering;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.simulation.check.NonmonotonicSequence;
import io.ytstream.simulation.check.UserMetaMatchesOutput;
import io.ytstream.simulation.check.Violations;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Producer mode's checks on the sessions of {@link Workload#PRODUCER}, read from the cluster
 * directly. A session's sequence number and epoch never go back: the server only ever raises them,
 * and a session removed and created again restarts at -1 and 0, so its replayed rows are written
 * again. The batch a session's user_meta records ({@code PushBatchShare}'s {@code PushedBatch}) is
 * the one its numbers hold, with the end offsets the checkpoint logged for it, and those cover
 * every row the output holds. A push whose rows are all skipped still replaces the session's
 * user_meta (the in-memory cluster does so, {@code ProducerPushes}), so a share pushed behind a
 * later batch would set it back.
 */
final class ProducerSessionChecks {

  /** What a session held when last looked at. */
  private record Seen(long epoch, long sequenceNumber) {}

  private final Workload w;
  private final SimCluster cluster;
  private final Violations violate;
  private final Map<String, Seen> seen = new TreeMap<>();
  private long stamp = Long.MIN_VALUE;
  private List<Row> sessions = List.of();

  ProducerSessionChecks(Workload w, SimCluster cluster, Violations violate) {
    this.w = w;
    this.cluster = cluster;
    this.violate = violate;
  }

  /**
   * Reads the sessions when the producer table was written since the last look and checks that no
   * sequence number or epoch went back; true when anything changed.
   */
  boolean refresh() {
    long now = cluster.producerStamp(Workload.PRODUCER);
    if (now == stamp) {
      return false;
    }
    stamp = now;
    sessions = cluster.producerSessions(Workload.PRODUCER);
    Map<String, Seen> present = new TreeMap<>();
    for (Row row : sessions) {
      String id = (String) row.get("session_id");
      Seen next = new Seen((Long) row.get("epoch"), (Long) row.get("sequence_number"));
      present.put(id, next);
      Seen before = seen.get(id);
      if (before != null
          && (next.sequenceNumber() < before.sequenceNumber() || next.epoch() < before.epoch())) {
        violate.add(
            NonmonotonicSequence.PROPERTY,
            "session "
                + id
                + " went back from sequence number "
                + before.sequenceNumber()
                + " epoch "
                + before.epoch()
                + " to sequence number "
                + next.sequenceNumber()
                + " epoch "
                + next.epoch());
      }
    }
    for (Map.Entry<String, Seen> gone : seen.entrySet()) {
      if (!present.containsKey(gone.getKey())) {
        violate.add(
            NonmonotonicSequence.PROPERTY,
            "session "
                + gone.getKey()
                + " at sequence number "
                + gone.getValue().sequenceNumber()
                + " was removed: created again, it starts over at -1");
      }
    }
    seen.putAll(present);
    return true;
  }

  /**
   * Every session that has written a row records in its user_meta the batch it holds: its numbers
   * are that batch's ({@code sequence_number} is the batch's base plus its row count, less one),
   * its source end offsets are the ones the checkpoint logged for that batch, and no output row of
   * any partition lies at or beyond the highest end offset the sessions record for it, so the
   * user_meta accounts for everything the output holds.
   */
  void checkUserMeta(OutputLedger ledger) {
    long[] recordedEnd = new long[w.partitions().size()];
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
        violate.add(
            UserMetaMatchesOutput.PROPERTY,
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
        violate.add(
            UserMetaMatchesOutput.PROPERTY,
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
      Optional<StreamOffsets> logged = loggedEnd(batch);
      StreamOffsets offsets = OffsetsJson.parse(end);
      String disagreement = disagreement(offsets, logged);
      if (disagreement != null) {
        violate.add(
            UserMetaMatchesOutput.PROPERTY,
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
        int o = w.ordinal(offsets.partitionAt(i));
        if (o >= 0) {
          recordedEnd[o] = Math.max(recordedEnd[o], offsets.offsetAt(i));
        }
      }
    }
    for (int o = 0; o < recordedEnd.length; o++) {
      long newest = ledger.newestRow(o);
      if (newest >= recordedEnd[o]) {
        violate.add(
            UserMetaMatchesOutput.PROPERTY,
            "the output holds row "
                + newest
                + " of "
                + w.partitions().get(o)
                + ", but no session's user_meta records an end offset past "
                + recordedEnd[o]);
        return;
      }
    }
  }

  /** The end offsets the checkpoint logged for batch {@code batch}, as the log's JSON. */
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

  /** The yt source's line of Spark's offsets/N: version, Spark's metadata, then the source. */
  private Optional<StreamOffsets> loggedEnd(long batch) {
    YPath log = Workload.CHECKPOINT.child("offsets").child(Long.toString(batch));
    if (cluster.ports().checkpoints().status(log).isEmpty()) {
      return Optional.empty();
    }
    String text = new String(cluster.ports().checkpoints().readFile(log), StandardCharsets.UTF_8);
    String[] lines = text.split("\n");
    return lines.length < 3 ? Optional.empty() : Optional.of(OffsetsJson.parse(lines[2]));
  }
}
