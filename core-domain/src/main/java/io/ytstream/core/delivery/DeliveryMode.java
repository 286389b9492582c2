package io.ytstream.core.delivery;

/** The ways ytstream delivers rows, and what each guarantees. */
public enum DeliveryMode {
  /**
   * Output flushed in chunks, each in its own transaction; the consumer advanced after the batch
   * commits. No row is lost; a replayed batch may write rows twice.
   */
  AT_LEAST_ONCE(false),
  /**
   * One tablet transaction per batch holds every output row and every consumer advance ({@code
   * old_offset = lower}); the consumer rows decide recovery. Exactly once for any query.
   */
  TRANSACTIONAL(true),
  /**
   * Upserts into a sorted table keyed by source position, so a replay overwrites the same keys.
   * Exactly once for stateless 1:1 queries.
   */
  IDEMPOTENT_RECEIVER(true),
  /**
   * Each task pushes its share of a batch into a queue through a queue producer session of its own,
   * numbered from the batch id ({@link BatchShareNumbering}), so the server skips a replayed share;
   * the consumer advanced after the batch commits, as in at-least-once. Exactly once for queries
   * that put the same rows into the same task partition when a batch runs again.
   */
  PRODUCER_SESSIONS(true);

  private final boolean exactlyOnce;

  DeliveryMode(boolean exactlyOnce) {
    this.exactlyOnce = exactlyOnce;
  }

  public boolean isExactlyOnce() {
    return exactlyOnce;
  }
}
