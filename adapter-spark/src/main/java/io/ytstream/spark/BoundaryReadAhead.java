package io.ytstream.spark;

import io.ytstream.ports.QueueRow;
import io.ytstream.ports.spi.YtCluster;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each queue partition read between two real-time batches, per executor JVM. At a batch
 * boundary a partition's task ends at Spark's deadline, and the next batch's task starts only after
 * the driver has committed and planned (tens to hundreds of milliseconds): rows arriving meanwhile
 * would wait for the new task's first pull. So a task that ended at its deadline hands its position
 * (and any rows pulled but not yet returned) to a {@link PartitionReadAhead}, which goes on
 * pulling; the next task for that partition, if it starts in this JVM at that same offset, takes
 * those rows and returns them at once (as Kafka's source keeps its fetched data in a per-executor
 * pool).
 *
 * <p>Correct whatever Spark does next: rows of an ordered table never change at a given row index,
 * so rows read ahead from offset {@code x} are what any task starting at {@code x} would read; a
 * task starting elsewhere (a retry from an earlier offset), or on another executor, reads as before
 * and the entry is dropped ({@link #LINGER_MS} at most). Memory: at most {@link #MAX_ROWS} rows per
 * partition waiting in this JVM.
 */
final class BoundaryReadAhead {

  private static final Logger LOG = LoggerFactory.getLogger(BoundaryReadAhead.class);

  /** How long a partition is read ahead for a task that has not come (then dropped). */
  static final long LINGER_MS = 3_000;

  /** The most rows held per partition between two batches: ten pulls. */
  static final int MAX_ROWS = 10 * YtRealTimeReader.PULL_ROWS;

  /** The executor JVM's pool, used by {@link YtRealTimeReaderFactory}. */
  static final BoundaryReadAhead SHARED =
      new BoundaryReadAhead(LINGER_MS, MAX_ROWS, System::currentTimeMillis);

  private final ConcurrentHashMap<ReadAheadKey, PartitionReadAhead> waiting =
      new ConcurrentHashMap<>();
  private final long lingerMs;
  private final int maxRows;
  private final LongSupplier clockMs;

  BoundaryReadAhead(long lingerMs, int maxRows, LongSupplier clockMs) {
    this.lingerMs = lingerMs;
    this.maxRows = maxRows;
    this.clockMs = clockMs;
  }

  /**
   * A task ended at its deadline with {@code next} as its offset and {@code unread} pulled but not
   * returned: read on from there. The read-ahead owns {@code cluster} from now on.
   */
  void handOver(ReadAheadKey key, YtCluster cluster, long next, Collection<QueueRow> unread) {
    PartitionReadAhead ahead =
        new PartitionReadAhead(
            cluster,
            key.consumer(),
            key.partition(),
            next,
            unread,
            maxRows,
            lingerMs,
            clockMs,
            ended -> waiting.remove(key, ended));
    PartitionReadAhead before = waiting.put(key, ahead);
    if (before != null) {
      before.discard();
    }
    ahead.start();
  }

  /**
   * The rows read ahead for {@code key}, contiguous from {@code start}: empty if there are none or
   * they begin elsewhere. Ends the read-ahead either way (a pull under way completes first).
   */
  List<QueueRow> claim(ReadAheadKey key, long start) {
    PartitionReadAhead ahead = waiting.remove(key);
    if (ahead == null) {
      return List.of();
    }
    List<QueueRow> rows = ahead.finish();
    if (ahead.from() != start) {
      LOG.debug(
          "read-ahead of {} began at {} but the task starts at {}: dropped",
          key,
          ahead.from(),
          start);
      return List.of();
    }
    return rows;
  }

  /** Partitions being read ahead now (for tests). */
  int waiting() {
    return waiting.size();
  }

  /** Rows held for {@code key} now, -1 if it is not being read ahead (for tests). */
  int held(ReadAheadKey key) {
    PartitionReadAhead ahead = waiting.get(key);
    return ahead == null ? -1 : ahead.held();
  }
}
