package io.ytstream.simulation;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.TransactionId;
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

  /** Queues created (or re-created) from now on declare {@code $timestamp}. */
  void declareQueueTimestamps();

  void createConsumer(ConsumerId consumer, List<QueueId> queues);

  void createOrderedTable(YPath table, List<String> columns);

  /** An ordered table of {@code tablets} tablets that queue producers push into. */
  void createOutputQueue(YPath queue, List<String> columns, int tablets);

  /** A queue producer: the table that holds the sessions of the writers of a queue. */
  void createQueueProducer(YPath producer);

  /** For the checker: every session row of {@code producer}, in key order. */
  List<Row> producerSessions(YPath producer);

  /** A stamp that changes whenever a session of {@code producer} may have (a write to it). */
  long producerStamp(YPath producer);

  void createSortedTable(YPath table, List<String> keyColumns, List<String> valueColumns);

  /** A static table ({@code dynamic=false}) of int64 columns. */
  void createStaticTable(YPath table, List<String> columns);

  /** Appends rows to one queue partition (a producer outside the query). */
  void append(QueueId queue, int partition, List<Row> rows);

  /** Drops a queue and creates it again with {@code partitions} empty partitions. */
  void recreateQueue(QueueId queue, int partitions);

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

  /** For the checker: whether a tablet or master transaction is still open on the cluster. */
  boolean transactionLive(TransactionId transaction);

  /** A stamp that changes whenever the consumer's offsets may have (a write to its table). */
  long consumerStamp(ConsumerId consumer);
}
