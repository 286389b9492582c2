package io.ytstream.application;

import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedByInterruptException;

/**
 * A thread interrupted because its query is stopping: {@code StreamingQuery.stop()} interrupts the
 * query's driver thread and cancels its tasks, which interrupts theirs. Spark ends a stopped query
 * cleanly only when what the thread throws is an interruption it recognizes ({@code
 * StreamExecution.isInterruptionException}: {@link InterruptedException}, {@link
 * InterruptedIOException}, {@link ClosedByInterruptException}, possibly inside an {@link
 * UncheckedIOException}); anything else wrapping it leaves the stopped query failed. So an
 * interruption is neither retried nor rewrapped, and the thread's interrupt flag stays set.
 */
public final class Interruptions {

  private Interruptions() {}

  /** Whether {@code error} or one of its causes says the thread was interrupted. */
  public static boolean isInterruption(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof InterruptedException || t instanceof ClosedByInterruptException) {
        return true;
      }
      // A socket timeout is an InterruptedIOException too, but nobody interrupted anything.
      if (t instanceof InterruptedIOException && !(t instanceof SocketTimeoutException)) {
        return true;
      }
    }
    return false;
  }

  /**
   * What to throw for an {@link InterruptedException} caught where a checked exception cannot go:
   * an {@link UncheckedIOException} around an {@link InterruptedIOException} saying what stopped,
   * which Spark takes for a clean stop. Sets the interrupt flag again.
   */
  public static UncheckedIOException stopped(String what, InterruptedException cause) {
    Thread.currentThread().interrupt();
    InterruptedIOException interrupted =
        new InterruptedIOException(what + ": interrupted (the query is stopping)");
    interrupted.initCause(cause);
    return new UncheckedIOException(interrupted.getMessage(), interrupted);
  }
}
