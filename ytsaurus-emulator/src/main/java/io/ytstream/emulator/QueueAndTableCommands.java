package io.ytstream.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.AccessDeniedException;
import io.ytstream.inmemory.ConsumerRegistration;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.MasterTransactions;
import io.ytstream.ports.QueueRow;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TabletTransaction;
import io.ytstream.types.v3.YtType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Queue, dynamic-table and tablet-transaction commands ({@code
 * yt/yt/client/driver/queue_commands.cpp}, {@code table_commands.cpp}, {@code
 * transaction_commands.cpp}), translated into calls of the in-memory cluster's ports and admin API.
 */
final class QueueAndTableCommands {

  /**
   * {@code max_data_weight} when a pull does not give it: 16 MB ({@code
   * yt/yt/client/queue_client/queue_rowset.cpp}).
   */
  static final long DEFAULT_MAX_DATA_WEIGHT = 16L << 20;

  private static final List<String> CONSUMER_KEY =
      List.of("queue_cluster", "queue_path", "partition_index");

  private final EmulatorState state;

  QueueAndTableCommands(EmulatorState state) {
    this.state = state;
  }

  private InMemoryCluster cluster() {
    return state.cluster();
  }

  private static ObjectNode empty() {
    return JsonNodeFactory.instance.objectNode();
  }

  // ---- queues ----

  /**
   * The sizing of a pull ({@code yt/yt/client/queue_client/queue_rowset.cpp}, {@code
   * VerifyRowBatchReadOptions}, {@code ComputeRowsToRead}): {@code max_row_count} (default 1000),
   * {@code max_data_weight} (default 16 MiB) and {@code data_weight_per_row_hint} must be positive,
   * refused with the server's texts; the rows to read are max(1, min(max_row_count, max_data_weight
   * / data_weight_per_row_hint)).
   */
  private record PullSizing(long rowsToRead, long maxDataWeight) {

    static PullSizing of(CommandRequest request) {
      long maxRows = request.optionalLong("max_row_count").orElse(1000L);
      long maxDataWeight = request.optionalLong("max_data_weight").orElse(DEFAULT_MAX_DATA_WEIGHT);
      Optional<Long> hint = request.optionalLong("data_weight_per_row_hint");
      if (maxRows <= 0) {
        throw CommandError.badRequest("MaxRowCount is non-positive");
      }
      if (maxDataWeight <= 0) {
        throw CommandError.badRequest("MaxDataWeight is non-positive");
      }
      if (hint.isPresent() && hint.get() <= 0) {
        throw CommandError.badRequest("DataWeightPerRowHint is non-positive");
      }
      long rows = maxRows;
      if (hint.isPresent()) {
        rows = Math.min(rows, maxDataWeight / hint.get());
      }
      return new PullSizing(Math.max(rows, 1), maxDataWeight);
    }
  }

  /**
   * The rows a read of one ordered store may return from {@code offset}: a pull below the trimmed
   * row count starts at the first row left, and a read covers one store at most, so it ends at the
   * store's end even with rows after it. {@code pull_queue} and {@code pull_queue_consumer} alike
   * go to the tablet node's {@code FetchTableRows} ({@code
   * yt/yt/server/node/query_agent/query_service.cpp}, {@code
   * yt/yt/server/node/tablet_node/ordered_dynamic_store.cpp}).
   */
  private long cutAtStoreEnd(YPath queuePath, int partitionIndex, long offset, long rows) {
    List<PartitionBounds> bounds = cluster().partitions(queuePath);
    if (partitionIndex < 0 || partitionIndex >= bounds.size()) {
      return rows;
    }
    long start = Math.max(offset, bounds.get(partitionIndex).trimmedRowCount());
    long storeEnd = (start / state.rowsPerStore() + 1) * state.rowsPerStore();
    return Math.min(rows, storeEnd - start);
  }

  /**
   * The answer's response parameters ({@code X-YT-Response-Parameters}): {@code start_offset}, the
   * {@code $row_index} of the first row returned, else the offset asked for (the queue rowset's
   * {@code GetStartOffset}, {@code queue_rowset.cpp}).
   */
  private static ObjectNode startOffset(List<QueueRow> rows, long offset) {
    ObjectNode parameters = JsonNodeFactory.instance.objectNode();
    parameters.put("start_offset", rows.isEmpty() ? offset : rows.get(0).rowIndex());
    return parameters;
  }

