package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * Raw HTTP requests written from the reference (method, headers, body), so the emulator is checked
 * against the documented protocol and not against our client.
 */
final class RawHttp {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String JSON_NO_ENCODE =
      "{\"$value\":\"json\",\"$attributes\":{\"encode_utf8\":false}}";

  /** Parses JSON text (a header value, say), failing the test if it is not JSON. */
  static JsonNode parseJson(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  private final HttpClient client;
  private final String token;

  RawHttp(String token) {
    this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    this.token = token;
  }

  /** Over HTTPS, trusting what {@code tls} trusts. */
  RawHttp(String token, SSLContext tls) {
    this.client =
        HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(tls).build();
    this.token = token;
  }

  /** A response: status, headers, body. */
  record Reply(HttpResponse<byte[]> response) {
    int status() {
      return response.statusCode();
    }

    String header(String name) {
      return response.headers().firstValue(name).orElse(null);
    }

    String text() {
      return new String(response.body(), StandardCharsets.UTF_8);
    }

    JsonNode json() {
      try {
        return JSON.readTree(response.body());
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + text(), e);
      }
    }

    List<JsonNode> rows() {
      List<JsonNode> rows = new ArrayList<>();
      for (String line : text().split("\n")) {
        if (!line.isBlank()) {
          try {
            rows.add(JSON.readTree(line));
          } catch (IOException e) {
            throw new AssertionError("not a JSON line: " + line, e);
          }
        }
      }
      return rows;
    }

    /** The error code in the body, which must match X-YT-Response-Code. */
    int errorCode() {
      return json().path("code").asInt();
    }

    /** Every code in the error, inner errors included. */
    List<Integer> allCodes() {
      List<Integer> codes = new ArrayList<>();
      collect(json(), codes);
      return codes;
    }

    private static void collect(JsonNode error, List<Integer> codes) {
      codes.add(error.path("code").asInt());
      error.path("inner_errors").forEach(e -> collect(e, codes));
    }
  }

  Reply send(String method, String url, String parameters, String contentType, byte[] body) {
    return send(method, url, parameters, contentType, body, null);
  }

  Reply send(
      String method,
      String url,
      String parameters,
      String contentType,
      byte[] body,
      String inputFormat) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      builder.header("Authorization", "OAuth " + token);
    }
    if (parameters != null) {
      builder.header("X-YT-Header-Format", "json");
      builder.header("X-YT-Parameters", parameters);
      builder.header("X-YT-Output-Format", JSON_NO_ENCODE);
    }
    if (inputFormat != null) {
      builder.header("X-YT-Input-Format", inputFormat);
    }
    if (contentType != null) {
      builder.header("Content-Type", contentType);
    }
    HttpRequest.BodyPublisher publisher =
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body);
    builder.method(method, publisher);
    try {
      return new Reply(client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /**
   * Any request: {@code headers} are sent as given (name, value, name, value, ...), plus the token;
   * {@code body} may be null.
   */
  Reply raw(String method, String url, byte[] body, String... headers) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      builder.header("Authorization", "OAuth " + token);
    }
    for (int i = 0; i + 1 < headers.length; i += 2) {
      builder.header(headers[i], headers[i + 1]);
    }
    builder.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(body));
    try {
      return new Reply(client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** A request with only an {@code X-YT-Output-Format} header (parameters in the URL). */
  Reply getWithOutputFormat(String url, String outputFormat) {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(url))
            .timeout(Duration.ofSeconds(10))
            .header("X-YT-Output-Format", outputFormat)
            .GET();
    if (token != null) {
      builder.header("Authorization", "OAuth " + token);
    }
    try {
      return new Reply(client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** {@code <method> <base>/api/v4/<command>} with parameters in {@code X-YT-Parameters}. */
  Reply command(String method, String base, String command, String parameters) {
    return send(method, base + "/api/v4/" + command, parameters, null, null);
  }

  /** A PUT with tabular JSON rows (encode_utf8=false) in the body. */
  Reply put(String base, String command, String parameters, String rows) {
    return send(
        "PUT",
        base + "/api/v4/" + command,
        parameters,
        null,
        rows.getBytes(StandardCharsets.UTF_8),
        JSON_NO_ENCODE);
  }
}
