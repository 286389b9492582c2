package io.ytstream.simulation.check;

/**
 * A property the simulation checks, by the name of its checker class and the anomaly it catches
 * (Jepsen's name where Jepsen has one).
 */
public record Property(String name, String anomaly) {
  @Override
  public String toString() {
    return name;
  }
}
