package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.application.checkpoint.MapCheckpointFiles;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.checkpoint.SourceRecord;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.PartitionBounds;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import io.ytstream.core.model.YtTimestamps;
import io.ytstream.ports.QueueRow;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * On the cluster a seeded query run leaves behind ({@link SeededQueryRun}): where a new query
 * starts when the user gives option {@code starting_offsets} or {@code starting_timestamp}.
 *
 * <ul>
 *   <li>On a consumer registered for the queues but without a position, the new checkpoint starts
 *       where the option says, records that start with the consumer, says where the start came
 *       from, and leaves the consumer where it was. The expected start is found here from the
 *       queue's bounds and rows: {@code earliest} is each partition's first readable row, {@code
 *       latest} its end, given offsets are themselves ({@code -2} earliest, {@code -1} latest), and
 *       a time is the first row whose {@code $timestamp} is at or after the time's whole second,
 *       found by reading every row (the source searches by halves).
 *   <li>An offset past a partition's end is refused, naming the option, the queue and the
 *       partition.
 *   <li>On the run's consumer, which has a position, {@code starting_offsets} is refused, naming
 *       the option and the consumer (the consumer is the position).
 * </ul>
 */
class NewQueryStartPropertyTest {

  /** A consumer the run never used: registered for the queues, with no offsets. */
  static final ConsumerId NEW_CONSUMER = ConsumerId.of("primary", "//sim/consumer-new");

  private static final String LOCATION = "yt://sim/checkpoint-new";
  private static final int PULL = 64;

  private Random random;
  private SeededQueryRun run;
  private SourcePorts ports;
  private Consumer<String> violate;

  @Test
  void holdsForEverySeed() {
    for (long seed = 1; seed <= 1_000; seed++) {
      List<String> violations = new ArrayList<>();
      run = SeededQueryRun.run(new Random(seed));
      ports = run.ports();
      random = new Random(seed * 0x9E3779B97F4A7C15L + 43);
      violate = violations::add;
      TreeMap<PartitionId, PartitionBounds> bounds = new TreeMap<>();
      for (QueueId queue : run.queues) {
        for (PartitionBounds b : ports.metadata().partitions(queue)) {
          bounds.put(new PartitionId(queue, b.index()), b);
        }
      }
      refusedWhereTheConsumerHasAPosition();
      newConsumer(bounds);
      assertEquals(List.of(), violations, "seed " + seed);
    }
  }

  private void refusedWhereTheConsumerHasAPosition() {
    StreamOffsets consumerNow;
    try {
      consumerNow =
          new AdvanceConsumer(ports.consumers(), SeededQueryRun.CONSUMER, run.queues).read();
    } catch (RuntimeException e) {
      return;
    }
    if (consumerNow.isEmpty()) {
      return;
    }
    StartingOffsets starting = random.nextBoolean() ? new StartingOffsets.Earliest() : latest();
    try {
      StreamingSource.Start start =
          source(
                  SeededQueryRun.CONSUMER,
                  starting,
                  new MapCheckpointFiles(new TreeMap<>(), LOCATION))
              .initialOffset();
      violate.accept(
          "starting_offsets on a consumer with a position ("
              + consumerNow.asMap()
              + ") started at "
              + start.offsets()
              + " instead of being refused");
    } catch (IllegalArgumentException e) {
      String m = String.valueOf(e.getMessage());
      if (!m.contains("starting_offsets") || !m.contains(SeededQueryRun.CONSUMER.path().value())) {
        violate.accept("starting_offsets refused without naming it and the consumer: " + m);
      }
    } catch (RuntimeException e) {
      violate.accept("starting_offsets on a consumer with a position failed with " + e);
    }
  }

