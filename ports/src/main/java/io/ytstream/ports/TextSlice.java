package io.ytstream.ports;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * A string value as a range of a larger array that is never changed afterwards (an answer's bytes
 * as the server sent them), so a reader that hands bytes on (Spark's {@code UTF8String}) needs no
 * copy of its own. Only {@link QueuePartitionReader#pullKeepingTextBytes} hands these; equal by
 * content.
 */
public final class TextSlice {

  private final byte[] array;
  private final int offset;
  private final int length;

  /** The bytes {@code [offset, offset + length)} of {@code array}, which must not change. */
  public TextSlice(byte[] array, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, Objects.requireNonNull(array, "array").length);
    this.array = array;
    this.offset = offset;
    this.length = length;
  }

  /** The shared array; read only {@code [offset(), offset() + length())}, never write. */
  public byte[] array() {
    return array;
  }

  public int offset() {
    return offset;
  }

  public int length() {
    return length;
  }

  /** A copy of the bytes. */
  public byte[] toBytes() {
    return Arrays.copyOfRange(array, offset, offset + length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TextSlice t
        && Arrays.equals(array, offset, offset + length, t.array, t.offset, t.offset + t.length);
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (int i = offset; i < offset + length; i++) {
      h = 31 * h + array[i];
    }
    return h;
  }

  /** The bytes as text (malformed UTF-8 replaced), for messages. */
  @Override
  public String toString() {
    return new String(array, offset, length, StandardCharsets.UTF_8);
  }
}
