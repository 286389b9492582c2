package io.ytstream.ytsaurus;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * An error the proxy wrote into the body of a heavy command after it had started streaming, asked
 * for with {@code dump_error_into_response=true}. The status is then 200 and the error is the end
 * of the body, in the exact bytes of {@code DumpError} ({@code
 * yt/yt/server/http_proxy/context.cpp}, called from {@code TContext::Finalize}):
 *
 * <pre>
 * "\n" "\n" 80 x "=" "\n"   the error as pretty JSON   "\n" 80 x "=" "\n"
 * </pre>
 *
 * Without the parameter the proxy sends the error in HTTP trailers: a client that drops trailers
 * (the JDK's {@code HttpClient} does) would take a half-written answer for a complete one. {@link
 * YtHttpClient} reads both.
 */
final class DumpedError {

  /** The parameter that asks for it. */
  static final String PARAMETER = "dump_error_into_response";

  private static final byte[] DELIMITER = delimiter();
  private static final byte[] OPENING = concat(new byte[] {'\n'}, DELIMITER);

  /** The body before the error, and the error's JSON. */
  record Split(byte[] data, byte[] errorJson) {}

  private DumpedError() {}

  private static byte[] delimiter() {
    byte[] out = new byte[82];
    Arrays.fill(out, (byte) '=');
    out[0] = '\n';
    out[81] = '\n';
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /**
   * The dumped error at the end of {@code body}, if there is one: the body ends with the closing
   * delimiter and an opening one comes before it with a JSON object between them.
   */
  static Optional<Split> find(byte[] body) {
    int closing = body.length - DELIMITER.length;
    if (closing < OPENING.length || !regionEquals(body, closing, DELIMITER)) {
      return Optional.empty();
    }
    for (int start = closing - OPENING.length; start >= 0; start--) {
      if (body[start] == '\n' && regionEquals(body, start, OPENING)) {
        byte[] error = Arrays.copyOfRange(body, start + OPENING.length, closing);
        String text = new String(error, StandardCharsets.UTF_8).strip();
        if (text.startsWith("{") && text.endsWith("}")) {
          return Optional.of(new Split(Arrays.copyOf(body, start), error));
        }
        return Optional.empty();
      }
    }
    return Optional.empty();
  }

  private static boolean regionEquals(byte[] body, int from, byte[] expected) {
    if (from < 0 || from + expected.length > body.length) {
      return false;
    }
    for (int i = 0; i < expected.length; i++) {
      if (body[from + i] != expected[i]) {
        return false;
      }
    }
    return true;
  }
}
