package io.ytstream.simulation.check;

import java.util.TreeMap;

/**
 * Real-time Mode: one query run pulled a row of a partition again. The rows a task pulled and could
 * not hand out before its deadline must serve the next batch's task of the partition ({@code
 * RowsCarriedToNextTask}, taken well within its 10 s), which pulls on after them.
 */
public final class RedundantRead {

  public static final Property PROPERTY =
      new Property("RedundantRead", "redundant read (carried rows dropped)");

  /** Per query run and partition: past the last row pulled. */
  private final TreeMap<String, Long> pulledTo = new TreeMap<>();

  /**
   * A task of run {@code readId} pulled rows {@code first} to {@code last} of {@code partition}.
   */
  public void pulled(Violations out, String readId, Object partition, long first, long last) {
    String key = readId + "/" + partition;
    Long to = pulledTo.get(key);
    if (to != null && first < to) {
      out.add(
          PROPERTY,
          readId
              + " pulled "
              + partition
              + " from row "
              + first
              + " again (it had pulled to "
              + to
              + ")");
    }
    pulledTo.put(key, Math.max(to == null ? 0 : to, last + 1));
  }
}
