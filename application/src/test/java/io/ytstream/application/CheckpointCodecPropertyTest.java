package io.ytstream.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ytstream.application.checkpoint.BatchRanges;
import io.ytstream.application.checkpoint.MapCheckpointFiles;
import io.ytstream.application.checkpoint.OffsetLogEntry;
import io.ytstream.application.checkpoint.QueryCheckpoint;
import io.ytstream.application.checkpoint.SourceRecord;
import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StartingOffsets;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.ports.CheckpointFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * On the checkpoint a seeded query run leaves behind ({@link SeededQueryRun}): every offsets text
 * ytstream wrote reads back to the same offsets and is written again to the same text (a restart
 * reads what the last driver wrote), and a checkpoint file that is torn (partly written, as an
 * object store can leave it), bit-rotted or another query's is refused with a message naming the
 * file; it never reads as other offsets. The seeded damage is applied to a copy of the run's
 * checkpoint.
 */
class CheckpointCodecPropertyTest {

  private static final String LOCATION = "yt://sim/checkpoint-copy";
  private static final String SOURCE_FILE = "sources/0/" + SourceRecord.FILE;

  private Random random;
  private Consumer<String> violate;

  @Test
  void holdsForEverySeed() {
    int withBatches = 0;
    for (long seed = 1; seed <= 1_000; seed++) {
      List<String> violations = new ArrayList<>();
      SeededQueryRun run = SeededQueryRun.run(new Random(seed));
      random = new Random(seed * 0x2545F4914F6CDD1DL + 41);
      violate = violations::add;
      runCheckpoint(run);
      assertEquals(List.of(), violations, "seed " + seed);
      withBatches += run.files.batches().size() > 1 ? 1 : 0;
    }
    // The draws must reach restarts from several logged batches, not only empty checkpoints.
    assertTrue(withBatches > 300, withBatches + " seeds logged two batches or more");
  }

  private void runCheckpoint(SeededQueryRun run) {
    MapCheckpointFiles files = MapCheckpointFiles.copyOf(run.files, LOCATION);
    List<Long> batches = files.batches();
    for (long n : batches) {
      String path = "offsets/" + n;
      String text = files.text(path);
      List<StreamOffsets> ends;
      try {
        ends = new QueryCheckpoint(files).batchEnd(n);
      } catch (RuntimeException e) {
        violate.accept(path + " as the driver wrote it does not read: " + e);
        return;
      }
      for (StreamOffsets end : ends) {
        String again = OffsetsJson.write(end);
        if (!text.contains(again) || !OffsetsJson.parse(again).equals(end)) {
          violate.accept(path + " reads as " + again + ", not what was written: " + text);
        }
      }
      expectOnePass(path, text.split("\n", -1), 2);
    }
    Optional<String> record = files.textIfPresent(SOURCE_FILE);
    if (record.isPresent()) {
      expectOnePass(SOURCE_FILE, record.get().split("\n", -1), 0);
      try {
        String again = SourceRecord.parse(record.get(), SOURCE_FILE).serialize();
        if (!again.equals(record.get())) {
          violate.accept(SOURCE_FILE + " re-serialized differs: " + again + " vs " + record.get());
        }
      } catch (RuntimeException e) {
        violate.accept(SOURCE_FILE + " as the source wrote it does not read: " + e);
        return;
      }
    }
    if (batches.isEmpty() || record.isEmpty()) {
      return;
    }
    SourcePorts sourcePorts = run.ports();
    freshCheckpoint(run, sourcePorts);
    // Each read a restarted query makes of the intact checkpoint, then of the damaged copy.
    List<Read> reads = new ArrayList<>();
    for (long n : batches) {
      reads.add(new Read("batchEnd " + n, c -> c.batchEnd(n).toString()));
      reads.add(new Read("batchRanges " + n, c -> rangesText(c.batchRanges(n))));
    }
    reads.add(new Read("latestBatchEnd", c -> c.latestBatchEnd().toString()));
    reads.add(new Read("source 0", c -> c.source(0).toString()));
    List<String> intact = new ArrayList<>();
    for (Read read : reads) {
      intact.add(outcome(read, new QueryCheckpoint(files)));
    }
    String started = startText(source(run, sourcePorts, files, Optional.empty()));

    boolean damageLog = random.nextBoolean();
    String path =
        damageLog ? "offsets/" + batches.get(random.nextInt(batches.size())) : SOURCE_FILE;
    String text = files.text(path);
    int kind = random.nextInt(3);
    String damaged;
    String how;
    if (kind == 0 || text.isEmpty()) {
      damaged = text.substring(0, random.nextInt(Math.max(1, text.length())));
      how = "torn after " + damaged.length() + " of " + text.length() + " bytes";
    } else if (kind == 1) {
      // A NUL byte inside the offsets JSON: no valid record has one there.
      int from = text.indexOf("{\"version\"");
      int at = from + 1 + random.nextInt(text.length() - from - 1);
      damaged = text.substring(0, at) + '\0' + text.substring(at);
      how = "a NUL byte at " + at;
    } else if (damageLog) {
      // Another query's entry: the offsets of a queue this query does not read.
      QueueId other = QueueId.of("primary", "//sim/other-query-queue");
      damaged = OffsetLogEntry.of(StreamOffsets.ofQueue(other, Map.of(0, 5L)));
      how = "another query's entry";
    } else {
      SourceRecord stored = SourceRecord.parse(text, SOURCE_FILE);
      damaged =
          new SourceRecord(ConsumerId.of("primary", "//sim/other-consumer"), stored.initial())
              .serialize();
      how = "another consumer's record";
    }
    MapCheckpointFiles copy = files.with(path, damaged);
    String named = LOCATION + "/" + (damageLog ? path : "sources/0");
    for (int i = 0; i < reads.size(); i++) {
      if (intact.get(i).startsWith("!")) {
        continue; // the intact checkpoint refuses this read too
      }
      if (kind == 2
          && !(damageLog && reads.get(i).name.equals("batchRanges " + path.substring(8)))) {
        // Another query's file is well formed: only the reads that know the query's sources can
        // tell, and the start of the query (below) refuses another consumer's record.
        continue;
      }
      String seen = outcome(reads.get(i), new QueryCheckpoint(copy));
      judge(path + " " + how + ", " + reads.get(i).name, intact.get(i), seen, named);
    }
    if (!started.startsWith("!")) {
      judge(
          path + " " + how + ", initialOffset",
          started,
          startText(source(run, sourcePorts, copy, Optional.empty())),
          named);
    }
    long n = batches.get(random.nextInt(batches.size()));
    tornEverywhere(files, n);
    versionLines(files, n, intact.get(2 * batches.indexOf(n)));
    listedButGone(files, batches, reads, intact);
  }

