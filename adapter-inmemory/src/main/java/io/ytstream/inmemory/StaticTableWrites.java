package io.ytstream.inmemory;

import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.TableNodeSchema;
import io.ytstream.types.schema.ColumnSchema;
import io.ytstream.types.schema.SortOrder;
import io.ytstream.types.schema.TableSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Rows written to static tables and attributes set on nodes, in or out of a master transaction: the
 * one place that stages them, which the port ({@link InMemoryStaticTableAppends}) and the
 * emulator's {@code write_table}, {@code read_table}, {@code get} and {@code set} share.
 *
 * <p>In a transaction a write is staged in it ({@link MasterTransactions}): the transaction and its
 * descendants read it, the outermost commit applies it. A table's content as a transaction sees it
 * is the committed rows, then each transaction's staged rows from the outermost down, a staged
 * overwrite dropping what came before.
 */
final class StaticTableWrites {

  private final ClusterState state;

  StaticTableWrites(ClusterState state) {
    this.state = state;
  }

  /**
   * Writes {@code rows}, appended or replacing the content. The rows are checked against the
   * table's strict schema as they are read; one that fails it fails the whole write, which then
   * stages nothing.
   */
  void write(YPath path, Optional<String> transactionId, Iterator<Row> rows, boolean append) {
    StoredSchema schema;
    synchronized (state) {
      transactionId.ifPresent(id -> state.masterTransactions().get(id));
      schema = state.staticTable(path).schema();
    }
    List<Row> checked = new ArrayList<>();
    while (rows.hasNext()) {
      Row row = rows.next();
      try {
        checked.add(schema.normalize(path, row));
      } catch (YtException e) {
        throw schemaViolation(path, checked.size(), e);
      }
    }
    List<Row> written = Collections.unmodifiableList(checked);
    synchronized (state) {
      StaticTable table = state.staticTable(path);
      if (transactionId.isEmpty()) {
        table.write(written, append, state.nowMillis());
        return;
      }
      MasterTransactions.Transaction transaction =
          state.masterTransactions().get(transactionId.get());
      MasterTransactions.StagedRows staged =
          transaction.tableRows.computeIfAbsent(path, p -> new MasterTransactions.StagedRows());
      if (!append) {
        staged.overwritten = true;
        staged.rows.clear();
      }
      staged.rows.addAll(written);
      transaction.changes().add(() -> table.write(written, append, state.nowMillis()));
    }
  }

  /**
   * 307, SchemaViolation ({@code yt/yt/client/table_client/public.h}): what a table writer answers
   * for a column the strict schema lacks ({@code table_consumer.cpp}, "No column ... in table
   * schema") or a value of another type ({@code unversioned_row.cpp}, "Invalid type").
   */
  private static YtException schemaViolation(YPath path, int rowIndex, YtException cause) {
    return new YtException(
        SCHEMA_VIOLATION,
        "Row " + rowIndex + " written to " + path.value() + ": " + cause.getMessage(),
        List.of(cause.code()),
        cause);
  }

  /** The table writer's code for a row its schema does not take. */
  static final int SCHEMA_VIOLATION = 307;

  /** The table's rows as the transaction (or, without one, anybody) sees them. */
  List<Row> read(YPath path, Optional<String> transactionId) {
    synchronized (state) {
      Optional<MasterTransactions.Transaction> transaction =
          transactionId.map(id -> state.masterTransactions().get(id));
      List<Row> rows = new ArrayList<>(state.staticTable(path).rows());
      if (transaction.isPresent()) {
        List<MasterTransactions.Transaction> chain = transaction.get().chain();
        for (int i = chain.size() - 1; i >= 0; i--) {
          MasterTransactions.StagedRows staged = chain.get(i).tableRows.get(path);
          if (staged != null) {
            if (staged.overwritten) {
              rows.clear();
            }
            rows.addAll(staged.rows);
          }
        }
      }
      return rows;
    }
  }

  /** The attributes set on the node, committed, overlaid with those the transaction staged. */
  Map<String, Object> attributes(YPath path, Optional<String> transactionId) {
    synchronized (state) {
      Optional<MasterTransactions.Transaction> transaction =
          transactionId.map(id -> state.masterTransactions().get(id));
      Map<String, Object> values = new TreeMap<>();
      state.tree().find(path).ifPresent(node -> values.putAll(node.userAttributes()));
      if (transaction.isPresent()) {
        List<MasterTransactions.Transaction> chain = transaction.get().chain();
        for (int i = chain.size() - 1; i >= 0; i--) {
          values.putAll(chain.get(i).attributes().getOrDefault(path, Map.of()));
        }
      }
      return values;
    }
  }

  /**
   * Sets an attribute of an existing node: at once, or staged in the transaction and set at its
   * outermost commit (on the node then at that path, if any).
   */
  void setAttribute(YPath path, String name, Object value, Optional<String> transactionId) {
    Object copy = copyValue(value, name);
    synchronized (state) {
      if (transactionId.isEmpty()) {
        state.tree().resolve(path).userAttributes().put(name, copy);
        return;
      }
      MasterTransactions.Transaction transaction =
          state.masterTransactions().get(transactionId.get());
      transaction.attributes().computeIfAbsent(path, p -> new TreeMap<>()).put(name, copy);
      transaction
          .changes()
          .add(() -> state.tree().find(path).ifPresent(n -> n.userAttributes().put(name, copy)));
    }
  }

  /** {@code @dynamic} and {@code @schema} of a table node; 500 when missing. */
  TableNodeSchema describe(YPath path) {
    synchronized (state) {
      CypressNode node = state.tree().resolve(path);
      if (node instanceof StaticTable table) {
        return new TableNodeSchema(false, schemaOf(table.schema()));
      }
      if (node instanceof TableNode table) {
        return new TableNodeSchema(true, schemaOf(table.schema()));
      }
      throw ClusterErrors.generic(
          "Node " + path.value() + " is a " + node.typeName() + ", not a table");
    }
  }

  private static TableSchema schemaOf(StoredSchema stored) {
    List<ColumnSchema> columns = new ArrayList<>();
    for (Column column : stored.columns()) {
      columns.add(
          new ColumnSchema(
              column.name(), column.typeV3(), column.key() ? SortOrder.ASCENDING : SortOrder.NONE));
    }
    return new TableSchema(columns, true, stored.sorted());
  }

  /**
   * An immutable copy of an attribute value, checked to be what JSON holds ({@code Integer} made
   * {@code Long}), so that a caller changing its map later changes nothing staged.
   */
  static Object copyValue(Object value, String name) {
    if (value instanceof String || value instanceof Long || value instanceof Boolean) {
      return value;
    }
    if (value instanceof Integer i) {
      return i.longValue();
    }
    if (value instanceof Double d) {
      return d;
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      list.forEach(v -> copy.add(copyValue(v, name)));
      return Collections.unmodifiableList(copy);
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach(
          (k, v) -> {
            if (!(k instanceof String key)) {
              throw new IllegalArgumentException(
                  "attribute @" + name + ": map keys must be strings, got " + k);
            }
            copy.put(key, copyValue(v, name));
          });
      return Collections.unmodifiableMap(copy);
    }
    if (value == null) {
      return null;
    }
    throw new IllegalArgumentException(
        "attribute @"
            + name
            + ": a value must be a String, Long, Double, Boolean, List or Map, got "
            + value.getClass().getName());
  }

  /** A static table's stored schema: strict, unsorted, no key columns. */
  static StoredSchema staticSchema(List<Column> columns) {
    return StoredSchema.ordered(columns);
  }
}
