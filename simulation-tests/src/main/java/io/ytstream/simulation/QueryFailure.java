package io.ytstream.simulation;

/**
 * The streaming query failed (what Spark reports as a terminated query). A supervisor restarts it,
 * unless the failure is permanent (data loss with {@code fail_on_data_loss}).
 */
final class QueryFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final boolean permanent;

  QueryFailure(String message, boolean permanent, Throwable cause) {
    super(message, cause, false, false);
    this.permanent = permanent;
  }

  boolean permanent() {
    return permanent;
  }
}
