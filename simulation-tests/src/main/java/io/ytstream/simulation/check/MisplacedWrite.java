package io.ytstream.simulation.check;

import java.util.TreeMap;

/**
 * A job that chooses its rows' output tablets finds a row elsewhere: with a {@code $tablet_index}
 * column, a row not in the tablet its column named; with {@code output_tablet_key}, two rows of one
 * key in two tablets (whatever the hash, one key's rows share a tablet, which keeps their order).
 * Fed every added output row of an ordered output, across every run of the query.
 */
public final class MisplacedWrite {

  public static final Property PROPERTY =
      new Property("MisplacedWrite", "misplaced write (row not in the tablet the job chose)");

  private final boolean byColumn;
  private final int tablets;

  /** By key: the tablet each key's first row came into. */
  private final TreeMap<Long, Integer> tabletOfKey = new TreeMap<>();

  /**
   * @param byColumn the job names each row's tablet in a column, the value mod {@code tablets};
   *     otherwise it hashes the value
   */
  public MisplacedWrite(boolean byColumn, int tablets) {
    this.byColumn = byColumn;
    this.tablets = tablets;
  }

  /** A row of output value {@code v} came into tablet {@code tablet}. */
  public void arrived(Violations out, long v, int tablet) {
    if (byColumn) {
      long asked = Math.floorMod(v, (long) tablets);
      if (tablet != asked) {
        out.add(
            PROPERTY,
            "a row of value " + v + " asked for tablet " + asked + " and is in tablet " + tablet);
      }
      return;
    }
    Integer first = tabletOfKey.putIfAbsent(v, tablet);
    if (first != null && first != tablet) {
      out.add(
          PROPERTY,
          "rows of key v=" + v + " are in tablets " + first + " and " + tablet + " of the output");
    }
  }
}
