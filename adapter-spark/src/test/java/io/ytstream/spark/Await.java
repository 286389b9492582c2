package io.ytstream.spark;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls until a condition holds, failing with a description of what was last seen. */
public final class Await {

  private Await() {}

  public static void until(Duration timeout, BooleanSupplier condition, Supplier<String> seen)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + "; last seen: " + seen.get());
      }
      Thread.sleep(20);
    }
  }
}
