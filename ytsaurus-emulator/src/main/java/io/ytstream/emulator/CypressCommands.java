package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.MasterTransactions;
import io.ytstream.ports.NodeStatus;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableNodeSchema;
import io.ytstream.types.schema.ColumnSchema;
import io.ytstream.types.schema.SortOrder;
import io.ytstream.types.schema.TableSchema;
import io.ytstream.types.schema.TableSchemaJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Cypress and file commands ({@code yt/yt/client/driver/cypress_commands.cpp}, {@code
 * file_commands.cpp}), over the in-memory cluster's checkpoint store and admin API: {@code create}
 * (map_node, file, dynamic table, queue_consumer, queue_producer), {@code get} with attributes,
 * {@code list}, {@code exists}, {@code remove}, {@code move}, {@code write_file}, {@code
 * read_file}, and the mount commands.
 */
final class CypressCommands {

  private static final DateTimeFormatter MODIFICATION_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  private final EmulatorState state;

  CypressCommands(EmulatorState state) {
    this.state = state;
  }

  private InMemoryCluster cluster() {
    return state.cluster();
  }

  private static JsonNodeFactory nodes() {
    return JsonNodeFactory.instance;
  }

  private static ObjectNode value(JsonNode value) {
    ObjectNode out = nodes().objectNode();
    out.set("value", value);
    return out;
  }

  // ---- node kinds, as a request sees them ----

  /**
   * The master transaction a request runs in, if any: its {@code transaction_id}, unless the null
   * id {@code 0-0-0-0} the official client sends outside transactions.
   */
  private Optional<MasterTransactions.Transaction> transaction(CommandRequest request) {
    return request
        .optional("transaction_id")
        .map(JsonNode::asText)
        .filter(id -> !id.isEmpty() && !MasterTransactions.isNull(id))
        .map(id -> state.masterTransactions().get(id));
  }

  /** The node's type as committed, ignoring every transaction. */
  private Optional<String> committedTypeOf(YPath path) {
    return cluster().nodeType(path);
  }

  /** The node's type as {@code transaction} sees it: its staged changes, then committed state. */
  private Optional<String> typeOf(
      YPath path, Optional<MasterTransactions.Transaction> transaction) {
    if (transaction.isPresent()) {
      for (MasterTransactions.Transaction t : transaction.get().chain()) {
        for (Map.Entry<YPath, MasterTransactions.StagedNode> staged : t.nodes().entrySet()) {
          if (staged.getValue().removed()
              && MasterTransactions.isAtOrUnder(path, staged.getKey())) {
            return Optional.empty();
          }
        }
        MasterTransactions.StagedNode node = t.nodes().get(path);
        if (node != null) {
          return Optional.of(node.type());
        }
      }
    }
    return committedTypeOf(path);
  }

  /** A map node's children as {@code transaction} sees them, sorted. */
  private List<String> children(YPath path, Optional<MasterTransactions.Transaction> transaction) {
    TreeSet<String> names = new TreeSet<>();
    if (committedTypeOf(path).filter("map_node"::equals).isPresent()) {
      names.addAll(cluster().checkpoints().list(path));
    }
    if (transaction.isPresent()) {
      for (MasterTransactions.Transaction t : transaction.get().chain()) {
        t.nodes().keySet().stream()
            .filter(p -> parentOf(p).equals(path))
            .forEach(p -> names.add(p.value().substring(p.value().lastIndexOf('/') + 1)));
      }
    }
    names.removeIf(name -> typeOf(path.child(name), transaction).isEmpty());
    return List.copyOf(names);
  }

  /** A file's content as {@code transaction} sees it. */
  private byte[] fileContent(YPath path, Optional<MasterTransactions.Transaction> transaction) {
    if (transaction.isPresent()) {
      for (MasterTransactions.Transaction t : transaction.get().chain()) {
        MasterTransactions.StagedNode node = t.nodes().get(path);
        if (node != null && node.content() != null) {
          return node.content();
        }
      }
    }
    return committedTypeOf(path).isPresent() ? cluster().checkpoints().readFile(path) : new byte[0];
  }

