package io.ytstream.simulation.check;

import io.ytstream.ports.Row;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Producer mode: a session's sequence number or epoch went back. The server only ever raises them,
 * and a session removed and created again restarts at -1 and 0, so its replayed rows are written
 * again.
 */
public final class NonmonotonicSequence {

  public static final Property PROPERTY =
      new Property("NonmonotonicSequence", "nonmonotonic sequence numbers");

  /** What a session held when last looked at. */
  private record Seen(long epoch, long sequenceNumber) {}

  private final Map<String, Seen> seen = new TreeMap<>();

  /** The producer's sessions as read now (rows of its table). */
  public void sessions(Violations out, List<Row> sessions) {
    Map<String, Seen> present = new TreeMap<>();
    for (Row row : sessions) {
      String id = (String) row.get("session_id");
      Seen next = new Seen((Long) row.get("epoch"), (Long) row.get("sequence_number"));
      present.put(id, next);
      Seen before = seen.get(id);
      if (before != null
          && (next.sequenceNumber() < before.sequenceNumber() || next.epoch() < before.epoch())) {
        out.add(
            PROPERTY,
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
        out.add(
            PROPERTY,
            "session "
                + gone.getKey()
                + " at sequence number "
                + gone.getValue().sequenceNumber()
                + " was removed: created again, it starts over at -1");
      }
    }
    seen.putAll(present);
  }
}
