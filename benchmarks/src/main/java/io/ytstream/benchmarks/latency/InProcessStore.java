package io.ytstream.benchmarks.latency;

import io.ytstream.core.model.YPath;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.InMemoryClusters;
import io.ytstream.ports.TableDescription.Column;
import java.util.List;

/**
 * The store as an in-memory cluster in this JVM, registered by name so that {@code inmemory:<name>}
 * reaches it; the producer appends to it directly. Also what {@link StoreMain} serves in the child
 * process, behind the emulator.
 */
final class InProcessStore implements LatencyStore {

  static final List<Column> QUEUE_COLUMNS =
      List.of(
          new Column("id", "int64", false, false),
          new Column(LatencyRecorder.SENT_COLUMN, "int64", false, false));

  private final InMemoryCluster cluster;
  private final String address;
  private final boolean registered;

  private InProcessStore(InMemoryCluster cluster, String address, boolean registered) {
    this.cluster = cluster;
    this.address = address;
    this.registered = registered;
  }

  /** A new in-memory cluster named {@code name}, reachable as {@code inmemory:<name>}. */
  static InProcessStore inMemory(String name) {
    InMemoryCluster cluster = InMemoryCluster.withSystemClock(name);
    InMemoryClusters.register(cluster);
    return new InProcessStore(cluster, "inmemory:" + name, true);
  }

  /** The store behind an emulator that serves {@code cluster} at {@code url}. */
  static InProcessStore behind(InMemoryCluster cluster, String url) {
    return new InProcessStore(cluster, url, false);
  }

  @Override
  public String address() {
    return address;
  }

  @Override
  public void createQueue(YPath queue, YPath consumer, int partitions) {
    cluster.createOrderedTable(queue, QUEUE_COLUMNS, partitions);
    cluster.createConsumer(consumer);
    cluster.registerConsumer(queue, consumer, true);
  }

  @Override
  public void createOutput(YPath table, OutputTable kind, int partitions) {
    switch (kind) {
      case ORDERED -> cluster.createOrderedTable(table, QUEUE_COLUMNS, partitions);
      case BY_SOURCE_POSITION ->
          cluster.createSortedTable(
              table,
              List.of(
                  new Column(LatencyBench.TABLET_INDEX, "int64", true, true),
                  new Column(LatencyBench.ROW_INDEX, "int64", true, true),
                  new Column("id", "int64", false, false),
                  new Column(LatencyRecorder.SENT_COLUMN, "int64", false, false)));
      case BY_KEY ->
          cluster.createSortedTable(
              table,
              List.of(
                  new Column(LatencyBench.KEY_COLUMN, "int64", true, true),
                  new Column(LatencyBench.COUNT_COLUMN, "int64", false, false),
                  new Column(LatencyRecorder.SENT_COLUMN, "int64", false, false)));
    }
  }

  @Override
  public Producer startProducer(YPath queue, int partitions, int rate) {
    return QueueProducer.toQueue(cluster, queue, partitions, rate);
  }

  @Override
  public Producer startKafkaProducer(String bootstrap, String topic, int partitions, int rate) {
    return QueueProducer.toTopic(bootstrap, topic, partitions, rate);
  }

  /**
   * Through the checkpoint store, which removes any node (the emulator's {@code remove} does the
   * same); the caller collects, as this store shares its JVM.
   */
  @Override
  public void forget(YPath directory) {
    cluster.checkpoints().delete(directory, true);
  }

  @Override
  public void close() {
    if (registered) {
      InMemoryClusters.remove(cluster.name());
    }
  }
}
