package io.ytstream.ytsaurus.http;

import java.io.IOException;

/**
 * An answer the client would not read whole because it is over a limit of its own (a framing field
 * in a header section over 64 KiB, a body over 2 GiB): not a transport failure, as the server did
 * answer, with {@link #status()}. A caller that committed can tell the outcome from the status.
 */
public final class AnswerOverLimit extends IOException {

  private static final long serialVersionUID = 1L;

  private final int status;

  AnswerOverLimit(int status, String message) {
    super(message);
    this.status = status;
  }

  /** The status line's code, which was read. */
  public int status() {
    return status;
  }
}
