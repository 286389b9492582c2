package io.ytstream.ports;

import io.ytstream.core.model.YPath;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Appends to static tables in master (Cypress) transactions, and the table attributes written in
 * the same transactions: what a sink needs to land a batch and the record of that batch together,
 * so that after a restart one read of the attribute says whether the batch landed.
 *
 * <p>Attribute values are plain Java values as JSON has them: {@link String}, {@link Long}, {@link
 * Double}, {@link Boolean}, {@link java.util.List} and {@link java.util.Map} with string keys.
 */
public interface StaticTableAppends {

  /**
   * Starts a master transaction whose lease lasts {@code timeout} after its start, its last ping or
   * its last use; the caller that starts it renews it ({@link MasterTransaction#ping}).
   */
  MasterTransaction start(Duration timeout);

  /**
   * Attaches to a live master transaction (executors append inside the driver's); the caller does
   * not own its lease. Fails with 11000 when it is unknown, finished or expired, at the latest on
   * first use.
   */
  MasterTransaction attach(TransactionId id);

  /** The committed value of attribute {@code name} of {@code table}, outside any transaction. */
  Optional<Object> attribute(YPath table, String name);

  /**
   * Every committed row of the static table, in the order written ({@code read_table}). Buffers the
   * whole table: for checks and tests, not for a batch's data path.
   */
  List<Row> readAll(YPath table);

  /**
   * The table's {@code @dynamic} and {@code @schema}. Fails with 500 when the node does not exist.
   */
  TableNodeSchema describe(YPath table);
}
