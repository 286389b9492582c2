package io.ytstream.simulation.check;

/**
 * A key's count in a stateful query's upserted table is above the number of the key's rows read so
 * far: a row was counted twice (state restored from a batch that did not commit, then replayed, or
 * a write that adds instead of replacing).
 */
public final class Overcount {

  public static final Property PROPERTY =
      new Property("Overcount", "duplicated update (count above the rows read)");

  private Overcount() {}

  /** The table holds {@code count} for {@code key}, of which {@code read} rows were read so far. */
  public static void check(Violations out, long key, long count, long read) {
    if (count > read) {
      out.add(
          PROPERTY,
          "key "
              + key
              + " reads "
              + count
              + " in the table; only "
              + read
              + " of its rows were read");
    }
  }
}
