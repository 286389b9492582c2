package io.ytstream.ytsaurus;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * {@code Retry-After} of an answer (RFC 9110: seconds, or an HTTP date). A proxy sets 60 on every
 * 503 it answers for a ban or an overload ({@code yt/yt/server/http_proxy/context.cpp}, {@code
 * DispatchUnavailable}).
 */
final class RetryAfter {

  private RetryAfter() {}

  static Optional<Duration> of(HttpHeaders headers) {
    Optional<String> value = headers.firstValue("Retry-After").map(String::strip);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    String text = value.get();
    if (text.matches("[0-9]{1,9}")) {
      return Optional.of(Duration.ofSeconds(Long.parseLong(text)));
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration wait = Duration.between(ZonedDateTime.now(at.getZone()), at);
      return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
    } catch (DateTimeParseException e) {
      // A value that is neither form says nothing usable.
      return Optional.empty();
    }
  }
}
