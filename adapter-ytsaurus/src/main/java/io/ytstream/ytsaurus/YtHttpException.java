package io.ytstream.ytsaurus;

import io.ytstream.core.error.YtException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
  private final transient Optional<AccessDenial> accessDenial;
  private final String serverMessage;

  YtHttpException(
      int code, String message, List<Integer> innerCodes, int httpStatus, String command) {
    this(code, message, innerCodes, httpStatus, command, Optional.empty(), message);
  }

  YtHttpException(
      int code,
      String message,
      List<Integer> innerCodes,
      int httpStatus,
      String command,
      Optional<AccessDenial> accessDenial,
      String serverMessage) {
    super(code, message, innerCodes, null);
    this.httpStatus = httpStatus;
    this.command = command;
    this.accessDenial = accessDenial;
    this.serverMessage = serverMessage;
  }

  /** The refused permission check, when this is one (901 with user and permission). */
  Optional<AccessDenial> accessDenial() {
    return accessDenial;
  }

  /** The server's error text with its inner errors (token redacted), before our advice. */
  String serverMessage() {
    return serverMessage;
  }

  /** This error with {@code message} instead of its text; codes and status are kept. */
  YtHttpException withMessage(String message) {
    List<Integer> inner = new ArrayList<>(codes());
    inner.remove(Integer.valueOf(code()));
    return new YtHttpException(
        code(), message, inner, httpStatus, command, accessDenial, serverMessage);
  }

  public int httpStatus() {
    return httpStatus;
  }

  public String command() {
    return command;
  }
}
