package io.ytstream.inmemory;

import io.ytstream.core.error.YtException;

/** A fault waiting for its operation to be called. */
record ScheduledFault(FaultKind kind, int code, String message) {

  YtException error() {
    return new YtException(code, message);
  }
}
