package io.ytstream.core.delivery;

import java.util.Objects;

/** A {@link RecoveryDecision} with the reason, fit for an error message or a log line. */
public record RecoveryVerdict(RecoveryDecision decision, String reason) {

  public RecoveryVerdict {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(reason, "reason");
  }
}
