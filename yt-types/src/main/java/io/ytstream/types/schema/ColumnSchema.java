package io.ytstream.types.schema;

import io.ytstream.types.v3.TypeV1;
import io.ytstream.types.v3.YtType;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One column of a {@link TableSchema}: its name, its type_v3 type and its sort order. The name must
 * be non-empty, at most {@value #MAX_NAME_BYTES} bytes of UTF-8 and must not start with {@code @}
 * (the rules in {@code yt/docs/en/_includes/user-guide/storage/static-schema.md}).
 */
public record ColumnSchema(String name, YtType type, SortOrder sortOrder) {

  /** The documented limit on a column name. */
  public static final int MAX_NAME_BYTES = 256;

  public ColumnSchema {
    Objects.requireNonNull(name, "column name");
    Objects.requireNonNull(type, "type of column " + name);
    Objects.requireNonNull(sortOrder, "sort order of column " + name);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("column name must not be empty");
    }
    if (name.startsWith("@")) {
      throw new IllegalArgumentException(
          "column name \"" + name + "\" must not start with the system prefix @");
    }
    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_NAME_BYTES) {
      throw new IllegalArgumentException(
          "column name \""
              + name
              + "\" is "
              + bytes
              + " bytes of UTF-8, more than the limit "
              + MAX_NAME_BYTES);
    }
  }

  /** A column that is not a key column. */
  public static ColumnSchema of(String name, YtType type) {
    return new ColumnSchema(name, type, SortOrder.NONE);
  }

  /** The old-style {@code type}/{@code required} pair the server reports for this column. */
  public TypeV1 typeV1() {
    return TypeV1.fromTypeV3(type);
  }
}
