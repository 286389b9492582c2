package io.ytstream.ytsaurus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.MasterTransaction;
import io.ytstream.ports.Row;
import io.ytstream.ports.StaticTableAppends;
import io.ytstream.ports.TableNodeSchema;
import io.ytstream.ports.TransactionId;
import io.ytstream.types.json.JsonReader;
import io.ytstream.types.schema.TableSchemaJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Static table appends over HTTP, as the official Python client makes them ({@code
 * yt/python/yt/wrapper/transaction_commands.py}, {@code table_commands.py}, {@code
 * heavy_commands.py}): {@code start_transaction} (type master, {@code timeout}), {@code
 * write_table} of {@code <append=%true>//table} with {@code transaction_id}, {@code set} and {@code
 * get} of {@code //table/@name} with {@code transaction_id}, {@code ping_transaction}, {@code
 * commit_transaction}, {@code abort_transaction}. The master commands go to the cluster address
 * with a {@code mutation_id} where they change state; {@code write_table} and {@code read_table} go
 * to a heavy proxy.
 *
 * <p>Rows are sent in chunks ({@link StaticTableChunks}), each in a transaction of its own nested
 * in the caller's, as the Python client's write retries do ({@code heavy_commands.py}, {@code
 * WriteRequestRetrier}): a chunk that fails is aborted with its nested transaction and sent again,
 * so a repeat never doubles rows, and the client holds one chunk at a time.
 */
final class HttpStaticTableAppends implements StaticTableAppends {

  /** The chunk size when none is given: bounds the rows an append holds in memory. */
  static final int DEFAULT_CHUNK_BYTES = 16 << 20;

  private final YtsaurusCluster cluster;
  private final int chunkBytes;

  HttpStaticTableAppends(YtsaurusCluster cluster) {
    this(cluster, DEFAULT_CHUNK_BYTES);
  }

  HttpStaticTableAppends(YtsaurusCluster cluster, int chunkBytes) {
    if (chunkBytes <= 0) {
      throw new IllegalArgumentException("chunk size must be positive, got " + chunkBytes);
    }
    this.cluster = cluster;
    this.chunkBytes = chunkBytes;
  }

  private YtHttpClient client() {
    return cluster.client();
  }

  @Override
  public MasterTransaction start(Duration timeout) {
    return new Handle(startTransaction(Optional.empty(), timeout), timeout);
  }

  /** {@code start_transaction} of a master transaction, nested in {@code parent} when given. */
  private TransactionId startTransaction(Optional<TransactionId> parent, Duration timeout) {
    if (timeout.isZero() || timeout.isNegative()) {
      throw new IllegalArgumentException("transaction timeout must be positive, got " + timeout);
    }
    ObjectNode params = client().params();
    params.put("type", "master");
    params.put("timeout", timeout.toMillis());
    parent.ifPresent(p -> params.put("transaction_id", p.value()));
    params.putObject("attributes").put("title", "ytstream: static table append");
    String id =
        client()
            .structured(
                client().primaryProxy(), Command.START_TRANSACTION, params, Repeat.MUTATION_ID)
            .path("transaction_id")
            .asText("");
    if (id.isEmpty()) {
      throw new YtTransportException("start_transaction returned no transaction_id", null);
    }
    return new TransactionId(id);
  }

  @Override
  public MasterTransaction attach(TransactionId id) {
    Handle handle = new Handle(id, null);
    handle.ping();
    return handle;
  }

  @Override
  public Optional<Object> attribute(YPath table, String name) {
    return readAttribute(table, name, Optional.empty());
  }

  @Override
  public List<Row> readAll(YPath table) {
    return read(table, Optional.empty());
  }

  @Override
  public TableNodeSchema describe(YPath table) {
    JsonNode attributes = attributes(table, List.of("type", "dynamic", "schema"), Optional.empty());
    String type = attributes.path("type").asText("");
    if (!type.equals("table")) {
      throw new YtException(
          YtErrorCode.GENERIC, "Node " + table.value() + " is a " + type + ", not a table");
    }
    JsonNode schema = attributes.path("schema");
    if (schema.isMissingNode()) {
      throw new YtTransportException(
          "get " + table + "/@ answered without the node's schema: " + attributes, null);
    }
    try {
      return new TableNodeSchema(
          attributes.path("dynamic").asBoolean(false), TableSchemaJson.parse(schema.toString()));
    } catch (IllegalArgumentException e) {
      throw new YtTransportException(
          "the @schema of " + table.value() + " cannot be read: " + e.getMessage(), e);
    }
  }

  /**
   * {@code get <table>/@} with an attribute filter: one round trip, a missing node answering 500
   * and a missing attribute being absent from the map.
   */
  private JsonNode attributes(
      YPath table, List<String> names, Optional<TransactionId> transaction) {
    ObjectNode params = client().params();
    params.put("path", table.value() + "/@");
    ArrayNode wanted = params.putArray("attributes");
    names.forEach(wanted::add);
    transaction.ifPresent(t -> params.put("transaction_id", t.value()));
    return client()
        .structured(client().primaryProxy(), Command.GET, params, Repeat.READ)
        .path("value");
  }

  private Optional<Object> readAttribute(
      YPath table, String name, Optional<TransactionId> transaction) {
    JsonNode value = attributes(table, List.of(name), transaction).get(name);
    if (value == null || value.isNull()) {
      return Optional.empty();
    }
    return Optional.ofNullable(JsonReader.read(value.toString()));
  }

