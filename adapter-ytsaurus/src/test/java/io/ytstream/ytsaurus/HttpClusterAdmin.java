package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.types.schema.TableSchemaJson;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Sets a cluster up with real v4 commands ({@code create} with a schema and {@code dynamic}, {@code
 * reshard_table}, {@code mount_table}, {@code register_queue_consumer}, {@code trim_rows}), waiting
 * where a real cluster is asynchronous (mount state, the registration cache). Works against the
 * emulator and a real cluster alike.
 */
final class HttpClusterAdmin {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final YtsaurusCluster cluster;

  HttpClusterAdmin(YtsaurusCluster cluster) {
    this.cluster = cluster;
  }

  private YtHttpClient client() {
    return cluster.client();
  }

  private ObjectNode call(Command command, ObjectNode params) {
    return (ObjectNode) client().structured(client().primaryProxy(), command, params, Repeat.ONCE);
  }

  void createMapNode(YPath path) {
    cluster.checkpoints().createDirectories(path);
  }

  /** {@code create} of a map node (and its parents) with the {@code acl} attribute {@code acl}. */
  void createMapNode(YPath path, List<Map<String, Object>> acl) {
    ObjectNode params = client().params();
    params.put("path", path.value());
    params.put("type", "map_node");
    params.put("recursive", true);
    params.putObject("attributes").set("acl", JSON.valueToTree(acl));
    call(Command.CREATE, params);
  }

  void createOrderedTable(YPath path, List<Column> columns, int tabletCount) {
    createTable(path, columns, false);
    if (tabletCount != 1) {
      ObjectNode reshard = client().params();
      reshard.put("path", path.value());
      reshard.put("tablet_count", tabletCount);
      call(Command.RESHARD_TABLE, reshard);
    }
    mount(path);
  }

  void createSortedTable(YPath path, List<Column> columns) {
    createTable(path, columns, false);
    mount(path);
  }

  void createConsumer(YPath path) {
    createTable(
        path,
        List.of(
            new Column("queue_cluster", "string", true, true),
            new Column("queue_path", "string", true, true),
            new Column("partition_index", "uint64", true, true),
            new Column("offset", "uint64", false, true),
            new Column("meta", "any", false, false)),
        true);
    mount(path);
  }

  /**
   * {@code create} of type {@code queue_producer}: the server makes the table and mounts it ({@code
   * yt/yt/ytlib/queue_client/queue_producer_init.cpp}); the wait covers a real cluster's mount.
   */
  void createQueueProducer(YPath path) {
    ObjectNode params = client().params();
    params.put("path", path.value());
    params.put("type", "queue_producer");
    params.put("recursive", true);
    client().structured(client().primaryProxy(), Command.CREATE, params, Repeat.MUTATION_ID);
    waitForState(path, "mounted");
  }

  /** A static table: {@code create} of type table without {@code dynamic}, strict schema. */
  void createStaticTable(YPath path, List<Column> columns) {
    createTable(path, columns, false, false);
  }

  private void createTable(YPath path, List<Column> columns, boolean consumer) {
    createTable(path, columns, consumer, true);
  }

  private void createTable(YPath path, List<Column> columns, boolean consumer, boolean dynamic) {
    ObjectNode params = client().params();
    params.put("path", path.value());
    params.put("type", "table");
    params.put("recursive", true);
    ObjectNode attributes = params.putObject("attributes");
    if (dynamic) {
      attributes.put("dynamic", true);
    }
    if (consumer) {
      attributes.put("treat_as_queue_consumer", true);
    }
    ArrayNode schema = attributes.putArray("schema");
    for (Column column : columns) {
      ObjectNode c = schema.addObject();
      c.put("name", column.name());
      // type_v3 carries every type (composites too); the server derives type/required from it.
      try {
        c.set("type_v3", client().json().readTree(TableSchemaJson.writeType(column.typeV3())));
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      if (column.key()) {
        c.put("sort_order", "ascending");
      }
    }
    client().structured(client().primaryProxy(), Command.CREATE, params, Repeat.MUTATION_ID);
  }

  void mount(YPath path) {
    ObjectNode params = client().params();
    params.put("path", path.value());
    call(Command.MOUNT_TABLE, params);
    waitForState(path, "mounted");
  }

  void unmount(YPath path) {
    ObjectNode params = client().params();
    params.put("path", path.value());
    call(Command.UNMOUNT_TABLE, params);
    waitForState(path, "unmounted");
  }

  void reshard(YPath path, int tabletCount) {
    unmount(path);
    ObjectNode params = client().params();
    params.put("path", path.value());
    params.put("tablet_count", tabletCount);
    call(Command.RESHARD_TABLE, params);
    mount(path);
  }

  void register(YPath queue, YPath consumer) {
    ObjectNode params = client().params();
    params.put("queue_path", queue.value());
    params.put("consumer_path", consumer.value());
    params.put("vital", false);
    call(Command.REGISTER_QUEUE_CONSUMER, params);
    waitForRegistration(queue, consumer, true);
  }

  void unregister(YPath queue, YPath consumer) {
    ObjectNode params = client().params();
    params.put("queue_path", queue.value());
    params.put("consumer_path", consumer.value());
    call(Command.UNREGISTER_QUEUE_CONSUMER, params);
    waitForRegistration(queue, consumer, false);
  }

  void trim(YPath queue, int tablet, long trimmedRowCount) {
    ObjectNode params = client().params();
    params.put("path", queue.value());
    params.put("tablet_index", tablet);
    params.put("trimmed_row_count", trimmedRowCount);
    call(Command.TRIM_ROWS, params);
  }

  void remove(YPath path) {
    cluster.checkpoints().delete(path, true);
  }

  private void waitForState(YPath path, String wanted) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      ObjectNode params = client().params();
      params.put("path", path.value() + "/@tablet_state");
      String state =
          client()
              .structured(client().primaryProxy(), Command.GET, params, Repeat.READ)
              .path("value")
              .asText();
      if (state.equals(wanted)) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(path + " did not become " + wanted + " (is " + state + ")");
      }
      pause();
    }
  }

  /**
   * Registrations are cached by proxies for seconds (each proxy caches the queue consumer
   * registrations): probe with a pull.
   */
  private void waitForRegistration(YPath queue, YPath consumer, boolean registered) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (true) {
      ObjectNode params = client().params();
      params.put("consumer_path", consumer.value());
      params.put("queue_path", queue.value());
      params.put("partition_index", 0);
      params.put("offset", 0);
      params.put("max_row_count", 1);
      boolean visible;
      try {
        client()
            .send(client().primaryProxy(), Command.PULL_QUEUE_CONSUMER, params, null, Repeat.READ);
        visible = true;
      } catch (YtException e) {
        if (!e.hasCode(YtErrorCode.AUTHORIZATION_ERROR)) {
          throw e;
        }
        visible = false;
      }
      if (visible == registered) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("registration of " + consumer + " for " + queue + " not seen");
      }
      pause();
    }
  }

  private static void pause() {
    try {
      Thread.sleep(200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
