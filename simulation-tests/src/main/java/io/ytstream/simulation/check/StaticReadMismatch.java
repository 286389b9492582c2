package io.ytstream.simulation.check;

/**
 * A static read returned a row twice, out of order, with another value, or missed one.
 *
 * <p>Over the ledger of what was read and written: Verifier.onStaticRead finds it.
 */
public final class StaticReadMismatch {

  public static final Property PROPERTY =
      new Property("StaticReadMismatch", "static read disagrees with the queue");

  private StaticReadMismatch() {}
}