  /**
   * {@code pull_queue}: the queue's rows without a consumer ({@code yt/yt/client/driver/
   * queue_commands.cpp}, {@code TPullQueueCommand}: {@code queue_path}, a required {@code offset},
   * {@code partition_index}, {@code max_row_count}, {@code max_data_weight}, {@code
   * data_weight_per_row_hint}), read and cut as {@code pull_queue_consumer} reads them.
   */
  Object pullQueue(CommandRequest request) {
    String queueText = request.string("queue_path");
    YPath queuePath = CommandRequest.parsePath(queueText);
    state.requireMounted(queuePath);
    int partitionIndex = Math.toIntExact(request.longValue("partition_index"));
    long offset = request.longValue("offset");
    if (offset < 0) {
      throw CommandError.badRequest(
          "Cannot read table " + queuePath + " at a negative offset " + offset);
    }
    PullSizing sizing = PullSizing.of(request);
    QueueId queue =
        new QueueId(CommandRequest.clusterOf(queueText).orElse(state.clusterName()), queuePath);
    PartitionId partition = new PartitionId(queue, partitionIndex);
    long maxRows = cutAtStoreEnd(queuePath, partitionIndex, offset, sizing.rowsToRead());
    // As the request's user: read on the queue is checked (see InMemoryQueueReader).
    List<QueueRow> rows =
        cluster()
            .asUser(request.user())
            .queueRangeReader()
            .pull(partition, offset, (int) Math.min(maxRows, Integer.MAX_VALUE));
    List<Row> out = new ArrayList<>(rows.size());
    PulledRows pulled = new PulledRows();
    for (QueueRow row : rows) {
      out.add(pulled.of(row));
    }
    return new CommandSpec.Tabular(
        out, types(describe(queuePath)), sizing.maxDataWeight(), startOffset(rows, offset));
  }

  Object pullQueueConsumer(CommandRequest request) {
    String consumerText = request.string("consumer_path");
    String queueText = request.string("queue_path");
    YPath consumerPath = CommandRequest.parsePath(consumerText);
    YPath queuePath = CommandRequest.parsePath(queueText);
    state.requireMounted(queuePath);
    int partitionIndex = Math.toIntExact(request.longValue("partition_index"));
    PullSizing sizing = PullSizing.of(request);
    ConsumerId consumer =
        new ConsumerId(
            CommandRequest.clusterOf(consumerText).orElse(state.clusterName()), consumerPath);
    QueueId queue =
        new QueueId(CommandRequest.clusterOf(queueText).orElse(state.clusterName()), queuePath);
    PartitionId partition = new PartitionId(queue, partitionIndex);
    long offset;
    Optional<Long> given = request.optionalLong("offset");
    if (given.isPresent()) {
      offset = given.get();
      if (offset < 0) {
        throw CommandError.badRequest(
            "Cannot read table " + queuePath + " at a negative offset " + offset);
      }
    } else {
      // A null offset means the consumer's stored offset (0 without a row),
      // yt/yt/client/driver/queue_commands.cpp.
      offset = cluster().consumerOffsets().read(consumer, queue).getOrDefault(partition, 0);
    }
    long maxRows = cutAtStoreEnd(queuePath, partitionIndex, offset, sizing.rowsToRead());
    // As the request's user: read on the consumer is checked, then the registration.
    List<QueueRow> rows =
        cluster()
            .asUser(request.user())
            .queueReader()
            .pull(consumer, partition, offset, (int) Math.min(maxRows, Integer.MAX_VALUE));
    List<Row> out = PulledRows.answer(rows);
    // A short read, as a tablet node's: rows go while the weight so far is below max_data_weight,
    // so the row that crosses it is the last one. The writer counts the weight as it writes each
    // row, so the values are read once.
    return new CommandSpec.Tabular(
        out, types(describe(queuePath)), sizing.maxDataWeight(), startOffset(rows, offset));
  }

