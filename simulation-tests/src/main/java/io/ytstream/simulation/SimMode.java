package io.ytstream.simulation;

import io.ytstream.core.delivery.DeliveryMode;
import java.util.Locale;

/** The delivery mode a simulation runs, by its command-line name. */
public enum SimMode {
  TRANSACTIONAL(DeliveryMode.TRANSACTIONAL),
  IDEMPOTENT(DeliveryMode.IDEMPOTENT_RECEIVER),
  AT_LEAST_ONCE(DeliveryMode.AT_LEAST_ONCE);

  private final DeliveryMode delivery;

  SimMode(DeliveryMode delivery) {
    this.delivery = delivery;
  }

  public DeliveryMode delivery() {
    return delivery;
  }

  public boolean exactlyOnce() {
    return delivery.isExactlyOnce();
  }

  /** {@code transactional}, {@code idempotent} or {@code at-least-once}. */
  public String cliName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static SimMode parse(String name) {
    for (SimMode m : values()) {
      if (m.cliName().equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException(
        "unknown mode '" + name + "': use transactional, idempotent or at-least-once");
  }
}