  /**
   * {@code offsets/N} and the source record torn after every byte: each is refused naming the file
   * (no proper prefix of an entry is whole), except the record without its last new line, whose
   * three lines are whole and read as the record.
   */
  private void tornEverywhere(MapCheckpointFiles files, long n) {
    String path = "offsets/" + n;
    String text = files.text(path);
    for (int cut = 0; cut < text.length(); cut++) {
      String seen =
          outcome(new Read("", c -> c.batchEnd(n).toString()), tornCopy(files, path, cut));
      if (!seen.startsWith("!") || !names(seen, LOCATION + "/" + path)) {
        violate.accept(path + " torn after " + cut + " bytes read as " + seen);
        return;
      }
    }
    String record = files.text(SOURCE_FILE);
    String whole = outcome(new Read("", c -> c.source(0).toString()), new QueryCheckpoint(files));
    for (int cut = 0; cut < record.length(); cut++) {
      String seen =
          outcome(new Read("", c -> c.source(0).toString()), tornCopy(files, SOURCE_FILE, cut));
      boolean lastNewLine = cut == record.length() - 1 && record.endsWith("\n");
      if (lastNewLine
          ? !seen.equals(whole)
          : !seen.startsWith("!") || !names(seen, LOCATION + "/" + SOURCE_FILE)) {
        violate.accept(SOURCE_FILE + " torn after " + cut + " bytes read as " + seen);
        return;
      }
    }
  }

  private static QueryCheckpoint tornCopy(MapCheckpointFiles files, String path, int cut) {
    return new QueryCheckpoint(files.with(path, files.text(path).substring(0, cut)));
  }

