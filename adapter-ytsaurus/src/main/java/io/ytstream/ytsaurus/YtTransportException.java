package io.ytstream.ytsaurus;

/**
 * No usable answer from a proxy (connection refused or reset, timeout) after the allowed attempts.
 * For a request that was sent, its effect is unknown.
 */
public class YtTransportException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  YtTransportException(String message, Throwable cause) {
    super(message, cause);
  }
}