  Object advanceQueueConsumer(CommandRequest request) {
    String consumerText = request.string("consumer_path");
    String queueText = request.string("queue_path");
    ConsumerId consumer =
        new ConsumerId(
            CommandRequest.clusterOf(consumerText).orElse(state.clusterName()),
            CommandRequest.parsePath(consumerText));
    QueueId queue =
        new QueueId(
            CommandRequest.clusterOf(queueText).orElse(state.clusterName()),
            CommandRequest.parsePath(queueText));
    state.requireMounted(consumer.path());
    PartitionId partition =
        new PartitionId(queue, Math.toIntExact(request.longValue("partition_index")));
    long newOffset = request.longValue("new_offset");
    if (newOffset < 0) {
      throw CommandError.badRequest("Queue consumer offset " + newOffset + " cannot be negative");
    }
    OptionalLong oldOffset =
        request.optionalLong("old_offset").map(OptionalLong::of).orElse(OptionalLong.empty());
    Optional<String> transaction = transactionId(request);
    try {
      if (request.flag("client_side", false)) {
        // queue_commands.cpp, TAdvanceQueueConsumerCommand: client-side, the row is written
        // directly (the official Python client's default); the server-side advance checks more.
        cluster()
            .advanceConsumerClientSide(
                transaction.map(id -> state.pool().get(id, request.proxyIndex())),
                consumer,
                partition,
                oldOffset,
                newOffset);
      } else if (transaction.isPresent()) {
        state
            .pool()
            .get(transaction.get(), request.proxyIndex())
            .advanceConsumer(consumer, partition, oldOffset, newOffset);
      } else {
        cluster()
            .asUser(request.user())
            .consumerOffsets()
            .advance(consumer, partition, oldOffset, newOffset);
      }
    } catch (AccessDeniedException e) {
      // The read check runs before the advance's tablet write, so its 901 is not wrapped.
      throw EmulatorState.toCommandError(e);
    } catch (YtException e) {
      // Real proxies wrap the conflict in a generic error; clients must search inner errors.
      throw CommandError.wrap(
          "Error advancing consumer " + consumer.path() + " for queue " + queue.path(),
          EmulatorState.toCommandError(e));
    }
    return empty();
  }

  /**
   * {@code register_queue_consumer} ({@code queue_commands.cpp}): {@code vital} is required; {@code
   * partitions}, the partitions the consumer reads (all when absent), is kept and listed.
   */
  Object registerQueueConsumer(CommandRequest request) {
    if (request.optional("vital").isEmpty()) {
      throw CommandError.badRequest("Missing required parameter /vital");
    }
    YPath queue = request.path("queue_path");
    YPath consumer = request.path("consumer_path");
    Optional<List<Long>> partitions = Optional.empty();
    Optional<JsonNode> given = request.optional("partitions");
    if (given.isPresent()) {
      if (!given.get().isArray()) {
        throw CommandError.badRequest("Parameter /partitions must be a list of integers");
      }
      List<Long> indexes = new ArrayList<>();
      for (JsonNode index : given.get()) {
        if (!index.canConvertToLong()) {
          throw CommandError.badRequest("Parameter /partitions must be a list of integers");
        }
        indexes.add(index.asLong());
      }
      partitions = Optional.of(List.copyOf(indexes));
    }
    cluster().registerConsumer(queue, consumer, request.flag("vital", false));
    state.setRegisteredPartitions(queue, consumer, partitions);
    return empty();
  }

  Object unregisterQueueConsumer(CommandRequest request) {
    YPath queue = request.path("queue_path");
    YPath consumer = request.path("consumer_path");
    cluster().unregisterConsumer(queue, consumer);
    state.setRegisteredPartitions(queue, consumer, Optional.empty());
    return empty();
  }

  Object listQueueConsumerRegistrations(CommandRequest request) {
    Optional<YPath> queue = request.optional("queue_path").map(n -> request.path("queue_path"));
    Optional<YPath> consumer =
        request.optional("consumer_path").map(n -> request.path("consumer_path"));
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (ConsumerRegistration registration : cluster().registrations()) {
      if (queue.map(q -> q.equals(registration.queue())).orElse(true)
          && consumer.map(c -> c.equals(registration.consumer())).orElse(true)) {
        // The paths are rich YPaths with the cluster (TListQueueConsumerRegistrationsCommand
        // writes TRichYPath values): <cluster="name">"//path".
        ObjectNode item = out.addObject();
        item.set("queue_path", withCluster(registration.queue()));
        item.set("consumer_path", withCluster(registration.consumer()));
        item.put("vital", registration.vital());
        Optional<List<Long>> partitions =
            state.registeredPartitions(registration.queue(), registration.consumer());
        if (partitions.isPresent()) {
          ArrayNode list = item.putArray("partitions");
          partitions.get().forEach(list::add);
        } else {
          item.putNull("partitions");
        }
      }
    }
    return out;
  }

