package io.ytstream.simulation;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.ports.Row;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * Producer mode's checks on the sessions of {@link Workload#PRODUCER}, read from the cluster
 * directly: a session's sequence number and epoch never go back (the server only ever raises them;
 * a session removed and created again restarts at -1 and 0, and its replayed rows are written
 * again), and its user_meta names the source position of the newest row the output holds for it, so
 * a writer that recovers from user_meta resumes where the output is.
 */
final class ProducerSessionChecks {

  /** What a session held when last looked at. */
  private record Seen(long epoch, long sequenceNumber) {}

  private final Workload w;
  private final SimCluster cluster;
  private final BiConsumer<Verifier.Invariant, String> violate;
  private final Map<String, Seen> seen = new TreeMap<>();
  private long stamp = Long.MIN_VALUE;
  private List<Row> sessions = List.of();

  ProducerSessionChecks(
      Workload w, SimCluster cluster, BiConsumer<Verifier.Invariant, String> violate) {
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
        violate.accept(
            Verifier.Invariant.SESSION_MONOTONIC,
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
        violate.accept(
            Verifier.Invariant.SESSION_MONOTONIC,
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
   * Every session that has written a row names in its user_meta the source partition and row of the
   * newest output row it wrote, and that is the newest output row of that partition.
   */
  void checkUserMeta(OutputLedger ledger) {
    for (Row row : sessions) {
      String id = (String) row.get("session_id");
      long sequenceNumber = (Long) row.get("sequence_number");
      Object meta = row.get("user_meta");
      if (sequenceNumber < 0) {
        continue;
      }
      if (!(meta instanceof Map<?, ?> m)
          || !(m.get("source_queue") instanceof String queue)
          || !(m.get("source_tablet_index") instanceof Long tablet)
          || !(m.get("source_row_index") instanceof Long sourceRow)) {
        violate.accept(
            Verifier.Invariant.USER_META_MATCHES_OUTPUT,
            "session "
                + id
                + " wrote up to sequence number "
                + sequenceNumber
                + " but its user_meta "
                + meta
                + " names no source position");
        continue;
      }
      int o = w.ordinal(new PartitionId(QueueId.parseKey(queue), tablet.intValue()));
      long newest = o < 0 ? -2 : ledger.newestRow(o);
      if (newest < sourceRow) {
        violate.accept(
            Verifier.Invariant.USER_META_MATCHES_OUTPUT,
            "session "
                + id
                + "'s user_meta says "
                + queue
                + "#"
                + tablet
                + " row "
                + sourceRow
                + " was pushed, the output's newest row of it is "
                + newest);
      }
    }
  }
}
