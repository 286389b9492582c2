package io.ytstream.inmemory;

import io.ytstream.ports.TimeSource;

/**
 * The wall clock, for real use (demos, Spark jobs against {@code inmemory:NAME}). Tests and the
 * simulation use {@link ManualClock}; the cluster reads the wall clock only when this is chosen.
 */
public enum SystemTimeSource implements TimeSource {
  INSTANCE;

  @Override
  public long nowMillis() {
    return System.currentTimeMillis();
  }
}
