package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableMetadata;
import io.ytstream.types.schema.ColumnSchema;
import io.ytstream.types.schema.TableSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code get <table>/@schema} (read by yt-types' {@code TableSchemaJson}, so each column carries
 * its type_v3 type) and {@code get <table>/@tablet_count}.
 */
final class HttpTableMetadata implements TableMetadata {

  private final YtsaurusCluster cluster;

  HttpTableMetadata(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public TableDescription describe(YPath table) {
    TableSchema schema = cluster.schema(table);
    List<TableDescription.Column> columns = new ArrayList<>();
    boolean sorted = false;
    for (ColumnSchema column : schema.columns()) {
      boolean key = column.sortOrder().isKey();
      sorted |= key;
      columns.add(TableDescription.Column.of(column.name(), column.type(), key));
    }
    int tabletCount = attribute(table, "tablet_count").asInt();
    return new TableDescription(table, sorted, tabletCount, columns);
  }

  private JsonNode attribute(YPath table, String name) {
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    params.put("path", table.value() + "/@" + name);
    return client.structured(client.primaryProxy(), Command.GET, params, Repeat.READ).path("value");
  }
}
