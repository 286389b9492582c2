package io.ytstream.ports;

import io.ytstream.core.model.YPath;
import io.ytstream.types.v3.TypeV1;
import io.ytstream.types.v3.YtOptional;
import io.ytstream.types.v3.YtPrimitive;
import io.ytstream.types.v3.YtType;
import java.util.List;
import java.util.Objects;

/** What {@link TableMetadata#describe} returns. */
public record TableDescription(YPath path, boolean sorted, int tabletCount, List<Column> columns) {

  public TableDescription {
    Objects.requireNonNull(path, "path");
    columns = List.copyOf(columns);
  }

  /** Key columns of a sorted table, in key order; empty for an ordered table. */
  public List<Column> keyColumns() {
    return columns.stream().filter(Column::key).toList();
  }

  /**
   * One schema column. {@code type} is the old-style YTsaurus type name (e.g. {@code int64}, {@code
   * string}, {@code any}) and {@code required} its flag; {@code typeV3} is the full type_v3 type
   * (composites included), which is what values are checked and encoded against.
   *
   * <p>The four-argument constructor derives {@code typeV3} from {@code type}/{@code required}
   * ({@code T, false} is {@code optional<T>}; a type_v3 primitive name is accepted too; an unknown
   * name is taken as {@code any}); {@link #of(String, YtType, boolean)} derives {@code type}/{@code
   * required} from a type_v3 type as the server reports them.
   */
  public record Column(String name, String type, boolean key, boolean required, YtType typeV3) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(typeV3, "typeV3");
    }

    public Column(String name, String type, boolean key, boolean required) {
      this(name, type, key, required, typeV3Of(type, required));
    }

    /** A column of a type_v3 type; {@code type} and {@code required} follow the server's rule. */
    public static Column of(String name, YtType typeV3, boolean key) {
      TypeV1 v1 = TypeV1.fromTypeV3(typeV3);
      return new Column(name, v1.name(), key, v1.required(), typeV3);
    }

    private static YtType typeV3Of(String type, boolean required) {
      YtPrimitive primitive = YtPrimitive.fromV1Name(type);
      if (primitive == null) {
        primitive = YtPrimitive.fromV3Name(type);
      }
      if (primitive == null) {
        primitive = YtPrimitive.YSON;
      }
      if (primitive.isNullable()) {
        return primitive;
      }
      return required ? primitive : new YtOptional(primitive);
    }
  }
}
