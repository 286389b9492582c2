package io.ytstream.spark;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.emulator.YtEmulator;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-memory cluster behind a {@link YtEmulator}, reached in-process: the test sets tables up,
 * produces rows, injects faults and looks inside here, while Spark reaches the same cluster only
 * over HTTP ({@link #url()}, through adapter-ytsaurus).
 */
final class EmulatorCluster {

  final YtEmulator emulator;
  final InMemoryCluster cluster;

  EmulatorCluster(YtEmulator emulator) {
    this.emulator = emulator;
    this.cluster = emulator.cluster();
  }

  String url() {
    return emulator.url();
  }

  EmulatorCluster queue(String path, int tablets) {
    cluster.createOrderedTable(YPath.of(path), TestCluster.QUEUE_COLUMNS, tablets);
    return this;
  }

  EmulatorCluster consumer(String consumer, String queue) {
    if (!cluster.exists(YPath.of(consumer))) {
      cluster.createConsumer(YPath.of(consumer));
    }
    cluster.registerConsumer(YPath.of(queue), YPath.of(consumer), true);
    return this;
  }

  EmulatorCluster orderedTable(String path, int tablets) {
    cluster.createOrderedTable(YPath.of(path), TestCluster.QUEUE_COLUMNS, tablets);
    return this;
  }

  EmulatorCluster sortedTable(String path, List<Column> columns) {
    cluster.createSortedTable(YPath.of(path), columns);
    return this;
  }

  /** Appends rows {@code id = from .. to-1} (payload "p<id>") to one tablet of a queue. */
  void produce(String queue, int tablet, long from, long to) {
    List<Row> rows = new ArrayList<>();
    for (long id = from; id < to; id++) {
      rows.add(Row.of("$tablet_index", (long) tablet, "id", id, "payload", "p" + id));
    }
    cluster.outputTables().append(YPath.of(queue), rows);
  }

  List<Row> rows(String table) {
    return cluster.outputTables().readAll(YPath.of(table));
  }

  List<Long> ids(String table) {
    List<Long> ids = new ArrayList<>();
    for (Row r : rows(table)) {
      ids.add((Long) r.get("id"));
    }
    ids.sort(Long::compare);
    return ids;
  }

  StreamOffsets consumerOffsets(String consumer, String queue) {
    return cluster
        .consumerOffsets()
        .read(
            new ConsumerId(cluster.name(), YPath.of(consumer)),
            new QueueId(cluster.name(), YPath.of(queue)));
  }

  long consumerTotal(String consumer, String queue) {
    return consumerOffsets(consumer, queue).total();
  }

  /** The newest numbered entry of a checkpoint log directory, -1 when there is none. */
  long newest(String dir) {
    YPath path = YPath.of(dir);
    if (cluster.checkpoints().status(path).isEmpty()) {
      return -1;
    }
    long max = -1;
    for (String name : cluster.checkpoints().list(path)) {
      if (name.matches("[0-9]+")) {
        max = Math.max(max, Long.parseLong(name));
      }
    }
    return max;
  }

  /**
   * Deletes the newest {@code commits/N} when it matches the newest {@code offsets/N}: a driver
   * that stopped after the sink committed batch N but before Spark logged it. Returns whether it
   * did.
   */
  boolean dropLastCommitIfLogged(String checkpointRoot) {
    long offsets = newest(checkpointRoot + "/offsets");
    long commits = newest(checkpointRoot + "/commits");
    if (offsets < 0 || offsets != commits) {
      return false;
    }
    cluster
        .checkpoints()
        .delete(YPath.of(checkpointRoot).child("commits").child(Long.toString(commits)), false);
    return true;
  }
}
