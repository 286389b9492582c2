package io.ytstream.simulation;

/** Thrown at a scheduled point: the driver dies and everything it held in memory is lost. */
public final class SimulatedCrash extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public SimulatedCrash(String where) {
    super("simulated driver crash " + where, null, false, false);
  }
}
