package io.ytstream.ports;

import io.ytstream.core.model.YPath;
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
   * One schema column; {@code type} is the YTsaurus type name (e.g. {@code int64}, {@code string}).
   */
  public record Column(String name, String type, boolean key, boolean required) {
    public Column {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
    }
  }
}
