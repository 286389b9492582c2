package io.ytstream.emulator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for what the JDK's HttpClient cannot show or send: trailers of a
 * chunked answer, and header values with bytes above 0x7F (it replaces them with {@code ?}).
 */
final class RawSocket {

  private RawSocket() {}

  /** A raw answer: status, headers (lower-case names), de-chunked body, trailers. */
  record Answer(
      int status, Map<String, String> headers, byte[] body, Map<String, String> trailers) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }

    com.fasterxml.jackson.databind.JsonNode json() {
      return RawHttp.parseJson(text());
    }
  }

  /**
   * Sends one request; header values are strings of UTF-8 text, written as their UTF-8 bytes (name,
   * value, name, value, ...).
   */
  static Answer send(String baseUrl, String method, String pathAndQuery, String... headers)
      throws IOException {
    URI base = URI.create(baseUrl);
    try (Socket socket = new Socket(base.getHost(), base.getPort())) {
      StringBuilder request = new StringBuilder(method + " " + pathAndQuery + " HTTP/1.1\r\n");
      request.append("Host: ").append(base.getAuthority()).append("\r\nConnection: close\r\n");
      for (int i = 0; i + 1 < headers.length; i += 2) {
        request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
      }
      request.append("Content-Length: 0\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      return parse(socket.getInputStream());
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c == -1) {
        throw new IOException("cut line: " + bytes);
      }
      bytes.write(c);
    }
    String text = bytes.toString(StandardCharsets.ISO_8859_1);
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  private static Map<String, String> fields(InputStream in) throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String l = line(in); !l.isEmpty(); l = line(in)) {
      int colon = l.indexOf(':');
      fields.put(l.substring(0, colon).toLowerCase(Locale.ROOT), l.substring(colon + 1).strip());
    }
    return fields;
  }

  private static Answer parse(InputStream in) throws IOException {
    int status = Integer.parseInt(line(in).split(" ")[1]);
    Map<String, String> headers = fields(in);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    Map<String, String> trailers = Map.of();
    if ("chunked".equals(headers.get("transfer-encoding"))) {
      for (int size = Integer.parseInt(line(in), 16);
          size > 0;
          size = Integer.parseInt(line(in), 16)) {
        body.write(in.readNBytes(size));
        if (!line(in).isEmpty()) {
          throw new IOException("no CRLF after a chunk");
        }
      }
      trailers = fields(in);
    } else {
      body.write(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
    }
    return new Answer(status, headers, body.toByteArray(), trailers);
  }
}
