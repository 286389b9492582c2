package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.NodeStatus;
import io.ytstream.ports.TableDescription;
import io.ytstream.types.schema.ColumnSchema;
import io.ytstream.types.schema.SortOrder;
import io.ytstream.types.schema.TableSchema;
import io.ytstream.types.schema.TableSchemaJson;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

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

  // ---- node kinds ----

  private Optional<String> typeOf(YPath path) {
    if (!cluster().exists(path)) {
      return Optional.empty();
    }
    try {
      cluster().tableMetadata().describe(path);
      return Optional.of("table");
    } catch (YtException e) {
      // not a table
    }
    Optional<NodeStatus> status = cluster().checkpoints().status(path);
    return status.map(s -> s.directory() ? "map_node" : "file");
  }

  private static CommandError resolveError(YPath path) {
    return CommandError.of(500, "Error resolving path " + path + ": node does not exist");
  }

  private static YPath parentOf(YPath path) {
    String value = path.value();
    int slash = value.lastIndexOf('/');
    return slash <= 1 ? YPath.of("//") : YPath.of(value.substring(0, slash));
  }

  // ---- create ----

  Object create(CommandRequest request) {
    YPath path = request.path("path");
    String type = request.string("type");
    boolean recursive = request.flag("recursive", false);
    boolean ignoreExisting = request.flag("ignore_existing", false);
    boolean force = request.flag("force", false);
    JsonNode attributes = request.optional("attributes").orElse(nodes().objectNode());
    AclAttributes acl = AclAttributes.of(path, attributes);
    Optional<String> existing = typeOf(path);
    String wantedKind =
        type.equals("queue_consumer") || type.equals("queue_producer") ? "table" : type;
    if (existing.isPresent()) {
      if (ignoreExisting && existing.get().equals(wantedKind)) {
        ObjectNode out = nodes().objectNode();
        out.put("node_id", state.newNodeId());
        return out;
      }
      if (!force) {
        throw CommandError.of(501, "Node " + path + " already exists");
      }
      cluster().checkpoints().delete(path, true);
    }
    YPath parent = parentOf(path);
    if (!recursive && !cluster().exists(parent)) {
      throw resolveError(parent);
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
                  + " (map_node, file, table, queue_consumer, queue_producer)");
    }
    acl.applyTo(cluster(), path);
    ObjectNode out = nodes().objectNode();
    out.put("node_id", state.newNodeId());
    return out;
  }

  private void createTable(YPath path, JsonNode attributes) {
    if (!attributes.path("dynamic").asBoolean(false)) {
      throw CommandError.badRequest(
          "the emulator creates dynamic tables only: pass attributes {\"dynamic\":true,...}");
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

  // ---- reading nodes ----

  Object get(CommandRequest request) {
    String text = request.string("path");
    int at = text.indexOf("/@");
    if (at < 0) {
      YPath path = CommandRequest.parsePath(text);
      return value(nodeValue(path));
    }
    YPath path = CommandRequest.parsePath(text.substring(0, at));
    String attribute = text.substring(at + 2);
    if (path.value().equals("//sys") && attribute.equals("cluster_name")) {
      return value(nodes().textNode(state.clusterName()));
    }
    ObjectNode attributes = attributesOf(path);
    if (attribute.isEmpty()) {
      return value(filtered(attributes, request.optional("attributes")));
    }
    JsonNode found = attributes;
    for (String segment : attribute.split("/")) {
      found = found.path(segment);
    }
    if (found.isMissingNode()) {
      throw CommandError.of(
          500, "Error resolving path " + text + ": attribute \"" + attribute + "\" is not found");
    }
    return value(found);
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

  private JsonNode nodeValue(YPath path) {
    String type = typeOf(path).orElseThrow(() -> resolveError(path));
    if (!type.equals("map_node")) {
      return nodes().nullNode();
    }
    ObjectNode children = nodes().objectNode();
    for (String child : cluster().checkpoints().list(path)) {
      children.set(child, nodeValue(path.child(child)));
    }
    return children;
  }

  private ObjectNode attributesOf(YPath path) {
    String type = typeOf(path).orElseThrow(() -> resolveError(path));
    ObjectNode attributes = nodes().objectNode();
    attributes.put("type", type);
    attributes.put("path", path.value());
    Optional<NodeStatus> status = cluster().checkpoints().status(path);
    status.ifPresent(
        s ->
            attributes.put(
                "modification_time",
                MODIFICATION_TIME.format(Instant.ofEpochMilli(s.modificationTimeMillis()))));
    switch (type) {
      case "file" -> {
        long length = status.map(NodeStatus::length).orElse(0L);
        attributes.put("compressed_data_size", length);
        attributes.put("uncompressed_data_size", length);
      }
      case "map_node" -> attributes.put("count", cluster().checkpoints().list(path).size());
      default -> tableAttributes(path, attributes);
    }
    attributes.set("acl", AclAttributes.toJson(cluster().acl(path)));
    attributes.put("inherit_acl", cluster().inheritAcl(path));
    return attributes;
  }

  private void tableAttributes(YPath path, ObjectNode attributes) {
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
    if (!table.sorted() && state.isMounted(path)) {
      ArrayNode tablets = attributes.putArray("tablets");
      cluster()
          .partitions(path)
          .forEach(
              b -> {
                ObjectNode t = tablets.addObject();
                t.put("index", b.index());
                t.put("state", "mounted");
                t.put("trimmed_row_count", b.trimmedRowCount());
                t.put("flushed_row_count", b.totalRowCount());
              });
    }
  }

  Object exists(CommandRequest request) {
    String text = request.string("path");
    int at = text.indexOf("/@");
    if (at >= 0) {
      YPath path = CommandRequest.parsePath(text.substring(0, at));
      if (path.value().equals("//sys") && text.substring(at + 2).equals("cluster_name")) {
        return value(nodes().booleanNode(true));
      }
      if (typeOf(path).isEmpty()) {
        return value(nodes().booleanNode(false));
      }
      return value(nodes().booleanNode(attributesOf(path).has(text.substring(at + 2))));
    }
    return value(nodes().booleanNode(typeOf(CommandRequest.parsePath(text)).isPresent()));
  }

  Object list(CommandRequest request) {
    YPath path = request.path("path");
    String type = typeOf(path).orElseThrow(() -> resolveError(path));
    if (!type.equals("map_node")) {
      throw CommandError.of(1, "Cannot list node " + path + " of type " + type);
    }
    ArrayNode names = nodes().arrayNode();
    cluster().checkpoints().list(path).stream().sorted().forEach(names::add);
    return value(names);
  }

  // ---- changing nodes ----

  Object remove(CommandRequest request) {
    YPath path = request.path("path");
    boolean removed = cluster().checkpoints().delete(path, request.flag("recursive", false));
    if (!removed && !request.flag("force", false)) {
      throw resolveError(path);
    }
    state.markMounted(path);
    return nodes().objectNode();
  }

  Object move(CommandRequest request) {
    YPath source = request.path("source_path");
    YPath target = request.path("destination_path");
    if (request.flag("force", false) && typeOf(target).isPresent()) {
      cluster().checkpoints().delete(target, true);
    }
    if (request.flag("recursive", false)) {
      cluster().createMapNode(parentOf(target));
    }
    cluster().checkpoints().rename(source, target);
    if (!state.isMounted(source)) {
      state.markMounted(source);
      state.markUnmounted(target);
    }
    ObjectNode out = nodes().objectNode();
    out.put("node_id", state.newNodeId());
    return out;
  }

  Object writeFile(CommandRequest request) {
    String text = request.string("path");
    YPath path = CommandRequest.parsePath(text);
    String type = typeOf(path).orElseThrow(() -> resolveError(path));
    if (!type.equals("file")) {
      throw CommandError.of(1, "Node " + path + " is a " + type + ", not a file");
    }
    byte[] content = request.body();
    if (text.replace(" ", "").contains("append=%true") || text.contains("append=true")) {
      byte[] old = cluster().checkpoints().readFile(path);
      byte[] joined = Arrays.copyOf(old, old.length + content.length);
      System.arraycopy(content, 0, joined, old.length, content.length);
      content = joined;
    }
    cluster().checkpoints().writeFile(path, content, true);
    return nodes().objectNode();
  }

  Object readFile(CommandRequest request) {
    YPath path = request.path("path");
    String type = typeOf(path).orElseThrow(() -> resolveError(path));
    if (!type.equals("file")) {
      throw CommandError.of(1, "Node " + path + " is a " + type + ", not a file");
    }
    byte[] content = cluster().checkpoints().readFile(path);
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
