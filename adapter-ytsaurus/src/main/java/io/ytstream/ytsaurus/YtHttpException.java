package io.ytstream.ytsaurus;

import io.ytstream.core.error.YtException;
import java.util.List;

/**
 * An error a proxy answered with: the YTsaurus error JSON (from the body or {@code X-YT-Error}),
 * its top-level code and every code in {@code inner_errors} (searched recursively, so the core's
 * classifier sees 3100 inside a generic 1). HTTP statuses 401, 429 and 503 are added as codes of
 * their own. The message never contains the token.
 */
public class YtHttpException extends YtException {

  private static final long serialVersionUID = 1L;

  private final int httpStatus;
  private final String command;

  YtHttpException(
      int code, String message, List<Integer> innerCodes, int httpStatus, String command) {
    super(code, message, innerCodes, null);
    this.httpStatus = httpStatus;
    this.command = command;
  }

  public int httpStatus() {
    return httpStatus;
  }

  public String command() {
    return command;
  }
}