  /** A path with the cluster attribute, in the JSON form of a YSON node with attributes. */
  private ObjectNode withCluster(YPath path) {
    ObjectNode node = empty();
    node.putObject("$attributes").put("cluster", state.clusterName());
    node.put("$value", path.value());
    return node;
  }

  Object getTabletInfos(CommandRequest request) {
    YPath path = request.path("path");
    state.requireMounted(path);
    JsonNode indexes = request.required("tablet_indexes");
    if (!indexes.isArray()) {
      throw CommandError.badRequest("Parameter /tablet_indexes must be a list");
    }
    List<PartitionBounds> bounds = cluster().partitions(path);
    ObjectNode out = empty();
    ArrayNode tablets = out.putArray("tablets");
    for (JsonNode index : indexes) {
      int i = index.asInt(-1);
      if (i < 0 || i >= bounds.size()) {
        throw CommandError.badRequest(
            "Invalid tablet index " + index + ": expected a value in [0, " + bounds.size() + ")");
      }
      ObjectNode tablet = tablets.addObject();
      tablet.put("total_row_count", bounds.get(i).totalRowCount());
      tablet.put("trimmed_row_count", bounds.get(i).trimmedRowCount());
      tablet.put("delayed_lockless_row_count", 0);
      tablet.put("barrier_timestamp", state.timestamp());
      tablet.put("last_write_timestamp", 0);
    }
    return out;
  }

  Object trimRows(CommandRequest request) {
    YPath path = request.path("path");
    state.requireMounted(path);
    cluster()
        .trimRows(
            path,
            Math.toIntExact(request.longValue("tablet_index")),
            request.longValue("trimmed_row_count"));
    return empty();
  }

  // ---- rows ----

  /** Column name to type_v3 type, for reading and writing values on the wire. */
  private static Map<String, YtType> types(TableDescription table) {
    Map<String, YtType> types = new LinkedHashMap<>();
    table.columns().forEach(c -> types.put(c.name(), c.typeV3()));
    return types;
  }

  Object insertRows(CommandRequest request) {
    YPath path = request.path("path");
    Optional<String> transaction = transactionId(request);
    if (transaction.isEmpty()) {
      state.requireMounted(path);
    }
    TableDescription table = describe(path);
    List<Row> rows = request.inputFormat().readRows(request.body(), types(table));
    if (request.flag("update", false)) {
      throw CommandError.badRequest(
          table.sorted()
              ? "update=true is not supported by the emulator"
              : "Cannot use \"update\" mode for ordered tables");
    }
    if (transaction.isPresent()) {
      // Inside a transaction the rows are only buffered: a table that is not mounted fails the
      // commit, not the insert (the tablet is looked up when the transaction's rows are sent).
      state.pool().get(transaction.get(), request.proxyIndex()).insertRows(path, rows);
      state.writtenInTransaction(transaction.get(), path);
    } else if (table.sorted()) {
      cluster().outputTables().upsert(path, rows);
    } else {
      cluster().outputTables().append(path, rows);
    }
    return empty();
  }

  Object deleteRows(CommandRequest request) {
    YPath path = request.path("path");
    state.requireMounted(path);
    TableDescription described = describe(path);
    List<Row> keys = request.inputFormat().readRows(request.body(), types(described));
    if (!described.sorted()) {
      throw CommandError.badRequest(
          "Table " + path + " is ordered; delete_rows requires a sorted table");
    }
    Optional<String> transaction = transactionId(request);
    if (transaction.isPresent()) {
      state.pool().get(transaction.get(), request.proxyIndex()).deleteRows(path, keys);
    } else {
      TabletTransaction own = cluster().transactions().start(Duration.ofSeconds(30));
      own.deleteRows(path, keys);
      own.commit();
    }
    return empty();
  }

