package io.ytstream.ytsaurus;

import io.ytstream.ports.TextSlice;
import io.ytstream.types.yson.YsonUint64;

/** Receives each decoded row column by column, in the order the server wrote them. */
interface RowVisitor {

  void column(String name, Object value);

  /** An int64 value, unboxed: visitors that keep some integers as longs skip the box. */
  default void integer(String name, long value) {
    column(name, value);
  }

  /**
   * A uint64 value of a column without a type (such as {@code $timestamp}), as its 64 bits:
   * visitors that keep such integers as longs skip the {@link YsonUint64}.
   */
  default void unsigned(String name, long bits) {
    column(name, new YsonUint64(bits));
  }

  /**
   * A text value kept as bytes: {@code [offset, offset + length)} of {@code data}, which is never
   * changed. Visitors that keep the range skip the {@link TextSlice}.
   */
  default void text(String name, byte[] data, int offset, int length) {
    column(name, new TextSlice(data, offset, length));
  }

  /** The row is complete; false stops decoding (the rest of the body is not read). */
  boolean endRow();
}
