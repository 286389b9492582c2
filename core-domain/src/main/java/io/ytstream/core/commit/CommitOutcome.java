package io.ytstream.core.commit;

/** How a commit attempt ended, as far as the protocol needs to know. */
public enum CommitOutcome {
  /** Applied. */
  COMMITTED,
  /**
   * Not applied, and trying the batch again may succeed (lock conflict, throttling, proxy down,
   * expiry).
   */
  RETRY_LATER,
  /**
   * Not applied because another writer moved the consumer (an offset conflict that is not "already
   * applied").
   */
  FENCED,
  /** May or may not have been applied: resolve by re-reading the consumer rows. */
  UNKNOWN,
  /**
   * Not applied, and retrying the same batch cannot succeed (e.g. too many rows in a tablet, no
   * permission).
   */
  FAILED
}
