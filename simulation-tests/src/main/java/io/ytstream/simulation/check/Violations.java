package io.ytstream.simulation.check;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;

/** A run's violations, the first of each property in the order they happened. */
public final class Violations {

  private final Consumer<String> trace;
  private final List<Violation> found = new ArrayList<>();
  private final TreeSet<String> seen = new TreeSet<>();

  /**
   * @param trace where each first violation is traced
   */
  public Violations(Consumer<String> trace) {
    this.trace = trace;
  }

  /** Records a violation of {@code property}; one of each per run tells what broke. */
  public void add(Property property, String detail) {
    if (seen.add(property.name())) {
      found.add(new Violation(property, detail));
      trace.accept("VIOLATION " + property.name() + ": " + detail);
    }
  }

  public boolean has(Property property) {
    return seen.contains(property.name());
  }

  public boolean any() {
    return !found.isEmpty();
  }

  public List<Violation> all() {
    return List.copyOf(found);
  }
}
