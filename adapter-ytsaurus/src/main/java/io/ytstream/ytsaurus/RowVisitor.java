package io.ytstream.ytsaurus;

/** Receives each decoded row column by column, in the order the server wrote them. */
interface RowVisitor {

  void column(String name, Object value);

  /** The row is complete; false stops decoding (the rest of the body is not read). */
  boolean endRow();
}
