package io.ytstream.ytsaurus;

/** When a request may be sent again after a failure, decided per call by what it does. */
enum Repeat {
  /** Reads: any transient failure is retried. */
  READ,
  /**
   * Light Cypress mutations: sent with a {@code mutation_id}, {@code retry=false} first and {@code
   * retry=true} on repeats, so the master applies them at most once ({@code
   * yt/yt/core/rpc/response_keeper.cpp}).
   */
  MUTATION_ID,
  /** Repeating has the same effect as sending once (ping, abort, whole-file overwrite). */
  IDEMPOTENT,
  /**
   * Not safe to repeat: retried only when the request was provably not processed (the connection
   * was refused, or the proxy answered 429/503).
   */
  ONCE,
  /**
   * Like {@link #ONCE}, and the request commits: a failure after it was sent means the outcome is
   * unknown ({@link io.ytstream.core.error.CommitOutcomeUnknownException}).
   */
  COMMIT
}
