package io.ytstream.simulation;

import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.ExecutionException;

/**
 * Which errors Spark takes for its query being stopped, as Spark's {@code
 * StreamExecution.isInterruptionException} (object {@code StreamExecution}, Spark 4.x) decides: the
 * error itself is an {@link InterruptedException}, {@link InterruptedIOException} or {@link
 * ClosedByInterruptException}, or it is an {@link UncheckedIOException}, {@link ExecutionException}
 * or Guava's {@code UncheckedExecutionException} whose cause is one, looked at the same way. Any
 * other wrapper, even around an interruption, makes the stopped query end failed. (Spark also
 * accepts its own exception for a cancelled job group, which no ytstream call throws.)
 */
final class SparkInterruptions {

  private SparkInterruptions() {}

  static boolean isInterruption(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof InterruptedException
          || t instanceof InterruptedIOException
          || t instanceof ClosedByInterruptException) {
        return true;
      }
      boolean unwrapped =
          t instanceof UncheckedIOException
              || t instanceof ExecutionException
              || t.getClass()
                  .getName()
                  .equals("com.google.common.util.concurrent.UncheckedExecutionException");
      if (!unwrapped) {
        return false;
      }
    }
    return false;
  }
}