  Object selectRows(CommandRequest request) {
    SelectQuery query = SelectQuery.parse(request.string("query"));
    YPath path = query.table();
    state.requireMounted(path);
    TableDescription table = describe(path);
    Optional<String> transaction = transactionId(request);
    List<Row> rows;
    if (transaction.isPresent()) {
      TabletTransaction tx = state.pool().get(transaction.get(), request.proxyIndex());
      // A consumer table is read at the transaction's snapshot; other tables at their latest
      // committed rows, which a transaction's own buffered writes are not part of.
      rows = isConsumer(table) ? consumerRowsAtSnapshot(tx, path, query) : allRows(table);
    } else {
      rows = allRows(table);
    }
    List<Row> out = new ArrayList<>();
    for (Row row : rows) {
      if (out.size() >= query.limit()) {
        break;
      }
      Map<String, Object> view = row.asMap();
      if (query.matches(view)) {
        Map<String, Object> projected = query.project(view);
        out.add(projected == view ? row : Row.of(projected));
      }
    }
    return new CommandSpec.Tabular(out, types(table));
  }

  Object lookupRows(CommandRequest request) {
    YPath path = request.path("path");
    state.requireMounted(path);
    TableDescription table = describe(path);
    if (!table.sorted()) {
      throw CommandError.badRequest("lookup_rows requires a sorted table; " + path + " is ordered");
    }
    List<Row> keys = request.inputFormat().readRows(request.body(), types(table));
    List<Row> rows = allRows(table);
    List<String> columnNames = new ArrayList<>();
    request.optional("column_names").ifPresent(n -> n.forEach(c -> columnNames.add(c.asText())));
    List<Row> out = new ArrayList<>();
    for (Row key : keys) {
      for (Row row : rows) {
        boolean match = true;
        for (TableDescription.Column column : table.keyColumns()) {
          if (!Objects.equals(row.get(column.name()), key.get(column.name()))) {
            match = false;
            break;
          }
        }
        if (match) {
          if (columnNames.isEmpty()) {
            out.add(row);
          } else {
            Map<String, Object> projected = new LinkedHashMap<>();
            columnNames.forEach(c -> projected.put(c, row.get(c)));
            out.add(Row.of(projected));
          }
          break;
        }
      }
    }
    return new CommandSpec.Tabular(out, types(table));
  }

  /**
   * Rows of a table; an ordered table's rows get {@code $tablet_index} and {@code $row_index} (the
   * in-memory cluster returns the surviving rows of each tablet in order, so the indexes follow
   * from the tablet bounds).
   */
  private List<Row> allRows(TableDescription table) {
    for (int attempt = 0; attempt < 5; attempt++) {
      List<Row> rows = cluster().outputTables().readAll(table.path());
      if (table.sorted()) {
        return rows;
      }
      List<PartitionBounds> bounds = cluster().partitions(table.path());
      long expected = 0;
      for (PartitionBounds b : bounds) {
        expected += b.totalRowCount() - b.trimmedRowCount();
      }
      if (expected != rows.size()) {
        continue; // a commit landed between the two reads
      }
      List<Row> out = new ArrayList<>(rows.size());
      PulledRows pulled = new PulledRows();
      int next = 0;
      for (PartitionBounds b : bounds) {
        for (long index = b.trimmedRowCount(); index < b.totalRowCount(); index++) {
          out.add(
              pulled.of(
                  b.index(), index, rows.get(next++), OptionalLong.empty(), OptionalLong.empty()));
        }
      }
      return out;
    }
    throw CommandError.of(1, "Table " + table.path() + " changed during every read attempt");
  }

  private List<Row> consumerRowsAtSnapshot(
      TabletTransaction tx, YPath consumerPath, SelectQuery query) {
    Object queueCluster = query.equalityOn("queue_cluster").orElse(null);
    Object queuePath = query.equalityOn("queue_path").orElse(null);
    if (!(queueCluster instanceof String c) || !(queuePath instanceof String p)) {
      throw CommandError.badRequest(
          "inside a transaction the emulator needs 'queue_cluster = ...' and 'queue_path = ...'"
              + " in the where clause of a consumer select");
    }
    QueueId queue = new QueueId(c, CommandRequest.parsePath(p));
    StreamOffsets offsets =
        tx.readConsumer(new ConsumerId(state.clusterName(), consumerPath), queue);
    List<Row> rows = new ArrayList<>();
    offsets
        .asMap()
        .forEach(
            (partition, offset) ->
                rows.add(
                    Row.of(
                        "queue_cluster",
                        c,
                        "queue_path",
                        p,
                        "partition_index",
                        (long) partition.index(),
                        "offset",
                        offset)));
    return rows;
  }

