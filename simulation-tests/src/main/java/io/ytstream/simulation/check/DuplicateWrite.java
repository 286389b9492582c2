package io.ytstream.simulation.check;

/**
 * A source row is in the output more than once where the writer promises exactly once (counted, not
 * a violation, for at-least-once and the append writer).
 *
 * <p>Both runtimes ask it for the copies the {@link Ledger} counts.
 */
public final class DuplicateWrite {

  public static final Property PROPERTY = new Property("DuplicateWrite", "duplicate write");

  private DuplicateWrite() {}

  /**
   * {@code where} is in the output {@code count} times: a violation when more than once and the
   * writer promises {@code exactlyOnce}. Returns the extra copies (0 for one or none).
   */
  public static int copies(Violations out, boolean exactlyOnce, int count, String where) {
    if (count <= 1) {
      return 0;
    }
    if (exactlyOnce) {
      out.add(PROPERTY, where + " is in the output " + count + " times");
    }
    return count - 1;
  }
}
