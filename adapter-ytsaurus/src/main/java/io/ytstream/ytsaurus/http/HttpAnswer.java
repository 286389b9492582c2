package io.ytstream.ytsaurus.http;

import java.net.http.HttpHeaders;
import java.util.List;

/**
 * One HTTP/1.1 answer, read whole: its status, headers and body, and the trailers that followed a
 * chunked body (empty otherwise). A YTsaurus proxy sends an error that happens after the body
 * started in the trailers ({@code yt/yt/server/http_proxy/context.cpp}, {@code Finalize}).
 *
 * @param dropped the names of header or trailer fields left out because they did not fit the
 *     client's limit on a head ({@link Http11Connection}): a proxy repeats a whole error, however
 *     deeply nested, in {@code X-YT-Error}, and writes it as the JSON body too, so the caller reads
 *     the error from the body instead
 */
public record HttpAnswer(
    int status, HttpHeaders headers, byte[] body, HttpHeaders trailers, List<String> dropped) {

  public HttpAnswer {
    dropped = List.copyOf(dropped);
  }

  public HttpAnswer(int status, HttpHeaders headers, byte[] body, HttpHeaders trailers) {
    this(status, headers, body, trailers, List.of());
  }

  /** Whether a field named {@code name} (any case) was left out. */
  public boolean droppedField(String name) {
    return dropped.stream().anyMatch(name::equalsIgnoreCase);
  }
}