  /** {@code read_table} of the whole table, in the transaction when given. */
  private List<Row> read(YPath table, Optional<TransactionId> transaction) {
    ObjectNode params = client().params();
    params.put("path", table.value());
    transaction.ifPresent(t -> params.put("transaction_id", t.value()));
    byte[] body =
        client()
            .send(
                cluster.heavyProxies().forHeavyCommand(),
                Command.READ_TABLE,
                params,
                null,
                Repeat.READ);
    List<Row> rows = new ArrayList<>();
    for (Map<String, Object> row : cluster.rows().decode(body, cluster.columnTypes(table))) {
      rows.add(Row.of(row));
    }
    return rows;
  }

  /** One chunk's rows in a transaction nested in {@code parent}, sent again after a failure. */
  private void writeChunk(YPath table, TransactionId parent, Duration timeout, byte[] chunk) {
    int maxAttempts = cluster.config().maxAttempts();
    for (int attempt = 1; ; attempt++) {
      TransactionId nested = startTransaction(Optional.of(parent), timeout);
      try {
        ObjectNode params = client().params();
        params.put("path", "<append=%true>" + table.value());
        params.put("transaction_id", nested.value());
        client()
            .structured(
                cluster.heavyProxies().forHeavyCommand(),
                Command.WRITE_TABLE,
                params,
                chunk,
                Repeat.ONCE);
        commit(nested);
        return;
      } catch (YtException | YtTransportException e) {
        abortQuietly(nested, e);
        if (attempt >= maxAttempts || !repeatable(e)) {
          throw e;
        }
      }
    }
  }

  /**
   * Failures after which a chunk is sent again, as the Python client's write retries take them
   * ({@code yt/python/yt/wrapper/errors.py}, retriable errors): the transport, an unavailable or
   * throttling proxy. Anything the server refused on its merits (a schema, a transaction that is
   * gone) fails at once.
   */
  private static boolean repeatable(RuntimeException e) {
    if (e instanceof YtTransportException) {
      return true;
    }
    return e instanceof YtHttpException http
        && (http.httpStatus() == 503
            || http.httpStatus() == 429
            || http.hasCode(YtErrorCode.REQUEST_THROTTLED));
  }

  private void commit(TransactionId id) {
    ObjectNode params = client().params();
    params.put("transaction_id", id.value());
    client()
        .structured(
            client().primaryProxy(), Command.COMMIT_TRANSACTION, params, Repeat.MUTATION_ID);
  }

  private void abort(TransactionId id) {
    ObjectNode params = client().params();
    params.put("transaction_id", id.value());
    try {
      client()
          .structured(
              client().primaryProxy(), Command.ABORT_TRANSACTION, params, Repeat.MUTATION_ID);
    } catch (YtException e) {
      if (!e.hasCode(YtErrorCode.NO_SUCH_TRANSACTION)) {
        throw e;
      }
    }
  }

  private void abortQuietly(TransactionId id, RuntimeException cause) {
    try {
      abort(id);
    } catch (RuntimeException e) {
      // The nested transaction expires by itself; the chunk's failure is what is reported.
      cause.addSuppressed(e);
    }
  }

  /** A handle on one master transaction, started here or attached by id. */
  private final class Handle implements MasterTransaction {
    private final TransactionId id;

    /** The lease of the chunks' nested transactions: the caller's, or 30 s when attached. */
    private final Duration chunkTimeout;

    Handle(TransactionId id, Duration timeout) {
      this.id = id;
      this.chunkTimeout = timeout == null ? Duration.ofSeconds(30) : timeout;
    }

    @Override
    public TransactionId id() {
      return id;
    }

    @Override
    public MasterTransaction startNested(Duration timeout) {
      return new Handle(startTransaction(Optional.of(id), timeout), timeout);
    }

    @Override
    public void append(YPath table, java.util.Iterator<Row> rows) {
      StaticTableChunks chunks =
          new StaticTableChunks(
              cluster.rows(),
              cluster.columnTypes(table),
              chunkBytes,
              chunk -> writeChunk(table, id, chunkTimeout, chunk));
      while (rows.hasNext()) {
        chunks.add(rows.next());
      }
      chunks.flush();
    }

    @Override
    public List<Row> readAll(YPath table) {
      return read(table, Optional.of(id));
    }

    @Override
    public Optional<Object> attribute(YPath table, String name) {
      return readAttribute(table, name, Optional.of(id));
    }

    @Override
    public void setAttribute(YPath table, String name, Object value) {
      ObjectNode params = client().params();
      params.put("path", table.value() + "/@" + name);
      params.put("transaction_id", id.value());
      client()
          .structured(
              client().primaryProxy(),
              Command.SET,
              params,
              AttributeJson.encode(value, name),
              Repeat.MUTATION_ID);
    }

    @Override
    public void ping() {
      ObjectNode params = client().params();
      params.put("transaction_id", id.value());
      params.put("ping_ancestor_transactions", false);
      client()
          .structured(client().primaryProxy(), Command.PING_TRANSACTION, params, Repeat.IDEMPOTENT);
    }

    /**
     * {@code commit_transaction} with a {@code mutation_id}, repeated with {@code retry=true} after
     * a lost answer so the master commits once; when no answer comes at all, the outcome is unknown
     * and the caller reads the attribute it set to learn it.
     */
    @Override
    public void commit() {
      try {
        HttpStaticTableAppends.this.commit(id);
      } catch (YtTransportException e) {
        throw new io.ytstream.core.error.CommitOutcomeUnknownException(
            "commit of master transaction "
                + id
                + " got no answer: it may or may not have been applied; read the attribute"
                + " written in it to learn which",
            e);
      }
    }

    @Override
    public void abort() {
      HttpStaticTableAppends.this.abort(id);
    }

    @Override
    public String toString() {
      return "master transaction " + id;
    }
  }
}
