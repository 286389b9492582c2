package io.ytstream.simulation;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.spi.YtCluster;
import java.util.List;

/**
 * What the harness needs from the in-memory cluster besides the ports: set-up, a producer, the
 * retention that trims queues, and the simulated clock. Implemented over adapter-inmemory.
 */
interface SimCluster {

  /** The ports, exactly as the Spark adapter would get them. */
  YtCluster ports();

  void createQueue(QueueId queue, int partitions);

  void createConsumer(ConsumerId consumer, List<QueueId> queues);

  void createOrderedTable(YPath table, List<String> columns);

  void createSortedTable(YPath table, List<String> keyColumns, List<String> valueColumns);

  /** Appends rows to one queue partition (a producer outside the query). */
  void append(QueueId queue, int partition, List<Row> rows);

  /** Reshards a queue to {@code partitions} partitions (only ever more). */
  void reshard(QueueId queue, int partitions);

  /** Trims a partition: rows below {@code trimmedRowCount} are gone. */
  void trim(QueueId queue, int partition, long trimmedRowCount);

  /** The most rows one transaction may write to one tablet (YTsaurus default 100,000). */
  void setMaxRowsPerTabletTransaction(long limit);

  void advanceClock(long millis);

  /**
   * For the checker: how {@code table} changed since the previous call for it (first: all rows).
   */
  TableDelta readChanges(YPath table);

  /** A stamp that changes whenever the consumer's offsets may have (a write to its table). */
  long consumerStamp(ConsumerId consumer);
}
