package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableMetadata;
import java.util.ArrayList;
import java.util.List;

/** {@code get <table>/@schema} and {@code get <table>/@tablet_count}. */
final class HttpTableMetadata implements TableMetadata {

  private final YtsaurusCluster cluster;

  HttpTableMetadata(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public TableDescription describe(YPath table) {
    JsonNode schema = attribute(table, "schema");
    // JSON renders a YSON list with attributes as {"$attributes":{...},"$value":[...]}.
    JsonNode columnsNode = schema.has("$value") ? schema.get("$value") : schema;
    List<TableDescription.Column> columns = new ArrayList<>();
    boolean sorted = false;
    for (JsonNode column : columnsNode) {
      boolean key = column.hasNonNull("sort_order");
      sorted |= key;
      columns.add(
          new TableDescription.Column(
              column.path("name").asText(),
              column.path("type").asText("any"),
              key,
              column.path("required").asBoolean(false)));
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
