package io.ytstream.core.delivery;

/** What the consumer rows say about a transactional batch (the recovery table). */
public enum RecoveryDecision {
  /** Every partition is at {@code lower}: the batch is not applied yet; commit it. */
  COMMIT,
  /** Every partition is at {@code upper}: an earlier attempt applied it; abort, report success. */
  ALREADY_APPLIED,
  /** Anything else: another writer or corruption; fail with a fencing error, write nothing. */
  FENCED
}