  /** Attributes set with {@code set}, as {@code transaction} sees them. */
  private Map<String, JsonNode> userAttributes(
      YPath path, Optional<MasterTransactions.Transaction> transaction) {
    Map<String, JsonNode> values = new TreeMap<>();
    cluster()
        .userAttributes(path, transaction.map(MasterTransactions.Transaction::id))
        .forEach((name, value) -> values.put(name, AttributeValues.toJson(value)));
    return values;
  }

  /**
   * A path parameter: a Cypress path, or an object id {@code #<id>} ({@code yt/yt/core/ypath/
   * tokenizer.cpp}), optionally followed by {@code /child} or {@code /@attribute}. Returns the
   * node's path and the rest ({@code ""}, or from {@code /@}).
   */
  private Resolved resolve(String text) {
    String value = text.strip();
    if (value.startsWith("<")) {
      int end = value.indexOf('>');
      value = end < 0 ? value : value.substring(end + 1).strip();
    }
    if (value.startsWith("#")) {
      int slash = value.indexOf('/');
      String id = slash < 0 ? value.substring(1) : value.substring(1, slash);
      YPath node =
          state
              .pathOfNodeId(id)
              .orElseThrow(
                  () -> CommandError.of(500, "Error resolving path #" + id + ": no such object"));
      value = node.value() + (slash < 0 ? "" : value.substring(slash));
    }
    int at = value.indexOf("/@");
    if (at < 0) {
      return new Resolved(CommandRequest.parsePath(value), null);
    }
    return new Resolved(CommandRequest.parsePath(value.substring(0, at)), value.substring(at + 2));
  }

  /** A resolved path: the node, and the attribute path after {@code /@} (null for the node). */
  private record Resolved(YPath node, String attribute) {}

  private static CommandError resolveError(YPath path) {
    return CommandError.of(500, "Error resolving path " + path + ": node does not exist");
  }

  private static YPath parentOf(YPath path) {
    String value = path.value();
    int slash = value.lastIndexOf('/');
    return slash <= 1 ? YPath.of("//") : YPath.of(value.substring(0, slash));
  }

  // ---- create ----

  /**
   * {@code create} ({@code yt/yt/client/driver/cypress_commands.cpp}, {@code TCreateCommand}): a
   * Cypress node at {@code path} answers {@code node_id}; an object without a path (of the types
   * the emulator knows: {@code tablet_cell}) answers {@code object_id}. {@code ignore_existing}
   * with {@code force} is refused as the master refuses it ({@code
   * yt/yt/server/master/cypress_server/node_proxy_detail.cpp}). Under a master transaction, map
   * nodes and files are staged in it.
   */
  Object create(CommandRequest request) {
    String type = request.string("type");
    if (type.equals("tablet_cell")) {
      ObjectNode out = nodes().objectNode();
      out.put("object_id", state.createTabletCell());
      return out;
    }
    YPath path = request.path("path");
    boolean recursive = request.flag("recursive", false);
    boolean ignoreExisting = request.flag("ignore_existing", false);
    boolean force = request.flag("force", false);
    if (ignoreExisting && force) {
      throw CommandError.of(
          1, "Cannot specify both \"ignore_existing\" and \"force\" options simultaneously");
    }
    JsonNode attributes = request.optional("attributes").orElse(nodes().objectNode());
    Optional<MasterTransactions.Transaction> transaction = transaction(request);
    Optional<String> existing = typeOf(path, transaction);
    String wantedKind =
        type.equals("queue_consumer") || type.equals("queue_producer") ? "table" : type;
    if (existing.isPresent() && !force) {
      if (ignoreExisting && existing.get().equals(wantedKind)) {
        return nodeIdAnswer(path, existing.get());
      }
      throw CommandError.of(501, "Node " + path + " already exists");
    }
    YPath parent = parentOf(path);
    if (!recursive && typeOf(parent, transaction).isEmpty()) {
      throw resolveError(parent);
    }
    if (transaction.isPresent()) {
      return stageCreate(transaction.get(), path, type, recursive, existing.isPresent());
    }
    AclAttributes acl = AclAttributes.of(path, attributes);
    if (existing.isPresent()) {
      cluster().checkpoints().delete(path, true);
      state.forgetNodes(path);
    }
    switch (type) {
      case "map_node" -> cluster().createMapNode(path);
      case "file" -> {
        if (recursive) {
          cluster().createMapNode(parent);
        }
        cluster().checkpoints().writeFile(path, new byte[0], false);
      }
      case "queue_consumer" -> {
        // The client creates the table and mounts it, so it is ready at once.
        cluster().createConsumer(path);
      }
      case "queue_producer" -> {
        // queue_producer_init.cpp: a dynamic table with the session schema, mounted at once.
        cluster().createQueueProducer(path);
      }
      case "table" -> createTable(path, attributes);
      default ->
          throw CommandError.badRequest(
              "the emulator cannot create nodes of type "
                  + type
                  + " (map_node, file, table, queue_consumer, queue_producer; objects:"
                  + " tablet_cell)");
    }
    acl.applyTo(cluster(), path);
    return nodeIdAnswer(path, wantedKind);
  }

