package io.ytstream.simulation.check;

import java.util.regex.Pattern;

/**
 * The sink's commit returned an outcome other than what it did: committed, though an earlier
 * attempt had applied the batch (the consumer already stood at its end), or applied earlier, though
 * it committed now; or it returned with its transaction still open, or the consumer short of the
 * batch's end; or it failed as fenced while the consumer stands at the batch's start, or a fenced
 * consumer's error does not say where the partition stands. The Spark adapter logs the outcome: an
 * operator reading "applied by an earlier attempt" must be able to trust it.
 */
public final class CommitOutcome {

  public static final Property PROPERTY =
      new Property("CommitOutcome", "commit outcome misreported");

  private static final Pattern FENCED_AT =
      Pattern.compile(
          "was moved by another writer: \\S+ is at \\d+, expected \\d+ or \\d+|cannot be advanced: .+");

  private CommitOutcome() {}

  /**
   * {@code step} failed because another writer moved the consumer at {@code consumerPath}: the
   * error must name the consumer and say where the partition stands against what the advance
   * expected, or why it cannot be advanced, for the user to find the other writer.
   */
  public static void consumerFenced(
      Violations out, String step, String message, String consumerPath) {
    String m = String.valueOf(message);
    if (!m.contains(consumerPath) || !FENCED_AT.matcher(m).find()) {
      out.add(PROPERTY, step + " failed as fenced without saying where the consumer stands: " + m);
    }
  }

  /** What the facade found wrong in batch {@code batch}'s outcome (null: nothing). */
  public static void outcome(Violations out, long batch, String wrong) {
    if (wrong != null) {
      out.add(PROPERTY, "batch " + batch + ": " + wrong);
    }
  }
}
