package io.ytstream.inmemory;

/** A dynamic table (ordered or sorted), always mounted. */
abstract class TableNode extends CypressNode {

  private final TableSchema schema;

  TableNode(TableSchema schema, long nowMillis) {
    super(nowMillis);
    this.schema = schema;
  }

  @Override
  final String typeName() {
    return "table";
  }

  TableSchema schema() {
    return schema;
  }

  abstract int tabletCount();
}
