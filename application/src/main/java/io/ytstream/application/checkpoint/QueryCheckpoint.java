package io.ytstream.application.checkpoint;

import io.ytstream.application.DrivingUseCase;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.plan.RangesBetween;
import io.ytstream.ports.CheckpointFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What ytstream reads and writes of a query's checkpoint, in the format that ships: its own source
 * record under {@code sources/<i>}, and Spark's offset log {@code offsets/N}. Everything here
 * survives a driver restart; nothing lives in memory between batches. The Spark adapter and the
 * simulation read and write the same files through this class; the producer sink's writer factory
 * calls {@link #latestBatchEnd} itself.
 */
@DrivingUseCase
public final class QueryCheckpoint {

  private static final String OFFSETS = "offsets";
  private static final String SOURCES = "sources";

  private final CheckpointFiles files;

  public QueryCheckpoint(CheckpointFiles files) {
    this.files = Objects.requireNonNull(files, "files");
  }

  /** Where the checkpoint is, for messages. */
  public String location() {
    return files.location();
  }

  /** The record of source {@code sourceIndex}, when it has written one. */
  public Optional<SourceRecord> source(int sourceIndex) {
    String path = sourcePath(sourceIndex);
    return files
        .read(path)
        .map(b -> SourceRecord.parse(new String(b, StandardCharsets.UTF_8), where(path)));
  }

  /**
   * Writes the record of source {@code sourceIndex} unless one exists; returns what is stored
   * afterwards (an earlier driver's record wins, so batch 0 keeps its start offsets).
   */
  public SourceRecord recordSource(int sourceIndex, SourceRecord record) {
    files.createIfAbsent(
        sourcePath(sourceIndex), record.serialize().getBytes(StandardCharsets.UTF_8));
    return source(sourceIndex)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    where(sourcePath(sourceIndex)) + " is missing right after it was written"));
  }

  /**
   * Writes the record of source {@code sourceIndex} unless one exists, without reading it back;
   * true when this call wrote it.
   */
  public boolean recordSourceIfAbsent(int sourceIndex, SourceRecord record) {
    return files.createIfAbsent(
        sourcePath(sourceIndex), record.serialize().getBytes(StandardCharsets.UTF_8));
  }

  /** The newest batch of the offset log, when there is one. */
  public Optional<Long> latestBatch() {
    long latest = -1;
    for (String name : files.list(OFFSETS)) {
      if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
        latest = Math.max(latest, Long.parseLong(name));
      }
    }
    return latest < 0 ? Optional.empty() : Optional.of(latest);
  }

  /**
   * The yt sources' offsets at the end of batch {@code batchId}, in the order of the query's
   * sources.
   *
   * @throws IllegalStateException when the entry is missing or damaged, naming the file
   */
  public List<StreamOffsets> batchEnd(long batchId) {
    String path = OFFSETS + "/" + batchId;
    byte[] entry =
        files
            .read(path)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the offset log entry "
                            + where(path)
                            + " is missing: the checkpoint is damaged"));
    try {
      return OffsetLogEntry.ytOffsets(new String(entry, StandardCharsets.UTF_8));
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new IllegalStateException(
          "the offset log entry "
              + where(path)
              + " is damaged or not Spark's: "
              + e.getMessage()
              + ". Restore the file or use a new checkpointLocation",
          e);
    }
  }

  /**
   * The ranges batch {@code batchId} reads: from the end of {@code offsets/N-1} (for N = 0, or a
   * source that was not in the query then: the start its record holds) to the end in {@code
   * offsets/N}.
   *
   * @throws IllegalStateException when the log or a source record is missing
   */
  public BatchRanges batchRanges(long batchId) {
    List<SourceRecord> sources = sources();
    List<StreamOffsets> ends = batchEnd(batchId);
    List<StreamOffsets> starts = batchId == 0 ? List.of() : batchEnd(batchId - 1);
    List<OffsetRange> ranges = new ArrayList<>();
    Map<QueueId, ConsumerId> consumers = new TreeMap<>();
    for (StreamOffsets end : ends) {
      Set<QueueId> queues = queuesOf(end);
      SourceRecord source =
          sources.stream()
              .filter(s -> s.queues().containsAll(queues))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          where(OFFSETS + "/" + batchId)
                              + " reads "
                              + queues
                              + " but no yt source folder under sources/ records them: the"
                              + " checkpoint is damaged or was written by another version"));
      StreamOffsets start =
          starts.stream()
              .filter(s -> queuesOf(s).equals(queues))
              .findFirst()
              .orElse(source.initial());
      ranges.addAll(RangesBetween.of(start, end));
      queues.forEach(q -> consumers.put(q, source.consumer()));
    }
    return new BatchRanges(ranges, consumers);
  }

  /**
   * The newest batch of the offset log and its end over every yt source of the query. When Spark
   * asks a sink for a batch's writer it has just written that batch's {@code offsets/N} (a new
   * batch) or found it without {@code commits/N} (a replay), so the newest entry is the batch about
   * to run.
   */
  public Optional<BatchEnd> latestBatchEnd() {
    Optional<Long> latest = latestBatch();
    if (latest.isEmpty()) {
      return Optional.empty();
    }
    StreamOffsets end = StreamOffsets.empty();
    for (StreamOffsets source : batchEnd(latest.get())) {
      end = end.overlay(source);
    }
    return Optional.of(new BatchEnd(latest.get(), end));
  }

  private List<SourceRecord> sources() {
    List<SourceRecord> out = new ArrayList<>();
    for (String name : files.list(SOURCES)) {
      String path = SOURCES + "/" + name + "/" + SourceRecord.FILE;
      files
          .read(path)
          .ifPresent(
              b -> out.add(SourceRecord.parse(new String(b, StandardCharsets.UTF_8), where(path))));
    }
    return out;
  }

  private static String sourcePath(int sourceIndex) {
    return SOURCES + "/" + sourceIndex + "/" + SourceRecord.FILE;
  }

  private String where(String path) {
    String root = files.location();
    return root.endsWith("/") ? root + path : root + "/" + path;
  }

  private static Set<QueueId> queuesOf(StreamOffsets offsets) {
    Set<QueueId> queues = new TreeSet<>();
    offsets.asMap().keySet().forEach(p -> queues.add(p.queue()));
    return queues;
  }
}
