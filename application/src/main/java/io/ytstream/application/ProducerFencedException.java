package io.ytstream.application;

/**
 * A newer writer has created the producer session since this one got its epoch (the server's 3102
 * ZombieEpoch): this writer is a zombie, nothing of its push was written, and it must stop rather
 * than retry, as a Kafka producer does on a fenced epoch.
 */
public final class ProducerFencedException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public ProducerFencedException(String message, Throwable cause) {
    super(message, cause);
  }
}
