package io.ytstream.inmemory;

/** Life cycle of a tablet transaction. */
enum TransactionState {
  ACTIVE("active"),
  COMMITTED("committed"),
  ABORTED("aborted"),
  /** Lease lapsed: gone from the (emulated) sticky pool, so every use fails with 11000. */
  EXPIRED("expired");

  private final String wireName;

  TransactionState(String wireName) {
    this.wireName = wireName;
  }

  String wireName() {
    return wireName;
  }
}
