package io.ytstream.spark.sink;

import io.ytstream.core.error.YtErrorCode;
import io.ytstream.core.error.YtException;
import io.ytstream.core.model.YPath;
import io.ytstream.core.plan.TaskSplit;
import io.ytstream.ports.TableDescription;
import io.ytstream.ports.TableDescription.Column;
import io.ytstream.ports.spi.YtCluster;
import io.ytstream.spark.config.YtSettings;
import java.util.List;

/**
 * The checks of option {@code producer_path} when the sink is built, before the first batch: each
 * names the option, its value and the fix, and nothing is written when one fails.
 */
final class ProducerSinkChecks {

  /** The key of a queue producer table ({@code yt create queue_producer}). */
  static final List<String> PRODUCER_KEY = List.of("queue_cluster", "queue_path", "session_id");

  private ProducerSinkChecks() {}

  static void check(
      YtCluster cluster, YPath producer, TableDescription output, boolean transactional) {
    if (transactional) {
      throw new IllegalArgumentException(
          "option producer_path = '"
              + producer
              + "' and "
              + YtSettings.TRANSACTIONAL
              + "=true cannot be combined: both make the sink exactly once, the first through"
              + " queue producer sessions without a batch transaction, the second through one"
              + " batch transaction. Remove option producer_path, or set "
              + YtSettings.TRANSACTIONAL
              + "=false");
    }
    if (output.sorted()) {
      throw new IllegalArgumentException(
          "option producer_path = '"
              + producer
              + "' pushes into an ordered queue, but option path = '"
              + output.path()
              + "' is a sorted table. Point option path at a queue (an ordered dynamic table), or"
              + " remove producer_path: a sorted table takes upserts, exactly once when keyed by"
              + " the source position (include_service_columns=true)");
    }
    TableDescription table;
    try {
      table = cluster.tableMetadata().describe(producer);
    } catch (RuntimeException e) {
      if (e instanceof YtException yt && yt.hasCode(YtErrorCode.RESOLVE_ERROR)) {
        throw new IllegalArgumentException(
            "option producer_path = '"
                + producer
                + "': no such queue producer on the cluster. Create it with `yt create"
                + " queue_producer "
                + producer
                + "` (and mount it), or fix the path ("
                + e.getMessage()
                + ")",
            e);
      }
      throw e;
    }
    List<String> keys = table.keyColumns().stream().map(Column::name).toList();
    if (!table.sorted() || !keys.equals(PRODUCER_KEY)) {
      throw new IllegalArgumentException(
          "option producer_path = '"
              + producer
              + "' is not a queue producer (a sorted table keyed by "
              + PRODUCER_KEY
              + "; it has "
              + (table.sorted() ? "key " + keys : "no key")
              + "). Create one with `yt create queue_producer //home/producer` and pass its path,"
              + " or fix the path");
    }
  }

  /**
   * Producer sessions are per write task: a batch run again after a restart is split by that run's
   * options, so a change of them would give a replayed task rows whose first writer was another
   * task, whose session the replay does not look at, and they would land twice. Refused rather than
   * exactly once only while the options stay.
   */
  static IllegalArgumentException splitSource(YPath producer, TaskSplit split) {
    return new IllegalArgumentException(
        "option producer_path = '"
            + producer
            + "' cannot be combined with the yt source's "
            + split.describe()
            + ": each write task pushes its share of a batch through a producer session of its"
            + " own, and a batch run again after a restart is cut into tasks by the options of"
            + " that run, so a change of them between runs would give a task rows another task"
            + " already pushed, and they would land twice. Remove min_tasks and max_rows_per_task"
            + " from the source (one task per queue partition), or, for exactly once with a"
            + " partition read by several tasks, remove producer_path and set "
            + YtSettings.TRANSACTIONAL
            + "=true, or upsert into a sorted table keyed by the source position"
            + " (include_service_columns=true)");
  }

  /** A static write has no batch id to number rows by. */
  static IllegalArgumentException staticWrite(YPath producer) {
    return new IllegalArgumentException(
        "option producer_path = '"
            + producer
            + "' applies to streaming writes (writeStream), whose batches number the pushes; a"
            + " static write (write().save()) has no batch to number them by. Remove"
            + " producer_path from the static write, or write with writeStream");
  }
}
