package io.ytstream.simulation.check;

/** The first violation of a property in a run. */
public record Violation(Property property, String detail) {
  @Override
  public String toString() {
    return property.name() + " [" + property.anomaly() + "]: " + detail;
  }
}
