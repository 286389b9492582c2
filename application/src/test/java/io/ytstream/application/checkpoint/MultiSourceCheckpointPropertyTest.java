package io.ytstream.application.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.RangesBetween;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * For a query of several sources (the simulation's query has one): a seed-drawn checkpoint of 1-3
 * yt sources over their own queues, with other sources' lines ({@code -}, a Kafka-like offset)
 * between theirs in Spark's offset log, reads each batch's ranges from the previous batch's end of
 * the same source (batch 0: the source's recorded start), each queue with its source's consumer,
 * and the newest batch's end over all of them.
 */
class MultiSourceCheckpointPropertyTest {

  @Test
  void holdsForEverySeed() {
    for (long seed = 1; seed <= 1_000; seed++) {
      List<String> violations = new ArrayList<>();
      random = new Random(seed);
      violate = violations::add;
      checkSeed();
      assertEquals(List.of(), violations, "seed " + seed);
    }
  }

  private Random random;
  private Consumer<String> violate;

  private void checkSeed() {
    checkOne();
  }

  private void checkOne() {
    int ytSources = 1 + random.nextInt(3);
    int batches = 1 + random.nextInt(3);
    List<ConsumerId> consumers = new ArrayList<>();
    List<StreamOffsets> initial = new ArrayList<>();
    // ends.get(b).get(s): the end of batch b for yt source s.
    List<List<StreamOffsets>> ends = new ArrayList<>();
    TreeMap<String, byte[]> files = new TreeMap<>();
    for (int s = 0; s < ytSources; s++) {
      consumers.add(ConsumerId.of(random.nextBoolean() ? "primary" : "hume", "//sim/c" + s));
      TreeMap<PartitionId, Long> start = new TreeMap<>();
      int queues = 1 + random.nextInt(2);
      for (int q = 0; q < queues; q++) {
        // Some paths hold what JSON escapes or what the scan for a yt line's end must skip.
        String odd =
            new String[] {"", "", "}", "{brace}", "x\"y", "back\\slash", "\\\"}"}
                [random.nextInt(7)];
        QueueId queue = QueueId.of("primary", "//sim/s" + s + "/q" + q + odd);
        int partitions = 1 + random.nextInt(3);
        for (int p = 0; p < partitions; p++) {
          start.put(new PartitionId(queue, p), (long) random.nextInt(100));
        }
      }
      initial.add(StreamOffsets.of(start));
    }
    List<StreamOffsets> previous = initial;
    for (int b = 0; b < batches; b++) {
      List<StreamOffsets> batch = new ArrayList<>();
      for (StreamOffsets from : previous) {
        TreeMap<PartitionId, Long> end = new TreeMap<>();
        from.asMap().forEach((p, o) -> end.put(p, o + random.nextInt(4)));
        batch.add(StreamOffsets.of(end));
      }
      ends.add(batch);
      previous = batch;
    }
    // The sources' folders: sources/<i> of the query's source i; other sources have none.
    List<Integer> ytIndex = new ArrayList<>();
    int sourceIndex = 0;
    for (int s = 0; s < ytSources; s++) {
      sourceIndex += random.nextInt(2); // a source of another kind before this one
      ytIndex.add(sourceIndex);
      files.put(
          "sources/" + sourceIndex + "/" + SourceRecord.FILE,
          new SourceRecord(consumers.get(s), initial.get(s))
              .serialize()
              .getBytes(StandardCharsets.UTF_8));
      sourceIndex++;
    }
    for (int b = 0; b < batches; b++) {
      StringBuilder entry =
          new StringBuilder("v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":").append(b);
      entry.append(",\"conf\":{}}");
      int s = 0;
      for (int i = 0; i < sourceIndex; i++) {
        entry.append('\n');
        if (s < ytSources && ytIndex.get(s) == i) {
          entry.append(OffsetsJson.write(ends.get(b).get(s++)));
        } else {
          // Another source's offset: none, a Kafka-like one, one whose text has spaces, or a yt
          // line without partitions, which is no yt source's end (batchEnd leaves it out).
          entry.append(
              new String[] {
                    "-",
                    "{\"topic\":{\"0\":" + b + "}}",
                    "{\"path\": \"/data/in box\", \"logOffset\": " + b + "}",
                    OffsetsJson.write(StreamOffsets.empty())
                  }
                  [random.nextInt(4)]);
        }
      }
      files.put("offsets/" + b, entry.toString().getBytes(StandardCharsets.UTF_8));
    }
    QueryCheckpoint checkpoint =
        new QueryCheckpoint(new MapCheckpointFiles(files, "yt://sim/multi"));
    try {
      for (int b = 0; b < batches; b++) {
        List<StreamOffsets> read = checkpoint.batchEnd(b);
        if (!read.equals(ends.get(b))) {
          violate.accept("offsets/" + b + " of " + ytSources + " yt sources read as " + read);
        }
        List<OffsetRange> ranges = new ArrayList<>();
        Map<QueueId, ConsumerId> byQueue = new TreeMap<>();
        for (int s = 0; s < ytSources; s++) {
          StreamOffsets from = b == 0 ? initial.get(s) : ends.get(b - 1).get(s);
          ranges.addAll(RangesBetween.of(from, ends.get(b).get(s)));
          for (PartitionId p : ends.get(b).get(s).asMap().keySet()) {
            byQueue.put(p.queue(), consumers.get(s));
          }
        }
        BatchRanges got = checkpoint.batchRanges(b);
        BatchRanges want = new BatchRanges(ranges, byQueue);
        if (!got.equals(want)) {
          violate.accept(
              "batch "
                  + b
                  + " of "
                  + ytSources
                  + " yt sources reads "
                  + got.ranges()
                  + " "
                  + got.consumers()
                  + ", not "
                  + want.ranges()
                  + " "
                  + want.consumers());
        }
      }
      StreamOffsets all = StreamOffsets.empty();
      for (StreamOffsets end : ends.get(batches - 1)) {
        all = all.overlay(end);
      }
      Optional<BatchEnd> latest = checkpoint.latestBatchEnd();
      if (!latest.equals(Optional.of(new BatchEnd(batches - 1, all)))) {
        violate.accept("the newest batch of " + ytSources + " yt sources reads as " + latest);
      }
      for (int s = 0; s < ytSources; s++) {
        Optional<SourceRecord> record = checkpoint.source(ytIndex.get(s));
        if (!record.equals(Optional.of(new SourceRecord(consumers.get(s), initial.get(s))))) {
          violate.accept("sources/" + ytIndex.get(s) + " reads as " + record);
        }
      }
      if (OffsetLogEntry.ytOffsets(new String(files.get("offsets/0"), StandardCharsets.UTF_8))
              .size()
          != ytSources) {
        violate.accept("offsets/0 does not hold " + ytSources + " yt sources");
      }
    } catch (RuntimeException e) {
      violate.accept("a checkpoint of " + ytSources + " yt sources does not read: " + e);
    }
  }
}
