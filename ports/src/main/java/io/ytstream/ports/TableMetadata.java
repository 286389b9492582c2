package io.ytstream.ports;

import io.ytstream.core.model.YPath;

/** Describes a dynamic table: ordered or sorted, its tablet count and its schema. */
public interface TableMetadata {

  /** Fails with code 500 when the table does not exist. */
  TableDescription describe(YPath table);
}
