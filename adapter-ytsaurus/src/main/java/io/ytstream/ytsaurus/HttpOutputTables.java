package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.OutputTables;
import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code insert_rows} without a transaction (the proxy runs it in a tablet transaction of its own,
 * {@code yt/yt/client/driver/table_commands.cpp}) and {@code select_rows "* from [table]"} to read
 * a table back.
 */
final class HttpOutputTables implements OutputTables {

  private final YtsaurusCluster cluster;

  HttpOutputTables(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public void append(YPath orderedTable, List<Row> rows) {
    insert(orderedTable, rows);
  }

  @Override
  public void upsert(YPath sortedTable, List<Row> rows) {
    insert(sortedTable, rows);
  }

  private void insert(YPath table, List<Row> rows) {
    if (rows.isEmpty()) {
      return;
    }
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    params.put("path", table.value());
    client.structured(
        cluster.heavyProxies().forHeavyCommand(),
        Command.INSERT_ROWS,
        params,
        cluster.rows().encode(rows, cluster.columnTypes(table)),
        Repeat.COMMIT);
  }

  @Override
  public List<Row> readAll(YPath table) {
    YtHttpClient client = cluster.client();
    ObjectNode params = client.params();
    params.put("query", "* from " + Paths.inQuery(table));
    byte[] body =
        client.send(
            cluster.heavyProxies().forHeavyCommand(),
            Command.SELECT_ROWS,
            params,
            null,
            Repeat.READ);
    List<Map<String, Object>> rows =
        new ArrayList<>(cluster.rows().decode(body, cluster.columnTypes(table)));
    // Ordered tables come back with ($tablet_index, $row_index); put them in that order.
    if (!rows.isEmpty() && rows.get(0).get(HttpQueuePartitionReader.ROW_INDEX) instanceof Long) {
      rows.sort(
          Comparator.comparingLong(
                  (Map<String, Object> r) -> number(r.get(HttpQueuePartitionReader.TABLET_INDEX)))
              .thenComparingLong(r -> number(r.get(HttpQueuePartitionReader.ROW_INDEX))));
    }
    // The port returns data columns only: system columns are positions, not data.
    List<Row> result = new ArrayList<>(rows.size());
    for (Map<String, Object> row : rows) {
      Map<String, Object> data = new LinkedHashMap<>();
      row.forEach(
          (column, value) -> {
            if (!column.startsWith("$")) {
              data.put(column, value);
            }
          });
      result.add(Row.of(data));
    }
    return result;
  }

  private static long number(Object value) {
    return value instanceof Long l ? l : 0L;
  }
}
