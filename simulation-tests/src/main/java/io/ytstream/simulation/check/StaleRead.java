package io.ytstream.simulation.check;

import java.util.TreeMap;
import java.util.function.IntFunction;

/**
 * After its queue was re-created, the consumer moved on offsets the queue no longer has:
 * micro-batch, a planning step moved it (a batch planned before may still commit what it read from
 * the old queue); Real-time Mode, it passed the rows the old queue held.
 */
public final class StaleRead {

  public static final Property PROPERTY =
      new Property("StaleRead", "stale read (consumer moved on a re-created queue)");

  /** Micro-batch: partitions of re-created queues (by ordinal) and the consumer's offset since. */
  private final TreeMap<Integer, Long> frozen = new TreeMap<>();

  /** Partition {@code ordinal}'s queue was re-created with the consumer at {@code consumer}. */
  public void recreated(int ordinal, long consumer) {
    frozen.put(ordinal, consumer);
  }

  /** Whether any queue was re-created. */
  public boolean any() {
    return !frozen.isEmpty();
  }

  /** Whether partition {@code ordinal}'s queue was re-created. */
  public boolean recreated(int ordinal) {
    return frozen.containsKey(ordinal);
  }

  /**
   * After a micro-batch step ({@code step}, a planning step when {@code planning}) with the
   * consumer at {@code c}, by ordinal; {@code name} names a partition.
   */
  public void afterStep(
      Violations out, long[] c, boolean planning, Object step, IntFunction<String> name) {
    frozen.forEach(
        (o, at) -> {
          if (c[o] != at && planning) {
            out.add(
                PROPERTY,
                name.apply(o)
                    + " moved from "
                    + at
                    + " to "
                    + c[o]
                    + " in "
                    + step
                    + " after its queue was re-created");
          }
        });
    frozen.replaceAll((o, at) -> c[o]);
  }

  /**
   * Real-time Mode: the consumer of {@code partition} at {@code consumer}, the old queue's rows.
   */
  public static void realTime(Violations out, String partition, long consumer, long oldRows) {
    if (consumer > oldRows) {
      out.add(
          PROPERTY,
          "consumer of "
              + partition
              + " at "
              + consumer
              + " after its queue was re-created; the old queue held "
              + oldRows
              + " rows");
    }
  }
}
