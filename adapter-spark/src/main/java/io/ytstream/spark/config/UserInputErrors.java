package io.ytstream.spark.config;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;

/** Turns cluster errors about user input into messages that say what to fix. */
public final class UserInputErrors {

  private UserInputErrors() {}

  public static RuntimeException describeFailed(YPath path, String role, RuntimeException e) {
    if (e instanceof YtException yt && yt.hasCode(YtErrorCode.RESOLVE_ERROR)) {
      return new IllegalArgumentException(
          role
              + " "
              + path
              + " does not exist on the cluster: create it (and mount it) first, or fix the path"
              + " ("
              + e.getMessage()
              + ")",
          e);
    }
    return e;
  }

  public static RuntimeException partitionsFailed(YPath queue, RuntimeException e) {
    if (e instanceof YtException yt
        && (yt.hasCode(YtErrorCode.TABLET_NOT_MOUNTED)
            || yt.hasCode(YtErrorCode.INVALID_TABLET_STATE))) {
      return new IllegalArgumentException(
          "queue "
              + queue
              + " is not mounted: mount it (yt mount-table "
              + queue
              + ") and start the query again ("
              + e.getMessage()
              + ")",
          e);
    }
    return describeFailed(queue, "queue", e);
  }

  public static RuntimeException pullFailed(YPath queue, YPath consumer, RuntimeException e) {
    if (e instanceof YtException yt && yt.hasCode(YtErrorCode.AUTHORIZATION_ERROR)) {
      return new IllegalArgumentException(
          "consumer "
              + consumer
              + " is not registered for queue "
              + queue
              + ": register it (yt register-queue-consumer "
              + queue
              + " "
              + consumer
              + " --vital true) or fix option consumer_path ("
              + e.getMessage()
              + ")",
          e);
    }
    return partitionsFailed(queue, e);
  }

  /** A pull without a consumer (a static read): only the queue can be wrong. */
  public static RuntimeException pullFailed(YPath queue, RuntimeException e) {
    return partitionsFailed(queue, e);
  }
}