  private ObjectNode nodeIdAnswer(YPath path, String type) {
    ObjectNode out = nodes().objectNode();
    out.put("node_id", state.nodeId(path, type));
    return out;
  }

  /** A map node or file created under a master transaction: staged, created at commit. */
  private ObjectNode stageCreate(
      MasterTransactions.Transaction transaction,
      YPath path,
      String type,
      boolean recursive,
      boolean replace) {
    if (!type.equals("map_node") && !type.equals("file")) {
      throw CommandError.badRequest(
          "the emulator creates nodes of type "
              + type
              + " outside master transactions only; create it without transaction_id");
    }
    Optional<MasterTransactions.Transaction> view = Optional.of(transaction);
    List<YPath> missing = new ArrayList<>();
    for (YPath p = parentOf(path);
        recursive && !p.value().equals("//") && typeOf(p, view).isEmpty();
        p = parentOf(p)) {
      missing.add(0, p);
    }
    for (YPath p : missing) {
      transaction.nodes().put(p, new MasterTransactions.StagedNode("map_node", null));
    }
    if (replace) {
      transaction.nodes().put(path, new MasterTransactions.StagedNode(null, null));
    }
    transaction
        .nodes()
        .put(
            path,
            new MasterTransactions.StagedNode(type, type.equals("file") ? new byte[0] : null));
    transaction
        .changes()
        .add(
            () -> {
              if (replace) {
                cluster().checkpoints().delete(path, true);
              }
              if (type.equals("map_node")) {
                cluster().createMapNode(path);
              } else {
                cluster().createMapNode(parentOf(path));
                cluster().checkpoints().writeFile(path, new byte[0], true);
              }
            });
    return nodeIdAnswer(path, type);
  }

  private void createTable(YPath path, JsonNode attributes) {
    if (!attributes.path("dynamic").asBoolean(false)) {
      createStaticTable(path, attributes);
      return;
    }
    if (attributes.path("treat_as_queue_producer").asBoolean(false)) {
      // The session schema is the server's own (queue_producer_session.yaml); a schema given
      // with the flag is not read.
      cluster().createQueueProducer(path);
      state.markUnmounted(path);
      return;
    }
    if (attributes.path("treat_as_queue_consumer").asBoolean(false)) {
      cluster().createConsumer(path);
      state.markUnmounted(path);
      return;
    }
    JsonNode schemaNode = attributes.path("schema");
    if (schemaNode.isMissingNode()
        || schemaNode.path("$value").isMissingNode() && schemaNode.isEmpty()) {
      throw CommandError.badRequest("a dynamic table needs a non-empty attribute schema");
    }
    // The server's @schema: type_v3 and/or the old type/required (core's strict reading).
    TableSchema schema;
    try {
      schema = TableSchemaJson.parse(schemaNode.toString());
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest("Invalid table schema for " + path + ": " + e.getMessage());
    }
    List<TableDescription.Column> columns = new ArrayList<>();
    boolean sorted = false;
    for (ColumnSchema column : schema.columns()) {
      boolean key = column.sortOrder().isKey();
      sorted |= key;
      columns.add(TableDescription.Column.of(column.name(), column.type(), key));
    }
    try {
      if (sorted) {
        cluster().createSortedTable(path, columns);
      } else if (attributes.has("trimmed_row_counts")) {
        List<Long> trimmed = new ArrayList<>();
        attributes.get("trimmed_row_counts").forEach(n -> trimmed.add(n.asLong()));
        cluster().createOrderedTable(path, columns, trimmed);
      } else {
        cluster().createOrderedTable(path, columns, attributes.path("tablet_count").asInt(1));
      }
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest("Invalid table schema for " + path + ": " + e.getMessage());
    }
    state.markUnmounted(path);
  }

