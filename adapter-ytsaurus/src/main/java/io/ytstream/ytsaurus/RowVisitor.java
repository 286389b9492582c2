package io.ytstream.ytsaurus;

/** Receives each decoded row column by column, in the order the server wrote them. */
interface RowVisitor {

  void column(String name, Object value);

  /** An int64 value, unboxed: visitors that keep some integers as longs skip the box. */
  default void integer(String name, long value) {
    column(name, value);
  }

  /** The row is complete; false stops decoding (the rest of the body is not read). */
  boolean endRow();
}
