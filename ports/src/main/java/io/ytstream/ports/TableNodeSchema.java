package io.ytstream.ports;

import io.ytstream.types.schema.TableSchema;
import java.util.Objects;

/**
 * A table node's {@code @dynamic} and {@code @schema}: whether it takes master appends, and what.
 */
public record TableNodeSchema(boolean dynamic, TableSchema schema) {

  public TableNodeSchema {
    Objects.requireNonNull(schema, "schema");
  }

  /** A static table: one that {@code write_table} appends to in a master transaction. */
  public boolean isStatic() {
    return !dynamic;
  }
}
