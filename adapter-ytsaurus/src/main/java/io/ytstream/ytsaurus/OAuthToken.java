package io.ytstream.ytsaurus;

import java.util.Objects;

/**
 * A YTsaurus OAuth token. It is sent only in the {@code Authorization} header; {@link #toString}
 * and every log line and exception text of this adapter show {@code <redacted>} instead.
 */
public final class OAuthToken {

  static final String REDACTED = "<redacted>";

  private final String value;

  private OAuthToken(String value) {
    this.value = value;
  }

  /** A token; surrounding white space (a trailing newline in {@code ~/.yt/token}) is dropped. */
  public static OAuthToken of(String value) {
    String trimmed = Objects.requireNonNull(value, "token").strip();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("the YTsaurus token is empty");
    }
    if (trimmed.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw new IllegalArgumentException(
          "the YTsaurus token contains white space or non-ASCII characters");
    }
    return new OAuthToken(trimmed);
  }

  /** The header value {@code OAuth <token>}; only the HTTP transport calls this. */
  String authorizationHeader() {
    return "OAuth " + value;
  }

  /** Replaces every occurrence of this token in {@code text} with {@code <redacted>}. */
  String redact(String text) {
    return text == null ? null : text.replace(value, REDACTED);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OAuthToken other && value.equals(other.value);
  }

  @Override
  public int hashCode() {
    return value.hashCode();
  }

  @Override
  public String toString() {
    return "OAuthToken(" + REDACTED + ")";
  }
}
