package io.ytstream.simulation;

/**
 * What a run drives, as data: a micro-batch delivery mode ({@link SimMode}) or a Real-time Mode
 * writer ({@link RealTimeMode}). The one command line, run, shrink and replay loop take either.
 */
sealed interface RunMode permits SimMode, RealTimeMode {

  /** The name {@code --mode} takes. */
  String cliName();

  /** Whether the writer promises each source row once (else at least once). */
  boolean exactlyOnce();

  /** Writes through a queue producer (micro-batch or Real-time Mode). */
  default boolean producer() {
    return this == SimMode.PRODUCER || this == RealTimeMode.PRODUCER;
  }

  static RunMode parse(String name) {
    return RealTimeMode.isRealTime(name) ? RealTimeMode.parse(name) : SimMode.parse(name);
  }
}
