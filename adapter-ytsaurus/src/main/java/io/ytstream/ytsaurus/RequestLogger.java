package io.ytstream.ytsaurus;

/**
 * Receives one line per HTTP attempt: method, proxy, command, parameters, the row format of a
 * tabular command, and outcome. The token is never part of a logged request (it travels only in the
 * {@code Authorization} header, which is shown as {@code OAuth <redacted>}).
 */
@FunctionalInterface
public interface RequestLogger {

  RequestLogger NONE = request -> {};

  void log(LoggedRequest request);

  /**
   * One attempt of one command. {@code parameters} is the JSON sent in {@code X-YT-Parameters};
   * {@code rowFormat} the format of the rows it sends or reads ({@code <format=binary>yson}), empty
   * for a command without rows; {@code status} is the HTTP status, or -1 when no response arrived.
   */
  record LoggedRequest(
      String method,
      String proxy,
      String command,
      String parameters,
      String rowFormat,
      int bodyBytes,
      int attempt,
      int status,
      String outcome) {

    /**
     * {@code PUT http://h:1/api/v4/insert_rows {"path":...} rows=<format=binary>yson body=12B ->
     * 200}.
     */
    public String line() {
      return method
          + " "
          + proxy
          + (command.startsWith("/") ? command : "/api/v4/" + command)
          + (parameters.isEmpty() ? "" : " " + parameters)
          + (rowFormat.isEmpty() ? "" : " rows=" + rowFormat)
          + (bodyBytes > 0 ? " body=" + bodyBytes + "B" : "")
          + " [Authorization: OAuth "
          + OAuthToken.REDACTED
          + "]"
          + (attempt > 1 ? " attempt=" + attempt : "")
          + " -> "
          + (status >= 0 ? status : "no response")
          + (outcome.isEmpty() ? "" : " " + outcome);
    }
  }
}
