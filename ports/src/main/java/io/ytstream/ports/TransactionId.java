package io.ytstream.ports;

import java.util.Objects;

/**
 * The id of a tablet transaction; it travels in the write plan to executors, never in a
 * thread-local.
 */
public record TransactionId(String value) {

  public TransactionId {
    Objects.requireNonNull(value, "value");
    if (value.isBlank()) {
      throw new IllegalArgumentException("transaction id must not be blank");
    }
  }

  @Override
  public String toString() {
    return value;
  }
}
