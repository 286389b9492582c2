package io.ytstream.emulator;

import java.util.List;
import java.util.Map;

/**
 * An error the emulator answers with: a YTsaurus error (code, message, inner errors) and the HTTP
 * status to send it with (400 for command errors, {@code yt/yt/server/http_proxy/context.cpp}).
 */
final class CommandError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int code;
  private final int httpStatus;
  private final transient List<CommandError> inner;
  private final transient Map<String, String> attributes;

  CommandError(int httpStatus, int code, String message, List<CommandError> inner) {
    this(httpStatus, code, message, inner, Map.of());
  }

  CommandError(
      int httpStatus,
      int code,
      String message,
      List<CommandError> inner,
      Map<String, String> attributes) {
    super(message);
    this.httpStatus = httpStatus;
    this.code = code;
    this.inner = List.copyOf(inner);
    this.attributes = Map.copyOf(attributes);
  }

  /** Error attributes besides {@code host}, e.g. {@code token_hash}. */
  Map<String, String> attributes() {
    return attributes;
  }

  static CommandError of(int code, String message) {
    return new CommandError(400, code, message, List.of());
  }

  static CommandError badRequest(String message) {
    return new CommandError(400, 1, message, List.of());
  }

  /** A generic top-level error (code 1) wrapping {@code cause}, as real proxies often answer. */
  static CommandError wrap(String message, CommandError cause) {
    return new CommandError(cause.httpStatus, 1, message, List.of(cause));
  }

  int code() {
    return code;
  }

  int httpStatus() {
    return httpStatus;
  }

  List<CommandError> inner() {
    return inner;
  }
}
