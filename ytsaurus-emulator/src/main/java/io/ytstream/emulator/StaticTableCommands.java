package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.MasterTransactions;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableNodeSchema;
import io.ytstream.types.schema.ColumnSchema;
import io.ytstream.types.v3.YtType;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Static tables' data commands ({@code yt/yt/client/driver/table_commands.cpp}): {@code
 * write_table} and {@code read_table}, outside or inside a master transaction. What a transaction
 * writes is staged in it and reaches the table at the outermost commit ({@code MasterTransactions},
 * shared with the in-memory cluster's {@code StaticTableAppends}).
 */
final class StaticTableCommands {

  private final EmulatorState state;

  StaticTableCommands(EmulatorState state) {
    this.state = state;
  }

  private InMemoryCluster cluster() {
    return state.cluster();
  }

  /**
   * {@code write_table} ({@code TWriteTableCommand}: {@code path}, the rows in the input format as
   * the body, the transaction of {@code transaction_id}). The rich path's {@code append} attribute
   * appends; without it the rows replace the table's content ({@code
   * yt/yt/client/api/table_writer.h}, overwrite is the default). The rows are checked against the
   * table's strict schema, and any that fails it fails the whole write. A dynamic table is refused:
   * its rows go through {@code insert_rows}.
   */
  Object writeTable(CommandRequest request) {
    RichPath target = richPath(request);
    Optional<String> transaction = transactionId(request);
    TableNodeSchema described = describeStatic(target.path());
    List<Row> rows = request.inputFormat().readRows(request.body(), types(described));
    cluster().writeStaticTable(target.path(), transaction, rows.iterator(), target.append());
    return JsonNodeFactory.instance.objectNode();
  }

  /**
   * {@code read_table} ({@code TReadTableCommand}): every row as the transaction (or, without one,
   * anybody) sees it, in the output format, with the response parameters the driver sends ({@code
   * approximate_row_count}, {@code omitted_inaccessible_columns}, and {@code start_row_index} when
   * there are rows). Row ranges in the path are not read: the whole table is.
   */
  Object readTable(CommandRequest request) {
    RichPath target = richPath(request);
    Optional<String> transaction = transactionId(request);
    TableNodeSchema described = describeStatic(target.path());
    List<Row> rows = cluster().readStaticTable(target.path(), transaction);
    ObjectNode parameters = JsonNodeFactory.instance.objectNode();
    parameters.put("approximate_row_count", rows.size());
    parameters.put("omitted_inaccessible_columns", false);
    if (!rows.isEmpty()) {
      parameters.put("start_row_index", 0);
    }
    return new CommandSpec.Tabular(rows, types(described), Long.MAX_VALUE, parameters);
  }

  private TableNodeSchema describeStatic(YPath path) {
    TableNodeSchema described = cluster().staticTableAppends().describe(path);
    if (described.dynamic()) {
      throw CommandError.badRequest(
          "the emulator writes and reads static tables with write_table and read_table; "
              + path
              + " is dynamic: use insert_rows and select_rows");
    }
    return described;
  }

  private static Map<String, YtType> types(TableNodeSchema described) {
    Map<String, YtType> types = new LinkedHashMap<>();
    for (ColumnSchema column : described.schema().columns()) {
      types.put(column.name(), column.type());
    }
    return types;
  }

  /** The table of a rich YPath and whether it carries {@code append=%true}. */
  private record RichPath(YPath path, boolean append) {}

  /**
   * The path parameter as a string ({@code <append=%true>//t}) or, as a JSON header carries a rich
   * YPath, an object {@code {"$value": "//t", "$attributes": {"append": true}}}.
   */
  private RichPath richPath(CommandRequest request) {
    JsonNode node = request.required("path");
    if (node.isObject()) {
      JsonNode value = node.path("$value");
      if (!value.isTextual()) {
        throw CommandError.badRequest("Parameter /path must be a string or a rich YPath");
      }
      JsonNode append = node.path("$attributes").path("append");
      boolean appended =
          append.asBoolean(false) || append.isTextual() && append.asText().equals("true");
      return new RichPath(table(value.asText()), appended);
    }
    String text = request.string("path");
    Object append = CommandRequest.pathAttributes(text).get("append");
    boolean appended =
        Boolean.TRUE.equals(append)
            || append instanceof byte[] b && new String(b, StandardCharsets.UTF_8).equals("true");
    return new RichPath(table(text), appended);
  }

  /**
   * The table a path names: a Cypress path, or {@code #<id>} as the official client reads a table
   * it locked (the lock's {@code node_id}, {@code yt/python/yt/wrapper/table_commands.py}).
   */
  private YPath table(String text) {
    String value = text.strip();
    if (value.startsWith("<")) {
      int end = value.indexOf('>');
      value = end < 0 ? value : value.substring(end + 1).strip();
    }
    if (value.startsWith("#")) {
      String id = value.substring(1);
      return state
          .pathOfNodeId(id)
          .orElseThrow(
              () -> CommandError.of(500, "Error resolving path #" + id + ": no such object"));
    }
    return CommandRequest.parsePath(value);
  }

  /** {@code transaction_id}, unless absent, empty or the null id the client sends for none. */
  private static Optional<String> transactionId(CommandRequest request) {
    return request
        .optional("transaction_id")
        .map(JsonNode::asText)
        .filter(id -> !id.isEmpty() && !MasterTransactions.isNull(id));
  }
}