  /**
   * A static table ({@code dynamic} absent or false): the master creates it empty with the given
   * {@code schema} ({@code yt/yt/server/master/table_server/table_node_type_handler.cpp}); {@code
   * write_table} then appends to it or replaces its content. The emulator keeps static tables
   * strict: it needs a schema to read and type the written rows.
   */
  private void createStaticTable(YPath path, JsonNode attributes) {
    JsonNode schemaNode = attributes.path("schema");
    if (schemaNode.isMissingNode()
        || schemaNode.path("$value").isMissingNode() && schemaNode.isEmpty()) {
      throw CommandError.badRequest(
          "the emulator creates static tables with a schema only: pass attributes"
              + " {\"schema\":[{\"name\":...,\"type\":...}]} to create "
              + path);
    }
    TableSchema schema;
    try {
      schema = TableSchemaJson.parse(schemaNode.toString());
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest("Invalid table schema for " + path + ": " + e.getMessage());
    }
    List<TableDescription.Column> columns = new ArrayList<>();
    for (ColumnSchema column : schema.columns()) {
      if (column.sortOrder().isKey()) {
        throw CommandError.badRequest(
            "the emulator creates unsorted static tables only; column "
                + column.name()
                + " of "
                + path
                + " has a sort_order");
      }
      columns.add(TableDescription.Column.of(column.name(), column.type(), false));
    }
    try {
      cluster().createStaticTable(path, columns);
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest("Invalid table schema for " + path + ": " + e.getMessage());
    }
  }

  // ---- reading nodes ----

  /**
   * {@code get} ({@code cypress_commands.cpp}, {@code TGetCommand}): answers {@code {"value":
   * ...}}, or the bare value with {@code return_only_value=%true} (as the official client asks). An
   * attribute path walks maps by key and lists by index ({@code @tablets/0/state}); the node itself
   * with an {@code attributes} filter comes with those attributes.
   */
  Object get(CommandRequest request) {
    String text = request.string("path");
    boolean onlyValue = request.flag("return_only_value", false);
    Resolved resolved = resolve(text);
    YPath path = resolved.node();
    Optional<MasterTransactions.Transaction> transaction = transaction(request);
    JsonNode found;
    if (resolved.attribute() == null) {
      found = nodeValue(path, transaction);
      Optional<JsonNode> wanted = request.optional("attributes");
      if (wanted.isPresent() && wanted.get().isArray() && !wanted.get().isEmpty()) {
        ObjectNode withAttributes = nodes().objectNode();
        withAttributes.set("$attributes", filtered(attributesOf(path, transaction), wanted));
        withAttributes.set("$value", found);
        found = withAttributes;
      }
    } else if (path.value().equals("//sys") && resolved.attribute().equals("cluster_name")) {
      found = nodes().textNode(state.clusterName());
    } else {
      ObjectNode attributes = attributesOf(path, transaction);
      String attribute = resolved.attribute();
      found =
          attribute.isEmpty()
              ? filtered(attributes, request.optional("attributes"))
              : walk(attributes, attribute);
      if (found.isMissingNode()) {
        throw CommandError.of(
            500, "Error resolving path " + text + ": attribute \"" + attribute + "\" is not found");
      }
    }
    return onlyValue ? found : value(found);
  }

