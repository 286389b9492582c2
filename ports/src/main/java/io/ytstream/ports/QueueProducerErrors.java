package io.ytstream.ports;

/**
 * The error codes of queue producers, as the server names them ({@code
 * yt/yt/client/queue_client/public.h}, next to 3100 ConsumerOffsetConflict).
 */
public final class QueueProducerErrors {

  /** InvalidEpoch: the push names an epoch newer than the session's. */
  public static final int INVALID_EPOCH = 3101;

  /**
   * ZombieEpoch: the push names an epoch older than the session's, so another writer has created
   * the session since; this writer is fenced and must stop, not retry.
   */
  public static final int ZOMBIE_EPOCH = 3102;

  /** InvalidRowSequenceNumbers: missing, negative, not increasing, or given both ways. */
  public static final int INVALID_ROW_SEQUENCE_NUMBERS = 3103;

  private QueueProducerErrors() {}
}