  /**
   * The version line of {@code offsets/N} is Spark's to judge ({@code OffsetSeqLog} refuses a
   * version it cannot read before a source sees the entry): under any {@code v<digits>} the entry
   * reads as it does under Spark's {@code v1}. A first line of another form, or a file that is only
   * a version line (another tool's), is not an entry: refused naming the file.
   */
  private void versionLines(MapCheckpointFiles files, long n, String intact) {
    String path = "offsets/" + n;
    String text = files.text(path);
    String rest = text.substring(text.indexOf('\n'));
    String version = new String[] {"v0", "v1", "v9", "v10", "v19", "v90", "v99"}[random.nextInt(7)];
    Read read = new Read("", c -> c.batchEnd(n).toString());
    String seen = outcome(read, new QueryCheckpoint(files.with(path, version + rest)));
    if (!seen.equals(intact)) {
      violate.accept(path + " under version line " + version + " read as " + seen);
    }
    String bad =
        new String[] {"", "v", "V1", "1", "vv1", "v1x", "v/", "v:", "v 1", "v1 ", "v-1", "x1"}
            [random.nextInt(12)];
    String foreign = new String[] {"v1", "v1\n", version}[random.nextInt(3)];
    for (String damaged : List.of(bad + rest, foreign)) {
      seen = outcome(read, new QueryCheckpoint(files.with(path, damaged)));
      if (!seen.startsWith("!") || !names(seen, LOCATION + "/" + path)) {
        violate.accept(path + " as '" + damaged + "' read as " + seen);
      }
    }
  }

  /**
   * {@code offsets/N} listed but gone when read (deleted between the listing and the read, as
   * Spark's purge of old entries or another store's lagging listing can leave it): every read the
   * restarted query makes gives the intact answer or is refused naming the file; the entry's own
   * {@code batchEnd} is refused.
   */
  private void listedButGone(
      MapCheckpointFiles files, List<Long> batches, List<Read> reads, List<String> intact) {
    long n = batches.get(random.nextInt(batches.size()));
    String path = "offsets/" + n;
    TreeMap<String, byte[]> without = new TreeMap<>();
    for (String name : files.list("offsets")) {
      files.read("offsets/" + name).ifPresent(b -> without.put("offsets/" + name, b));
    }
    files.read(SOURCE_FILE).ifPresent(b -> without.put(SOURCE_FILE, b));
    without.remove(path);
    MapCheckpointFiles gone =
        new MapCheckpointFiles(without, LOCATION) {
          @Override
          public List<String> list(String directory) {
            return files.list(directory);
          }
        };
    String named = LOCATION + "/" + path;
    for (int i = 0; i < reads.size(); i++) {
      if (intact.get(i).startsWith("!")) {
        continue;
      }
      String seen = outcome(reads.get(i), new QueryCheckpoint(gone));
      judge(path + " listed but gone, " + reads.get(i).name, intact.get(i), seen, named);
      if (reads.get(i).name.equals("batchEnd " + n) && !seen.startsWith("!")) {
        violate.accept(path + " listed but gone read as " + seen);
      }
    }
  }

  /**
   * A new checkpoint on a store that says the source record exists (another driver's, written
   * first) but does not show it yet: the source does not start from an unrecorded position, it
   * refuses naming the record.
   */
  private void laggingStore(SeededQueryRun run, SourcePorts sourcePorts) {
    MapCheckpointFiles lagging =
        new MapCheckpointFiles(new TreeMap<>(), LOCATION) {
          @Override
          public boolean createIfAbsent(String path, byte[] content) {
            return false;
          }
        };
    String seen = startText(source(run, sourcePorts, lagging, Optional.empty()));
    if (!seen.startsWith("!IllegalStateException") || !names(seen, LOCATION + "/" + SOURCE_FILE)) {
      violate.accept("a source record the store has but does not show yet: the start was " + seen);
    }
  }

  /**
   * Every offsets JSON the run wrote into {@code lines} (from line {@code from} on, after an
   * optional {@code initial } key) is canonical: the simulated queues' keys need no escapes, so the
   * writer's contract ({@link OffsetsJson#isCanonical}) says each is read in one pass.
   */
  private void expectOnePass(String path, String[] lines, int from) {
    for (int i = from; i < lines.length; i++) {
      String json = lines[i].startsWith("initial ") ? lines[i].substring(8) : lines[i];
      if (json.startsWith("{\"version\"") && !OffsetsJson.isCanonical(json)) {
        violate.accept(
            path + " line " + i + " as the run wrote it is not read in one pass: " + json);
      }
    }
  }

