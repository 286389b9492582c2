package io.ytstream.inmemory;

import io.ytstream.ports.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * A static table ({@code dynamic=false}): a strict, unsorted schema and its rows in the order they
 * were written. Rows reach it only when the master transaction that wrote them commits ({@link
 * MasterTransactions}), or at once when written outside any transaction.
 */
final class StaticTable extends CypressNode {

  private final StoredSchema schema;
  private final List<Row> rows = new ArrayList<>();

  StaticTable(StoredSchema schema, long nowMillis) {
    super(nowMillis);
    this.schema = schema;
  }

  @Override
  String typeName() {
    return "table";
  }

  StoredSchema schema() {
    return schema;
  }

  List<Row> rows() {
    return List.copyOf(rows);
  }

  int rowCount() {
    return rows.size();
  }

  /** Applies one write: the content replaced first unless {@code append}. */
  void write(List<Row> written, boolean append, long nowMillis) {
    if (!append) {
      rows.clear();
    }
    rows.addAll(written);
    touch(nowMillis);
  }
}
