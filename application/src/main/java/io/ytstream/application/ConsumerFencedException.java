package io.ytstream.application;

/**
 * The consumer was moved by another writer (a second query or an old driver on the same consumer):
 * nothing more was written, and the query must stop.
 */
public final class ConsumerFencedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public ConsumerFencedException(String message) {
    super(message);
  }

  public ConsumerFencedException(String message, Throwable cause) {
    super(message, cause);
  }
}