  /** An attribute path inside the attributes: map keys and list indexes. */
  private static JsonNode walk(JsonNode attributes, String attribute) {
    JsonNode found = attributes;
    for (String segment : attribute.split("/")) {
      if (found.isArray() && segment.matches("-?[0-9]+")) {
        int index = Integer.parseInt(segment);
        found = found.path(index < 0 ? found.size() + index : index);
      } else {
        found = found.path(segment);
      }
    }
    return found;
  }

  /** {@code get <node>/@} with {@code attributes=[..]} answers only the attributes named. */
  private static ObjectNode filtered(ObjectNode attributes, Optional<JsonNode> wanted) {
    if (wanted.isEmpty() || !wanted.get().isArray()) {
      return attributes;
    }
    ObjectNode out = nodes().objectNode();
    for (JsonNode name : wanted.get()) {
      JsonNode value = attributes.get(name.asText());
      if (value != null) {
        out.set(name.asText(), value);
      }
    }
    return out;
  }

  private JsonNode nodeValue(YPath path, Optional<MasterTransactions.Transaction> transaction) {
    String type = typeOf(path, transaction).orElseThrow(() -> resolveError(path));
    if (!type.equals("map_node")) {
      return nodes().nullNode();
    }
    ObjectNode children = nodes().objectNode();
    boolean transactions = path.value().equals(EmulatorState.SYS_TRANSACTIONS);
    for (String child : childNames(path, transaction)) {
      // A running transaction is an object, not a node: its value is an entity.
      children.set(
          child, transactions ? nodes().nullNode() : nodeValue(path.child(child), transaction));
    }
    return children;
  }

  /** Children, with the transactions under {@code //sys/transactions}. */
  private List<String> childNames(
      YPath path, Optional<MasterTransactions.Transaction> transaction) {
    if (path.value().equals(EmulatorState.SYS_TRANSACTIONS)) {
      return state.masterTransactions().ids();
    }
    return children(path, transaction);
  }

  private ObjectNode attributesOf(
      YPath path, Optional<MasterTransactions.Transaction> transaction) {
    String type = typeOf(path, transaction).orElseThrow(() -> resolveError(path));
    ObjectNode attributes = nodes().objectNode();
    Optional<String> tabletCell = state.tabletCellOf(path);
    attributes.put("type", tabletCell.isPresent() ? "tablet_cell" : type);
    attributes.put("id", tabletCell.orElseGet(() -> state.nodeId(path, type)));
    attributes.put("path", path.value());
    // yt/yt/server/master/tablet_server/tablet_cell.cpp, TTabletCell::GetHealth: a cell whose
    // peers are up is "good"; the emulator's cells are up as soon as they are created.
    tabletCell.ifPresent(id -> attributes.put("health", "good"));
    Optional<NodeStatus> status =
        committedTypeOf(path).isPresent() ? cluster().checkpoints().status(path) : Optional.empty();
    status.ifPresent(
        s ->
            attributes.put(
                "modification_time",
                MODIFICATION_TIME.format(Instant.ofEpochMilli(s.modificationTimeMillis()))));
    switch (type) {
      case "file" -> {
        long length = fileContent(path, transaction).length;
        attributes.put("compressed_data_size", length);
        attributes.put("uncompressed_data_size", length);
        attributes.put("chunk_count", length == 0 ? 0 : 1);
      }
      case "map_node" -> attributes.put("count", childNames(path, transaction).size());
      default -> tableAttributes(path, attributes);
    }
    if (committedTypeOf(path).isPresent()) {
      attributes.set("acl", AclAttributes.toJson(cluster().acl(path)));
      attributes.put("inherit_acl", cluster().inheritAcl(path));
    } else {
      attributes.putArray("acl");
      attributes.put("inherit_acl", true);
    }
    userAttributes(path, transaction).forEach(attributes::set);
    return attributes;
  }