  private TableDescription describe(YPath path) {
    return cluster().tableMetadata().describe(path);
  }

  private static boolean isConsumer(TableDescription table) {
    List<String> keys = new ArrayList<>();
    table.keyColumns().forEach(c -> keys.add(c.name()));
    return keys.equals(CONSUMER_KEY);
  }

  // ---- transactions ----

  /**
   * {@code start_transaction} ({@code yt/yt/client/driver/transaction_commands.cpp}): {@code type}
   * defaults to master; a master transaction may nest in {@code transaction_id}; any other type is
   * sticky to the proxy that started it.
   */
  Object startTransaction(CommandRequest request) {
    String type = request.optional("type").map(JsonNode::asText).orElse("master");
    long timeout = request.optionalLong("timeout").orElse(15_000L);
    if (timeout <= 0) {
      throw CommandError.badRequest("timeout must be positive, got " + timeout);
    }
    ObjectNode out = empty();
    if (type.equals("master")) {
      Optional<String> parent = request.optional("transaction_id").map(JsonNode::asText);
      out.put(
          "transaction_id",
          state.masterTransactions().start(parent.filter(s -> !s.isEmpty()), timeout).id());
      return out;
    }
    if (!type.equals("tablet")) {
      throw CommandError.badRequest(
          "Invalid transaction type " + type + ": the emulator serves master and tablet");
    }
    // As the request's user, whose calls inside it (an advance's read check) are checked as theirs.
    TabletTransaction tx =
        cluster().asUser(request.user()).transactions().start(Duration.ofMillis(timeout));
    state.pool().add(request.proxyIndex(), tx, timeout);
    out.put("transaction_id", tx.id().value());
    return out;
  }

  /**
   * {@code ping_transaction}: without an id it does nothing and succeeds, as the driver's command
   * does ({@code TPingTransactionCommand::DoExecute}).
   */
  Object pingTransaction(CommandRequest request) {
    Optional<String> id = transactionId(request).filter(t -> !MasterTransactions.isNull(t));
    if (id.isEmpty()) {
      return empty();
    }
    if (state.masterTransactions().holds(id.get())) {
      state.masterTransactions().get(id.get());
      return empty();
    }
    sticky(request).ping();
    return empty();
  }

  Object commitTransaction(CommandRequest request) {
    String id = request.string("transaction_id");
    if (state.masterTransactions().holds(id)) {
      state.masterTransactions().commit(id, () -> {});
      return empty();
    }
    TabletTransaction tx = sticky(request);
    try {
      Optional<YPath> unmounted =
          state.tablesWrittenIn(id).stream().filter(t -> !state.isMounted(t)).findFirst();
      if (unmounted.isPresent()) {
        tx.abort();
        throw CommandError.wrap(
            "Error committing transaction " + tx.id(),
            CommandError.of(1702, "Tablet of table " + unmounted.get() + " is not mounted"));
      }
      tx.commit();
    } catch (YtException e) {
      throw CommandError.wrap(
          "Error committing transaction " + tx.id(), EmulatorState.toCommandError(e));
    } finally {
      // Committed, or aborted by the failed commit: the pool forgets it either way.
      state.pool().finished(tx.id().value());
      state.forgetTransactionWrites(id);
    }
    return empty();
  }

  Object abortTransaction(CommandRequest request) {
    String id = request.string("transaction_id");
    if (state.masterTransactions().holds(id)) {
      state.masterTransactions().abort(id);
      return empty();
    }
    TabletTransaction tx = sticky(request);
    try {
      tx.abort();
    } finally {
      state.pool().finished(tx.id().value());
      state.forgetTransactionWrites(id);
    }
    return empty();
  }

  private TabletTransaction sticky(CommandRequest request) {
    return state.pool().get(request.string("transaction_id"), request.proxyIndex());
  }

  private static Optional<String> transactionId(CommandRequest request) {
    return request.optional("transaction_id").map(JsonNode::asText).filter(s -> !s.isEmpty());
  }
}
