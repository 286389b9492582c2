package io.ytstream.ytsaurus;

import java.util.Locale;

/**
 * The row format chosen with {@code yt.http.format}: binary YSON by default, what the server's
 * Python client speaks, or JSON.
 */
public enum RowWireFormat {
  /** {@code <format=binary>yson}: no escaping, every YSON type as it is. */
  YSON,
  /** {@code <encode_utf8=%true>json} with {@code $}-keys escaped both ways. */
  JSON;

  /** The setting that chooses the format. */
  public static final String SETTING = "yt.http.format";

  private static final RowFormat YSON_ROWS = new YsonRows();
  private static final RowFormat JSON_ROWS = new JsonRows();

  RowFormat codec() {
    return this == YSON ? YSON_ROWS : JSON_ROWS;
  }

  /** {@code yson} or {@code json} (any case); anything else fails naming the setting. */
  public static RowWireFormat fromSetting(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    for (RowWireFormat f : values()) {
      if (f.name().toLowerCase(Locale.ROOT).equals(v)) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        "setting "
            + SETTING
            + " must be yson (binary YSON rows, the default) or json, got '"
            + value
            + "'");
  }
}
