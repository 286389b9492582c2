package io.ytstream.application;

import io.ytstream.application.checkpoint.MapCheckpointFiles;
import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.DataLossPolicy;
import io.ytstream.core.plan.PlanLimits;
import io.ytstream.core.plan.TriggerLimit;
import io.ytstream.inmemory.InMemoryCluster;
import io.ytstream.inmemory.ManualClock;
import io.ytstream.ports.Row;
import io.ytstream.ports.TableDescription.Column;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * A query's source run for a few micro-batches in Spark's order over the in-memory cluster, drawn
 * from a seed: 1-3 queues of 1-4 partitions (with {@code $timestamp} in one seed in three), rows
 * arriving between batches, trims up to the consumer or past it, a reshard now and then. It leaves
 * the checkpoint ({@code offsets/N} and the source record) and the cluster that the checkpoint and
 * start property tests read.
 */
final class SeededQueryRun {

  static final ConsumerId CONSUMER = ConsumerId.of("primary", "//sim/consumer");
  static final String LOCATION = "yt://sim/checkpoint";
  private static final long T0 = 1_704_067_200_000L;

  final ManualClock clock = new ManualClock(T0);
  final InMemoryCluster cluster = new InMemoryCluster("primary", clock);
  final List<QueueId> queues = new ArrayList<>();
  final MapCheckpointFiles files = new MapCheckpointFiles(new TreeMap<>(), LOCATION);
  final boolean timestamps;
  final PlanLimits limits;
  private final Random random;
  private final List<Integer> partitions = new ArrayList<>();

  private SeededQueryRun(Random random) {
    this.random = random;
    this.timestamps = random.nextInt(3) == 0;
    this.limits =
        PlanLimits.of(
            1 + random.nextInt(30),
            random.nextBoolean() ? DataLossPolicy.FAIL : DataLossPolicy.SKIP_AND_REPORT);
  }

  /** Runs 0-6 batches; a batch whose planning the queues refuse (data loss) ends the run. */
  static SeededQueryRun run(Random random) {
    SeededQueryRun run = new SeededQueryRun(random);
    run.createQueues();
    run.batches();
    return run;
  }

  SourcePorts ports() {
    return new SourcePorts(
        cluster.queueMetadata(),
        cluster.consumerOffsets(),
        cluster.queueReader(),
        cluster.queueRangeReader(),
        cluster.tableMetadata());
  }

  private void createQueues() {
    int count = 1 + random.nextInt(3);
    cluster.createConsumer(CONSUMER.path());
    for (int q = 0; q < count; q++) {
      QueueId queue = QueueId.of("primary", "//sim/queue" + q);
      List<Column> columns = new ArrayList<>();
      columns.add(new Column("v", "int64", false, true));
      if (timestamps) {
        columns.add(new Column("$timestamp", "uint64", false, false));
      }
      int tablets = 1 + random.nextInt(4);
      cluster.createOrderedTable(queue.path(), columns, tablets);
      cluster.registerConsumer(queue.path(), CONSUMER.path(), true);
      queues.add(queue);
      partitions.add(tablets);
    }
    arrive();
  }

  /** Rows arriving in every partition, the clock moving between appends. */
  private void arrive() {
    for (int q = 0; q < queues.size(); q++) {
      for (int p = 0; p < partitions.get(q); p++) {
        List<Row> rows = new ArrayList<>();
        for (int i = random.nextInt(12); i > 0; i--) {
          rows.add(Row.of("v", random.nextLong(1_000)));
        }
        if (!rows.isEmpty()) {
          cluster.appendToTablet(queues.get(q).path(), p, rows);
        }
        clock.advanceMillis(random.nextInt(1_500));
      }
    }
  }

  private void batches() {
    StreamingSource source =
        new StreamingSource(
            ports(), CONSUMER, queues, limits, Optional.empty(), new QueryCheckpoint(files), 0);
    try {
      StreamOffsets start = source.initialOffset().offsets();
      StreamOffsets previous = null;
      int batches = random.nextInt(7);
      for (long n = 0; n < batches; n++) {
        StreamOffsets end =
            source.latestOffset(start, TriggerLimit.none(), clock.nowMillis()).end();
        if (!end.equals(start)) {
          files.createIfAbsent(
              "offsets/" + n, OffsetLogEntry.of(end).getBytes(StandardCharsets.UTF_8));
          if (previous != null) {
            source.commit(previous);
          }
          previous = end;
          start = end;
        }
        arrive();
        disturb();
      }
    } catch (RuntimeException e) {
      // The queues refused the next batch (rows trimmed unread under fail_on_data_loss): the
      // checkpoint stays as the last batch left it.
    }
  }

  /** Now and then a partition trimmed (up to some rows past its start) or a queue resharded. */
  private void disturb() {
    int q = random.nextInt(queues.size());
    QueueId queue = queues.get(q);
    switch (random.nextInt(6)) {
      case 0 -> {
        int p = random.nextInt(partitions.get(q));
        long total = cluster.partitions(queue.path()).get(p).totalRowCount();
        if (total > 0) {
          cluster.trimRows(queue.path(), p, random.nextLong(total + 1));
        }
      }
      case 1 -> {
        int more = partitions.get(q) + 1 + random.nextInt(2);
        cluster.reshard(queue.path(), more);
        partitions.set(q, more);
      }
      default -> {}
    }
  }
}
