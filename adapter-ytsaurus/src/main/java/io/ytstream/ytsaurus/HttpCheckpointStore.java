package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.CheckpointStore;
import io.ytstream.ports.NodeStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Checkpoint files in Cypress with the commands SPYT's {@code YtFileSystem} uses (ytsaurus-spyt):
 * {@code create}, {@code write_file}, {@code read_file}, {@code list}, {@code remove}, {@code move}
 * without {@code force}, {@code get <node>/@} with an attribute filter (for a node's status).
 */
final class HttpCheckpointStore implements CheckpointStore {

  private static final List<String> STATUS_ATTRIBUTES =
      List.of("type", "uncompressed_data_size", "modification_time");

  private final YtsaurusCluster cluster;

  HttpCheckpointStore(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  private YtHttpClient client() {
    return cluster.client();
  }

  @Override
  public void createDirectories(YPath directory) {
    ObjectNode params = client().params();
    params.put("path", directory.value());
    params.put("type", "map_node");
    params.put("recursive", true);
    params.put("ignore_existing", true);
    client().structured(client().primaryProxy(), Command.CREATE, params, Repeat.MUTATION_ID);
  }

  @Override
  public void writeFile(YPath file, byte[] content, boolean overwrite) {
    ObjectNode create = client().params();
    create.put("path", file.value());
    create.put("type", "file");
    create.put("recursive", false);
    if (overwrite) {
      create.put("force", true);
    }
    // Without force an existing file fails with 501: create-if-absent.
    client().structured(client().primaryProxy(), Command.CREATE, create, Repeat.MUTATION_ID);
    ObjectNode write = client().params();
    write.put("path", file.value());
    // The whole file is replaced, so sending it again after a lost answer changes nothing.
    client()
        .structured(
            cluster.heavyProxies().forHeavyCommand(),
            Command.WRITE_FILE,
            write,
            content,
            Repeat.IDEMPOTENT);
  }

  @Override
  public byte[] readFile(YPath file) {
    ObjectNode params = client().params();
    params.put("path", file.value());
    return client()
        .send(
            cluster.heavyProxies().forHeavyCommand(), Command.READ_FILE, params, null, Repeat.READ);
  }

  @Override
  public void rename(YPath source, YPath target) {
    ObjectNode params = client().params();
    params.put("source_path", source.value());
    params.put("destination_path", target.value());
    client().structured(client().primaryProxy(), Command.MOVE, params, Repeat.MUTATION_ID);
  }

  @Override
  public List<String> list(YPath directory) {
    ObjectNode params = client().params();
    params.put("path", directory.value());
    JsonNode value =
        client()
            .structured(client().primaryProxy(), Command.LIST, params, Repeat.READ)
            .path("value");
    List<String> names = new ArrayList<>();
    for (JsonNode item : value) {
      names.add(
          item.isObject() && item.has("$value") ? item.get("$value").asText() : item.asText());
    }
    names.sort(null);
    return names;
  }

  @Override
  public boolean delete(YPath node, boolean recursive) {
    ObjectNode params = client().params();
    params.put("path", node.value());
    params.put("recursive", recursive);
    try {
      client().structured(client().primaryProxy(), Command.REMOVE, params, Repeat.MUTATION_ID);
      return true;
    } catch (YtException e) {
      if (e.hasCode(YtErrorCode.RESOLVE_ERROR)) {
        return false;
      }
      throw e;
    }
  }

  /**
   * One {@code get <node>/@} with an attribute filter: a missing node answers 500, so no separate
   * {@code exists} is needed. Spark asks for a status several times per checkpoint log write, so
   * this is one round trip instead of four (exists, then three attributes).
   */
  @Override
  public Optional<NodeStatus> status(YPath node) {
    ObjectNode params = client().params();
    params.put("path", node.value() + "/@");
    ArrayNode wanted = params.putArray("attributes");
    STATUS_ATTRIBUTES.forEach(wanted::add);
    JsonNode attributes;
    try {
      attributes =
          client()
              .structured(client().primaryProxy(), Command.GET, params, Repeat.READ)
              .path("value");
    } catch (YtException e) {
      if (e.hasCode(YtErrorCode.RESOLVE_ERROR)) {
        return Optional.empty();
      }
      throw e;
    }
    String type = attributes.path("type").asText("");
    if (type.isEmpty()) {
      throw new YtTransportException(
          "get " + node + "/@ answered without the node's type: " + attributes, null);
    }
    boolean directory = !type.equals("file");
    // The length read_file returns; compressed_data_size differs for a compressed file.
    long length = directory ? 0 : attributes.path("uncompressed_data_size").asLong();
    long modified = parseTime(attributes.path("modification_time").asText(""));
    return Optional.of(new NodeStatus(node, directory, length, modified));
  }

  /** {@code yyyy-MM-ddTHH:mm:ss.SSSSSSZ} (Cypress time attributes); unparseable means 0. */
  static long parseTime(String text) {
    try {
      return Instant.parse(text).toEpochMilli();
    } catch (DateTimeParseException e) {
      return 0;
    }
  }
}
