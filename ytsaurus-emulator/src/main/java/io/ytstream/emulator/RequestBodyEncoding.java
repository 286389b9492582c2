package io.ytstream.emulator;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.InflaterInputStream;
import org.brotli.dec.BrotliInputStream;

/**
 * A request body's {@code Content-Encoding}, undone before the command reads it ({@code
 * yt/yt/core/http/compression.cpp}, {@code TDecompressingInputStream}): {@code gzip} and {@code
 * deflate} are both read by zlib in its auto mode, so a gzip stream and a bare zlib stream are both
 * accepted under either name (the official Python client labels a zlib stream {@code gzip}); {@code
 * br} is Brotli; {@code identity} or no header is the body as it is. Anything else is refused with
 * HTTP 415 before the command runs ({@code yt/yt/server/http_proxy/context.cpp}, {@code
 * TryGetInputCompression}). The proxy's block codecs ({@code z-lz4} and the like) are not served.
 */
final class RequestBodyEncoding {

  private static final List<String> SUPPORTED = List.of("identity", "gzip", "deflate", "br");

  private RequestBodyEncoding() {}

  /** Refuses an encoding the emulator cannot undo, before the body is read. */
  static void check(String header) {
    String encoding = normalize(header);
    if (!SUPPORTED.contains(encoding)) {
      throw new CommandError(
          415,
          1,
          "Unsupported Content-Encoding \"" + header + "\"; the emulator reads " + SUPPORTED,
          List.of());
    }
  }

  /** The body as the command reads it. */
  static byte[] decode(String header, byte[] body) {
    String encoding = normalize(header);
    if (encoding.equals("identity") || body.length == 0) {
      return body;
    }
    try (InputStream in = decoder(encoding, body)) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw CommandError.badRequest(
          "Error decompressing the request body (Content-Encoding: " + header + "): " + e);
    }
  }

  private static InputStream decoder(String encoding, byte[] body) throws IOException {
    ByteArrayInputStream raw = new ByteArrayInputStream(body);
    if (encoding.equals("br")) {
      return new BrotliInputStream(raw);
    }
    boolean gzipMagic = body.length >= 2 && (body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b;
    return gzipMagic ? new GZIPInputStream(raw) : new InflaterInputStream(raw);
  }

  private static String normalize(String header) {
    return header == null || header.isBlank()
        ? "identity"
        : header.strip().toLowerCase(Locale.ROOT);
  }
}
