package io.ytstream.application.offsets;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;

/**
 * Reads the offsets JSON in one pass when it has the shape {@link OffsetsJson#write} gives it:
 * {@code "version":1} first, then {@code "queues"}, queues and partitions in ascending order, keys
 * without escapes, numbers without signs or leading zeros (white space anywhere JSON allows it).
 * That is every offset log this library writes, and reading it costs one scan with no boxed values.
 *
 * <p>Anything else, valid or not, returns {@code null} and goes through the general reader, which
 * alone decides what is accepted and words every error. So for an input this class accepts, the
 * general reader returns the same offsets.
 */
final class CanonicalOffsetsJson {

  private static final String VERSION_KEY = "\"version\"";
  private static final String QUEUES_KEY = "\"queues\"";

  private final String text;
  private int pos;

  private CanonicalOffsetsJson(String text) {
    this.text = text;
  }

  /** The offsets, or null when {@code json} is not in the canonical shape. */
  static StreamOffsets parse(String json) {
    try {
      return new CanonicalOffsetsJson(json).read();
    } catch (IllegalArgumentException e) {
      // A bad queue key or partition: the general reader reports it in its own words and order.
      return null;
    }
  }

  private StreamOffsets read() {
    if (!skip('{') || !skipLiteral(VERSION_KEY) || !skip(':') || !skipLiteral("1")) {
      return null;
    }
    if (!skip(',') || !skipLiteral(QUEUES_KEY) || !skip(':') || !skip('{')) {
      return null;
    }
    StreamOffsets.Builder out = StreamOffsets.builder(text.length() / 12);
    QueueId previousQueue = null;
    skipWhitespace();
    if (peek() == '}') {
      pos++;
    } else {
      while (true) {
        String key = readPlainString();
        if (key == null || !skip(':') || !skip('{')) {
          return null;
        }
        QueueId queue = QueueId.parseKey(key);
        if (previousQueue != null && previousQueue.compareTo(queue) >= 0) {
          return null;
        }
        previousQueue = queue;
        int previousIndex = -1;
        skipWhitespace();
        if (peek() == '}') {
          pos++;
        } else {
          while (true) {
            skipWhitespace();
            if (peek() != '"') {
              return null;
            }
            pos++;
            long index = readNumber(10);
            if (index < 0 || index > Integer.MAX_VALUE || index <= previousIndex) {
              return null;
            }
            if (peek() != '"') {
              return null;
            }
            pos++;
            if (!skip(':')) {
              return null;
            }
            skipWhitespace();
            long offset = readNumber(19);
            if (offset < 0) {
              return null;
            }
            out.add(new PartitionId(queue, (int) index), offset);
            previousIndex = (int) index;
            skipWhitespace();
            char c = peek();
            pos++;
            if (c == '}') {
              break;
            }
            if (c != ',') {
              return null;
            }
          }
        }
        skipWhitespace();
        char c = peek();
        pos++;
        if (c == '}') {
          break;
        }
        if (c != ',') {
          return null;
        }
      }
    }
    if (!skip('}')) {
      return null;
    }
    skipWhitespace();
    return pos == text.length() ? out.build() : null;
  }

  /**
   * A non-negative integer of at most {@code maxDigits} digits, without a leading zero, ending at a
   * character that is not part of a number; -1 otherwise.
   */
  private long readNumber(int maxDigits) {
    int start = pos;
    long value = 0;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c < '0' || c > '9') {
        break;
      }
      value = value * 10 + (c - '0');
      pos++;
    }
    int digits = pos - start;
    if (digits == 0 || digits > maxDigits || (digits > 1 && text.charAt(start) == '0')) {
      return -1;
    }
    if (digits == 19 && value < 0) {
      return -1; // overflowed: above Long.MAX_VALUE
    }
    if (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+') {
        return -1;
      }
    }
    return value;
  }

  /** A string without escapes or control characters, after optional white space; else null. */
  private String readPlainString() {
    skipWhitespace();
    if (peek() != '"') {
      return null;
    }
    int start = ++pos;
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c == '"') {
        return text.substring(start, pos++);
      }
      if (c == '\\' || c < 0x20) {
        return null;
      }
      pos++;
    }
    return null;
  }

  /** Skips white space and then {@code c}; false if the next character is not {@code c}. */
  private boolean skip(char c) {
    skipWhitespace();
    if (peek() != c) {
      return false;
    }
    pos++;
    return true;
  }

  private boolean skipLiteral(String literal) {
    skipWhitespace();
    if (!text.startsWith(literal, pos)) {
      return false;
    }
    pos += literal.length();
    if (literal.charAt(0) != '"' && pos < text.length()) {
      // A number must end here: "1" must not be the start of "10" or "1.5".
      char c = text.charAt(pos);
      if ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E') {
        return false;
      }
    }
    return true;
  }

  private char peek() {
    return pos < text.length() ? text.charAt(pos) : '\0';
  }

  private void skipWhitespace() {
    while (pos < text.length()) {
      char c = text.charAt(pos);
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
        return;
      }
      pos++;
    }
  }
}
