package io.ytstream.application.offsets;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;

/**
 * Reads the offsets JSON in one pass when it has the canonical shape ({@link
 * OffsetsJson#isCanonical}, the shape {@link OffsetsJson#write} gives it): {@code "version":1}
 * first, then {@code "queues"}, queues and partitions in ascending order, queue keys without
 * escapes, numbers without signs or leading zeros (white space anywhere JSON allows it). That is
 * every offset log this library writes for queue keys JSON does not escape, and reading it costs
 * one scan with no boxed values.
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
      // A bad queue key or partition, or partitions out of order: the general reader reports it in
      // its own words and order.
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
            if (index < 0 || index > Integer.MAX_VALUE) {
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
            // Partitions out of order or repeated: add refuses them, and parse declines.
            out.add(new PartitionId(queue, (int) index), offset);
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
   * A non-negative integer of at most {@code maxDigits} digits, without a leading zero; -1 when
   * there is none. A number of 19 digits above {@link Long#MAX_VALUE} overflows once, to a negative
   * value, which the callers decline as they decline -1. Where the number ends (at {@code .},
   * {@code e} or anything else) the caller's check of the next token sees it.
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

  /**
   * Skips white space and then {@code literal}; false if the text does not go on with it. The
   * version {@code 1} must end where it does ({@code 10} and {@code 1.5} are not it): the next
   * {@code skip(',')} sees to that.
   */
  private boolean skipLiteral(String literal) {
    skipWhitespace();
    if (!text.startsWith(literal, pos)) {
      return false;
    }
    pos += literal.length();
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
