package io.ytstream.simulation.check;

/**
 * A key's count in a stateful query's upserted table went below the count the last committed
 * checkpoint holds for it. Recovering, the query restores that checkpoint's state and replays the
 * rows after it, so a reader may see a count go back, but only as far as the checkpoint's value.
 */
public final class CountBelowCheckpoint {

  public static final Property PROPERTY =
      new Property("CountBelowCheckpoint", "lost update (count below the last checkpoint)");

  private CountBelowCheckpoint() {}

  /**
   * The table holds {@code count} for {@code key}; the last checkpoint counted {@code committed}.
   */
  public static void check(Violations out, long key, long count, long committed) {
    if (count < committed) {
      out.add(
          PROPERTY,
          "key "
              + key
              + " reads "
              + count
              + " in the table; the last committed checkpoint counted "
              + committed);
    }
  }
}
