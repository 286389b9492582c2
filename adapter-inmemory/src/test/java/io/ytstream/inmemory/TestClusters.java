package io.ytstream.inmemory;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.YPath;
import io.ytstream.ports.Row;
import io.ytstream.ports.contract.Columns;
import java.util.List;

/** A manual-clock cluster with one queue and a registered consumer, for adapter-specific tests. */
final class TestClusters {

  static final YPath QUEUE = YPath.of("//home/q");
  static final YPath CONSUMER = YPath.of("//home/c");

  final ManualClock clock = new ManualClock();
  final InMemoryCluster cluster;
  final QueueId queue;
  final ConsumerId consumer;

  TestClusters(String name, int tablets) {
    cluster = new InMemoryCluster(name, clock);
    cluster.createOrderedTable(
        QUEUE,
        List.of(
            Columns.value("value", "string"),
            Columns.value("$timestamp", "uint64"),
            Columns.value("$cumulative_data_weight", "int64")),
        tablets);
    cluster.createConsumer(CONSUMER);
    cluster.registerConsumer(QUEUE, CONSUMER, true);
    queue = new QueueId(name, QUEUE);
    consumer = new ConsumerId(name, CONSUMER);
  }

  PartitionId partition(int index) {
    return new PartitionId(queue, index);
  }

  static Row row(int tablet, String value) {
    return Row.of("$tablet_index", (long) tablet, "value", value);
  }
}
