package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Checkpoint files in Cypress with the commands SPYT's {@code YtFileSystem} uses (reference 5.8):
 * {@code create}, {@code write_file}, {@code read_file}, {@code list}, {@code remove}, {@code move}
 * without {@code force}, {@code exists}, {@code get}.
 */
final class HttpCheckpointStore implements CheckpointStore {

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

  @Override
  public Optional<NodeStatus> status(YPath node) {
    ObjectNode exists = client().params();
    exists.put("path", node.value());
    boolean present =
        client()
            .structured(client().primaryProxy(), Command.EXISTS, exists, Repeat.READ)
            .path("value")
            .asBoolean(false);
    if (!present) {
      return Optional.empty();
    }
    try {
      String type = attribute(node, "type").asText();
      boolean directory = !type.equals("file");
      long length = directory ? 0 : attribute(node, "compressed_data_size").asLong();
      long modified = parseTime(attribute(node, "modification_time").asText(""));
      return Optional.of(new NodeStatus(node, directory, length, modified));
    } catch (YtException e) {
      if (e.hasCode(YtErrorCode.RESOLVE_ERROR)) {
        return Optional.empty(); // removed between the two requests
      }
      throw e;
    }
  }

  private JsonNode attribute(YPath node, String name) {
    ObjectNode params = client().params();
    params.put("path", node.value() + "/@" + name);
    return client()
        .structured(client().primaryProxy(), Command.GET, params, Repeat.READ)
        .path("value");
  }

  /** {@code yyyy-MM-ddTHH:mm:ss.SSSSSSZ} (reference 3.7); unparseable means 0. */
  static long parseTime(String text) {
    try {
      return Instant.parse(text).toEpochMilli();
    } catch (DateTimeParseException e) {
      return 0;
    }
  }
}
