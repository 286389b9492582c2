package io.ytstream.application;

/**
 * The writers' guard on a tablet an engine hands in as the job's choice: the engine decides it
 * ({@link io.ytstream.core.delivery.ChosenOutputTablet}, refusing a bad value with the user's
 * column), so a value out of range here is a bug of the engine, and a sorted output has no tablet
 * to choose (its rows go by key).
 */
final class ChosenTablets {

  private ChosenTablets() {}

  static int check(boolean sorted, int tablet, int tablets) {
    if (sorted) {
      throw new IllegalStateException(
          "a sorted output places each row in the tablet of its key; a chosen tablet applies to"
              + " ordered outputs only");
    }
    if (tablet < 0 || tablet >= tablets) {
      throw new IllegalArgumentException(
          "chosen output tablet " + tablet + " is not one of the output's " + tablets + " tablets");
    }
    return tablet;
  }
}
