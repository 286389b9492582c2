package io.ytstream.ports;

import io.ytstream.core.model.YPath;
import java.util.List;

/**
 * Writes to dynamic tables outside a batch transaction: each call is one tablet transaction of its
 * own, applied entirely or not at all. Ordered tables are appended to (a {@code $tablet_index}
 * column chooses the tablet); sorted tables are upserted by key.
 */
public interface OutputTables {

  void append(YPath orderedTable, List<Row> rows);

  void upsert(YPath sortedTable, List<Row> rows);

  /** Every row of the table, in tablet and row order (ordered) or key order (sorted). */
  List<Row> readAll(YPath table);
}