  /**
   * A new checkpoint on the same consumer: the source starts where the consumer stands and records
   * that start; option {@code starting_timestamp} is refused, naming itself and the consumer, since
   * the consumer already has a position.
   */
  private void freshCheckpoint(SeededQueryRun run, SourcePorts sourcePorts) {
    StreamOffsets consumerNow;
    try {
      consumerNow =
          new AdvanceConsumer(sourcePorts.consumers(), SeededQueryRun.CONSUMER, run.queues).read();
    } catch (RuntimeException e) {
      return; // a queue of the run is gone (re-created): nothing to compare with
    }
    MapCheckpointFiles fresh = new MapCheckpointFiles(new TreeMap<>(), LOCATION);
    StreamingSource.Start start;
    try {
      start = source(run, sourcePorts, fresh, Optional.empty()).initialOffset();
    } catch (IllegalStateException | IllegalArgumentException e) {
      return; // the queues no longer fit the consumer (a re-created queue): the planner's refusal
    } catch (RuntimeException e) {
      violate.accept("a new checkpoint's start failed with " + e);
      return;
    }
    laggingStore(run, sourcePorts);
    if (start.from() != StreamingSource.StartedFrom.CONSUMER) {
      violate.accept("a new checkpoint started from " + start.from() + ", not the consumer");
    }
    consumerNow
        .asMap()
        .forEach(
            (p, o) -> {
              if (start.offsets().getOrDefault(p, -1) != o) {
                violate.accept(
                    "a new checkpoint starts "
                        + p
                        + " at "
                        + start.offsets().get(p)
                        + ", not at the consumer's "
                        + o);
              }
            });
    Optional<SourceRecord> recorded = new QueryCheckpoint(fresh).source(0);
    if (!recorded.equals(Optional.of(new SourceRecord(SeededQueryRun.CONSUMER, start.offsets())))) {
      violate.accept("a new checkpoint recorded " + recorded + " for start " + start.offsets());
    }
    if (consumerNow.isEmpty()) {
      return;
    }
    try {
      StreamingSource.Start byTime =
          source(
                  run,
                  sourcePorts,
                  new MapCheckpointFiles(new TreeMap<>(), LOCATION),
                  Optional.of(new StartingOffsets.AtTimestamp(random.nextLong(1L << 41))))
              .initialOffset();
      violate.accept(
          "starting_timestamp on a consumer with a position started at " + byTime.offsets());
    } catch (IllegalArgumentException e) {
      String m = String.valueOf(e.getMessage());
      if (!m.contains("starting_timestamp")
          || !m.contains(SeededQueryRun.CONSUMER.path().value())) {
        violate.accept("starting_timestamp refused without naming it and the consumer: " + m);
      }
    } catch (RuntimeException e) {
      violate.accept("starting_timestamp on a consumer with a position failed with " + e);
    }
  }

  private static StreamingSource source(
      SeededQueryRun run,
      SourcePorts sourcePorts,
      CheckpointFiles files,
      Optional<StartingOffsets> starting) {
    return new StreamingSource(
        sourcePorts,
        SeededQueryRun.CONSUMER,
        run.queues,
        run.limits,
        starting,
        new QueryCheckpoint(files),
        0);
  }

  /** The damaged checkpoint reads the same as the intact one, or is refused naming the file. */
  private void judge(String what, String intact, String seen, String named) {
    if (seen.equals(intact)) {
      return;
    }
    if (!seen.startsWith("!")) {
      violate.accept(what + " read as other offsets: " + seen + " instead of " + intact);
    } else if (!names(seen, named)) {
      violate.accept(what + " refused without naming " + named + ": " + seen.substring(1));
    }
  }

  /** Whether {@code message} names {@code file} (offsets/1 is not named by offsets/12). */
  static boolean names(String message, String file) {
    for (int at = message.indexOf(file); at >= 0; at = message.indexOf(file, at + 1)) {
      int end = at + file.length();
      if (end == message.length() || !Character.isDigit(message.charAt(end))) {
        return true;
      }
    }
    return false;
  }

  private static String startText(StreamingSource source) {
    try {
      StreamingSource.Start start = source.initialOffset();
      return start.from() + " " + start.offsets();
    } catch (RuntimeException e) {
      return "!" + e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private static String outcome(Read read, QueryCheckpoint checkpoint) {
    try {
      return read.body.apply(checkpoint);
    } catch (RuntimeException e) {
      return "!" + e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  static String rangesText(BatchRanges ranges) {
    return ranges.ranges() + " " + ranges.consumers();
  }

  private record Read(String name, java.util.function.Function<QueryCheckpoint, String> body) {}
}