  private void tableAttributes(YPath path, ObjectNode attributes) {
    if (cluster().isStaticTable(path)) {
      staticTableAttributes(path, attributes);
      return;
    }
    TableDescription table = cluster().tableMetadata().describe(path);
    attributes.put("dynamic", true);
    attributes.put("sorted", table.sorted());
    attributes.put("tablet_count", table.tabletCount());
    attributes.put("tablet_state", state.isMounted(path) ? "mounted" : "unmounted");
    boolean consumer =
        table.keyColumns().stream()
            .map(TableDescription.Column::name)
            .toList()
            .equals(List.of("queue_cluster", "queue_path", "partition_index"));
    attributes.put("treat_as_queue_consumer", consumer);
    attributes.put("treat_as_queue_producer", cluster().isQueueProducer(path));
    List<ColumnSchema> schemaColumns = new ArrayList<>();
    for (TableDescription.Column column : table.columns()) {
      schemaColumns.add(
          new ColumnSchema(
              column.name(), column.typeV3(), column.key() ? SortOrder.ASCENDING : SortOrder.NONE));
    }
    try {
      attributes.set(
          "schema",
          WireFormat.JSON.readTree(
              TableSchemaJson.write(new TableSchema(schemaColumns, true, table.sorted()))));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("core wrote a schema that is not JSON", e);
    }
    ArrayNode tablets = attributes.putArray("tablets");
    if (table.sorted()) {
      // The emulator keeps a sorted table in one tablet.
      ObjectNode t = tablets.addObject();
      t.put("index", 0);
      t.put("state", state.isMounted(path) ? "mounted" : "unmounted");
    } else {
      cluster()
          .partitions(path)
          .forEach(
              b -> {
                ObjectNode t = tablets.addObject();
                t.put("index", b.index());
                t.put("state", state.isMounted(path) ? "mounted" : "unmounted");
                t.put("trimmed_row_count", b.trimmedRowCount());
                t.put("flushed_row_count", b.totalRowCount());
              });
    }
  }

  /**
   * A static table's attributes ({@code
   * yt/yt/server/master/table_server/table_node_proxy_detail.cpp}): {@code dynamic=false}, its
   * schema, {@code row_count} as committed.
   */
  private void staticTableAttributes(YPath path, ObjectNode attributes) {
    TableNodeSchema described = cluster().staticTableAppends().describe(path);
    attributes.put("dynamic", false);
    attributes.put("sorted", false);
    attributes.put("row_count", cluster().staticRowCount(path));
    attributes.put("chunk_count", cluster().staticRowCount(path) == 0 ? 0 : 1);
    attributes.put("schema_mode", "strong");
    try {
      attributes.set("schema", WireFormat.JSON.readTree(TableSchemaJson.write(described.schema())));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("core wrote a schema that is not JSON", e);
    }
  }

  Object exists(CommandRequest request) {
    String text = request.string("path");
    Resolved resolved;
    try {
      resolved = resolve(text);
    } catch (CommandError e) {
      return value(nodes().booleanNode(false));
    }
    YPath path = resolved.node();
    Optional<MasterTransactions.Transaction> transaction = transaction(request);
    if (resolved.attribute() != null) {
      if (path.value().equals("//sys") && resolved.attribute().equals("cluster_name")) {
        return value(nodes().booleanNode(true));
      }
      if (typeOf(path, transaction).isEmpty()) {
        return value(nodes().booleanNode(false));
      }
      return value(
          nodes()
              .booleanNode(
                  !walk(attributesOf(path, transaction), resolved.attribute()).isMissingNode()));
    }
    return value(nodes().booleanNode(typeOf(path, transaction).isPresent()));
  }

  /** {@code list} ({@code TListCommand}): names, sorted; bare with {@code return_only_value}. */
  Object list(CommandRequest request) {
    YPath path = resolve(request.string("path")).node();
    Optional<MasterTransactions.Transaction> transaction = transaction(request);
    String type = typeOf(path, transaction).orElseThrow(() -> resolveError(path));
    if (!type.equals("map_node")) {
      throw CommandError.of(1, "Cannot list node " + path + " of type " + type);
    }
    ArrayNode names = nodes().arrayNode();
    childNames(path, transaction).forEach(names::add);
    return request.flag("return_only_value", false) ? names : value(names);
  }

  // ---- changing nodes ----

