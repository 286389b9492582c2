package io.ytstream.simulation.check;

import java.util.List;
import java.util.function.Predicate;

/**
 * A write that failed (a sink commit, a task attempt the engine aborts) left a transaction it
 * started open, without even asking to abort it: it holds its rows until the timeout.
 */
public final class TransactionLeftOpen {

  public static final Property PROPERTY =
      new Property("TransactionLeftOpen", "transaction left open after a failure");

  private TransactionLeftOpen() {}

  /** {@code what} failed; the transactions it started must be over or asked to abort. */
  public static <T> void failedWrite(
      Violations out, String what, List<T> transactions, Predicate<T> leftOpen) {
    for (T tx : transactions) {
      if (leftOpen.test(tx)) {
        out.add(PROPERTY, what + " failed and left " + tx + " open");
        return;
      }
    }
  }
}
