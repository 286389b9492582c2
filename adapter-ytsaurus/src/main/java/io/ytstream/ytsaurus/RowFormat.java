package io.ytstream.ytsaurus;

import io.ytstream.ports.Row;
import io.ytstream.types.v3.YtType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How rows travel in the tabular commands ({@code pull_queue_consumer}, {@code select_rows}, {@code
 * lookup_rows}, {@code insert_rows}, {@code delete_rows}): the format named in {@code
 * X-YT-Input-Format} / {@code X-YT-Output-Format} and the codec that writes and reads it, each
 * column against its type_v3 type (columns without a known type are plain YSON values).
 */
interface RowFormat {

  /** The {@code X-YT-Input-Format} value, written in the header format (JSON). */
  String inputFormat();

  /** The {@code X-YT-Output-Format} value, written in the header format (JSON). */
  String outputFormat();

  /** The format in YSON's text form, for logs: {@code <format=binary>yson}. */
  String describe();

  byte[] encode(List<Row> rows, Map<String, YtType> types);

  void decode(byte[] body, Map<String, YtType> types, RowVisitor visitor);

  /**
   * As {@link #decode(byte[], Map, RowVisitor)}; with {@code textAsBytes} a format that carries
   * text as bytes may hand string and utf8 values as their UTF-8 {@code byte[]} (JSON decodes text
   * anyway and hands {@link String}s).
   */
  default void decode(
      byte[] body, Map<String, YtType> types, boolean textAsBytes, RowVisitor visitor) {
    decode(body, types, visitor);
  }

  /** Rows as maps in column order (for callers that want the whole row as a map). */
  default List<Map<String, Object>> decode(byte[] body, Map<String, YtType> types) {
    List<Map<String, Object>> rows = new ArrayList<>();
    decode(
        body,
        types,
        new RowVisitor() {
          private Map<String, Object> row = new LinkedHashMap<>();

          @Override
          public void column(String name, Object value) {
            row.put(name, value);
          }

          @Override
          public boolean endRow() {
            rows.add(row);
            row = new LinkedHashMap<>();
            return true;
          }
        });
    return rows;
  }
}