  /**
   * {@code remove}: {@code recursive} defaults to true ({@code yt/yt/client/api/cypress_client.h},
   * {@code TRemoveNodeOptions}); without it a non-empty map node is refused. Staged under a master
   * transaction.
   */
  Object remove(CommandRequest request) {
    YPath path = resolve(request.string("path")).node();
    boolean recursive = request.flag("recursive", true);
    boolean force = request.flag("force", false);
    Optional<MasterTransactions.Transaction> transaction = transaction(request);
    Optional<String> type = typeOf(path, transaction);
    if (type.isEmpty()) {
      if (force) {
        return nodes().objectNode();
      }
      throw resolveError(path);
    }
    if (!recursive && type.get().equals("map_node") && !children(path, transaction).isEmpty()) {
      throw CommandError.of(1, "Cannot remove non-empty composite node " + path);
    }
    if (transaction.isPresent()) {
      if (type.get().equals("table")) {
        throw CommandError.badRequest(
            "the emulator removes tables outside master transactions only; remove "
                + path
                + " without transaction_id");
      }
      MasterTransactions.Transaction t = transaction.get();
      t.nodes().keySet().removeIf(p -> MasterTransactions.isAtOrUnder(p, path));
      t.nodes().put(path, new MasterTransactions.StagedNode(null, null));
      t.changes()
          .add(
              () -> {
                cluster().checkpoints().delete(path, true);
                state.forgetNodes(path);
              });
      return nodes().objectNode();
    }
    cluster().checkpoints().delete(path, true);
    state.forgetNodes(path);
    state.markMounted(path);
    return nodes().objectNode();
  }

  /**
   * {@code set} of an attribute ({@code path/@name}; {@code TSetCommand}): the value is the
   * request's structured input. The emulator keeps such attributes for any node; it sets no node
   * values (a map node's content is its children).
   */
  Object set(CommandRequest request) {
    Resolved resolved = resolve(request.string("path"));
    if (resolved.attribute() == null || resolved.attribute().isEmpty()) {
      throw CommandError.badRequest(
          "the emulator sets attributes only (path/@name), got " + request.string("path"));
    }
    if (resolved.attribute().contains("/")) {
      throw CommandError.badRequest(
          "the emulator sets whole attributes only (path/@name), got " + request.string("path"));
    }
    YPath path = resolved.node();
    Optional<MasterTransactions.Transaction> transaction = transaction(request);
    if (typeOf(path, transaction).isEmpty()) {
      throw resolveError(path);
    }
    JsonNode value = request.structuredInput();
    String name = resolved.attribute();
    if (attributesOf(path, transaction).has(name)
        && !userAttributes(path, transaction).containsKey(name)) {
      // The master refuses to set a read-only system attribute; the emulator computes all of its
      // system attributes (ACLs included) from the cluster, so a set of one would only hide them.
      throw CommandError.badRequest(
          "the emulator does not set system attribute @"
              + name
              + " of "
              + path
              + (name.equals("acl") || name.equals("inherit_acl")
                  ? "; give it in the attributes of create"
                  : "; it follows the node's state"));
    }
    cluster()
        .setUserAttribute(
            path,
            name,
            AttributeValues.toJava(value),
            transaction.map(MasterTransactions.Transaction::id));
    return nodes().objectNode();
  }

  /**
   * {@code lock} ({@code TLockCommand}, API v4): {@code {lock_id, node_id, revision}}, under a
   * master transaction only. The emulator grants every lock: it models no contention.
   */
  Object lock(CommandRequest request) {
    YPath path = resolve(request.string("path")).node();
    MasterTransactions.Transaction transaction =
        transaction(request)
            .orElseThrow(() -> CommandError.of(1, "Cannot take a lock outside of a transaction"));
    String type = typeOf(path, Optional.of(transaction)).orElseThrow(() -> resolveError(path));
    ObjectNode out = nodes().objectNode();
    out.put("lock_id", state.newObjectId(EmulatorState.LOCK_TYPE));
    out.put("node_id", state.nodeId(path, type));
    out.put("revision", state.nextRevision());
    return out;
  }

