package io.ytstream.inmemory;

/** How a scheduled fault breaks the call it fires on. */
public enum FaultKind {
  /** The call fails with a {@code YtException} before it has any effect. */
  FAIL_BEFORE,
  /** The call takes effect, then reports a {@code YtException} (a lost success response). */
  FAIL_AFTER_APPLYING,
  /** A commit is applied, then reports {@code CommitOutcomeUnknownException}. */
  UNKNOWN_OUTCOME_AFTER_APPLYING,
  /**
   * A commit reports {@code CommitOutcomeUnknownException} without being applied; the transaction
   * is aborted.
   */
  UNKNOWN_OUTCOME_WITHOUT_APPLYING
}
