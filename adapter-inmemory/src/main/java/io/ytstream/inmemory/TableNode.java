package io.ytstream.inmemory;

/** A dynamic table (ordered or sorted), always mounted. */
abstract class TableNode extends CypressNode {

  private final StoredSchema schema;

  TableNode(StoredSchema schema, long nowMillis) {
    super(nowMillis);
    this.schema = schema;
  }

  @Override
  final String typeName() {
    return "table";
  }

  StoredSchema schema() {
    return schema;
  }

  abstract int tabletCount();
}