  Object move(CommandRequest request) {
    YPath source = request.path("source_path");
    YPath target = request.path("destination_path");
    if (transaction(request).isPresent()) {
      throw CommandError.badRequest(
          "the emulator moves nodes outside master transactions only; move without"
              + " transaction_id");
    }
    if (request.flag("force", false) && committedTypeOf(target).isPresent()) {
      cluster().checkpoints().delete(target, true);
    }
    if (request.flag("recursive", false)) {
      cluster().createMapNode(parentOf(target));
    }
    cluster().checkpoints().rename(source, target);
    state.forgetNodes(source);
    if (!state.isMounted(source)) {
      state.markMounted(source);
      state.markUnmounted(target);
    }
    return nodeIdAnswer(target, committedTypeOf(target).orElse("map_node"));
  }

  /**
   * {@code write_file} ({@code file_commands.cpp}): the body replaces the file's content, or is
   * appended with {@code <append=%true>}; staged under a master transaction, as the official client
   * always writes.
   */
  Object writeFile(CommandRequest request) {
    String text = request.string("path");
    YPath path = resolve(text).node();
    Optional<MasterTransactions.Transaction> transaction = transaction(request);
    String type = typeOf(path, transaction).orElseThrow(() -> resolveError(path));
    if (!type.equals("file")) {
      throw CommandError.of(1, "Node " + path + " is a " + type + ", not a file");
    }
    byte[] content = request.body();
    Object append = CommandRequest.pathAttributes(text).get("append");
    if (Boolean.TRUE.equals(append)
        || append instanceof byte[] b && new String(b, StandardCharsets.UTF_8).equals("true")) {
      byte[] old = fileContent(path, transaction);
      byte[] joined = Arrays.copyOf(old, old.length + content.length);
      System.arraycopy(content, 0, joined, old.length, content.length);
      content = joined;
    }
    if (transaction.isPresent()) {
      byte[] staged = content;
      transaction.get().nodes().put(path, new MasterTransactions.StagedNode("file", staged));
      transaction
          .get()
          .changes()
          .add(
              () -> {
                cluster().createMapNode(parentOf(path));
                cluster().checkpoints().writeFile(path, staged, true);
              });
    } else {
      cluster().checkpoints().writeFile(path, content, true);
    }
    return nodes().objectNode();
  }

  Object readFile(CommandRequest request) {
    YPath path = resolve(request.string("path")).node();
    Optional<MasterTransactions.Transaction> transaction = transaction(request);
    String type = typeOf(path, transaction).orElseThrow(() -> resolveError(path));
    if (!type.equals("file")) {
      throw CommandError.of(1, "Node " + path + " is a " + type + ", not a file");
    }
    byte[] content = fileContent(path, transaction);
    long offset = Math.min(request.optionalLong("offset").orElse(0L), content.length);
    long length = request.optionalLong("length").orElse((long) content.length);
    long end = Math.min(content.length, offset + Math.max(0, length));
    return Arrays.copyOfRange(content, (int) offset, (int) end);
  }

  // ---- mounting ----

  Object mountTable(CommandRequest request) {
    YPath path = request.path("path");
    cluster().tableMetadata().describe(path);
    state.markMounted(path);
    return nodes().objectNode();
  }

  Object unmountTable(CommandRequest request) {
    YPath path = request.path("path");
    cluster().tableMetadata().describe(path);
    state.markUnmounted(path);
    return nodes().objectNode();
  }

  Object remountTable(CommandRequest request) {
    cluster().tableMetadata().describe(request.path("path"));
    return nodes().objectNode();
  }

  Object reshardTable(CommandRequest request) {
    YPath path = request.path("path");
    TableDescription table = cluster().tableMetadata().describe(path);
    if (state.isMounted(path)) {
      throw CommandError.of(
          1706, "Cannot reshard table " + path + " since not all of its tablets are unmounted");
    }
    if (table.sorted()) {
      throw CommandError.badRequest("the emulator reshards ordered tables only");
    }
    try {
      cluster().reshard(path, Math.toIntExact(request.longValue("tablet_count")));
    } catch (IllegalArgumentException e) {
      throw CommandError.badRequest(e.getMessage());
    }
    return nodes().objectNode();
  }
}