  private void newConsumer(TreeMap<PartitionId, PartitionBounds> bounds) {
    run.cluster.createConsumer(NEW_CONSUMER.path());
    for (QueueId q : run.queues) {
      run.cluster.registerConsumer(q.path(), NEW_CONSUMER.path(), true);
    }
    int kind = random.nextInt(run.timestamps ? 4 : 3);
    StartingOffsets starting;
    TreeMap<PartitionId, Long> expected = new TreeMap<>();
    Optional<PartitionId> pastEnd = Optional.empty();
    switch (kind) {
      case 0 -> {
        starting = new StartingOffsets.Earliest();
        bounds.forEach((p, b) -> expected.put(p, b.trimmedRowCount()));
      }
      case 1 -> {
        starting = latest();
        bounds.forEach((p, b) -> expected.put(p, b.totalRowCount()));
      }
      case 2 -> {
        Map<YPath, Map<Integer, Long>> given = new TreeMap<>();
        List<PartitionId> partitions = new ArrayList<>(bounds.keySet());
        if (!partitions.isEmpty() && random.nextInt(8) == 0) {
          pastEnd = Optional.of(partitions.get(random.nextInt(partitions.size())));
        }
        for (Map.Entry<PartitionId, PartitionBounds> e : bounds.entrySet()) {
          PartitionBounds b = e.getValue();
          long offset;
          long expect;
          int draw = random.nextInt(8);
          if (pastEnd.isPresent() && pastEnd.get().equals(e.getKey())) {
            offset = b.totalRowCount() + 1 + random.nextInt(5);
            expect = offset;
          } else if (draw == 0) {
            offset = StartingOffsets.EARLIEST;
            expect = b.trimmedRowCount();
          } else if (draw == 1) {
            offset = StartingOffsets.LATEST;
            expect = b.totalRowCount();
          } else {
            offset = random.nextLong(b.trimmedRowCount(), b.totalRowCount() + 1);
            expect = offset;
          }
          given
              .computeIfAbsent(e.getKey().queue().path(), q -> new TreeMap<>())
              .put(e.getKey().index(), offset);
          expected.put(e.getKey(), expect);
        }
        starting = new StartingOffsets.Specific(given);
      }
      default -> {
        long epochMillis = timeToStartAt(bounds);
        starting = new StartingOffsets.AtTimestamp(epochMillis);
        long target = YtTimestamps.lowestAtEpochMillis(epochMillis);
        bounds.forEach((p, b) -> expected.put(p, firstRowAtOrAfter(p, b, target)));
      }
    }
    StreamingSource.Start start;
    MapCheckpointFiles files = new MapCheckpointFiles(new TreeMap<>(), LOCATION);
    try {
      start = source(NEW_CONSUMER, starting, files).initialOffset();
    } catch (IllegalArgumentException e) {
      String m = String.valueOf(e.getMessage());
      if (pastEnd.isEmpty()) {
        violate.accept("a new query by " + starting + " was refused: " + m);
      } else if (!m.contains("starting_offsets")
          || !m.contains(pastEnd.get().queue().path().value())
          || !m.contains("partition " + pastEnd.get().index())) {
        violate.accept(
            "starting_offsets past the end of "
                + pastEnd.get()
                + " refused without naming the option, the queue and the partition: "
                + m);
      }
      return;
    } catch (RuntimeException e) {
      violate.accept("a new query by " + starting + " failed with " + e);
      return;
    }
    if (pastEnd.isPresent()) {
      violate.accept(
          "starting_offsets past the end of " + pastEnd.get() + " started at " + start.offsets());
      return;
    }
    StreamOffsets want = StreamOffsets.of(expected);
    if (!start.offsets().equals(want)) {
      violate.accept(
          "a new query by " + starting + " starts at " + start.offsets() + ", expected " + want);
    }
    StreamingSource.StartedFrom from =
        starting instanceof StartingOffsets.AtTimestamp
            ? StreamingSource.StartedFrom.STARTING_TIMESTAMP
            : StreamingSource.StartedFrom.STARTING_OFFSETS;
    if (start.from() != from) {
      violate.accept("a new query by " + starting + " says it started from " + start.from());
    }
    Optional<SourceRecord> recorded = new QueryCheckpoint(files).source(0);
    if (!recorded.equals(Optional.of(new SourceRecord(NEW_CONSUMER, start.offsets())))) {
      violate.accept("a new query by " + starting + " recorded " + recorded);
    }
    StreamOffsets consumerAfter =
        new AdvanceConsumer(ports.consumers(), NEW_CONSUMER, run.queues).read();
    if (!consumerAfter.isEmpty()) {
      violate.accept("a new query's start moved its consumer to " + consumerAfter);
    }
  }

  private static StartingOffsets latest() {
    return new StartingOffsets.Latest();
  }

  /** Near a row's time (a second either side), or any time when the queues hold no row. */
  private long timeToStartAt(TreeMap<PartitionId, PartitionBounds> bounds) {
    List<Long> times = new ArrayList<>();
    bounds.forEach(
        (p, b) -> {
          for (QueueRow row : rows(p, b)) {
            row.timestamp().ifPresent(t -> times.add(YtTimestamps.toEpochMillis(t)));
          }
        });
    if (times.isEmpty()) {
      return random.nextLong(1L << 41);
    }
    return times.get(random.nextInt(times.size())) + random.nextLong(-1_000, 1_001);
  }

  /** The first row of the partition whose {@code $timestamp} is {@code target} or later. */
  private long firstRowAtOrAfter(PartitionId p, PartitionBounds b, long target) {
    for (QueueRow row : rows(p, b)) {
      if (Long.compareUnsigned(row.timestamp().orElseThrow(), target) >= 0) {
        return row.rowIndex();
      }
    }
    return b.totalRowCount();
  }

  private List<QueueRow> rows(PartitionId p, PartitionBounds b) {
    List<QueueRow> out = new ArrayList<>();
    long next = b.trimmedRowCount();
    while (next < b.totalRowCount()) {
      List<QueueRow> got = ports.rangeReader().pull(p, next, PULL);
      if (got.isEmpty()) {
        break;
      }
      out.addAll(got);
      next = got.get(got.size() - 1).rowIndex() + 1;
    }
    return out;
  }

  private StreamingSource source(
      ConsumerId consumer, StartingOffsets starting, MapCheckpointFiles files) {
    return new StreamingSource(
        ports,
        consumer,
        run.queues,
        run.limits,
        Optional.of(starting),
        new QueryCheckpoint(files),
        0);
  }
}
