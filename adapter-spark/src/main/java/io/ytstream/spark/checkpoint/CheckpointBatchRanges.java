package io.ytstream.spark.checkpoint;

import io.ytstream.application.PlanMicroBatch;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetRange;
import io.ytstream.core.model.OffsetsJson;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The ranges batch N read, found in the query's checkpoint: the sink's commit is not told the
 * source's offsets, but Spark writes {@code offsets/N} before the batch runs. Batch N reads from
 * the end of {@code offsets/N-1} (for N = 0: the start the source recorded in its folder) to the
 * end in {@code offsets/N}. Everything here survives a driver restart; nothing lives in memory
 * between batches.
 */
public record CheckpointBatchRanges(List<OffsetRange> ranges, Map<QueueId, ConsumerId> consumers) {

  public static CheckpointBatchRanges read(Path checkpointRoot, Configuration conf, long batchId) {
    try {
      FileSystem fs = checkpointRoot.getFileSystem(conf);
      List<SourceMetadata> sources = new ArrayList<>();
      Path sourcesDir = new Path(checkpointRoot, "sources");
      if (fs.exists(sourcesDir)) {
        for (FileStatus dir : fs.listStatus(sourcesDir)) {
          if (dir.isDirectory()) {
            SourceMetadata.read(dir.getPath(), conf).ifPresent(sources::add);
          }
        }
      }
      List<StreamOffsets> ends = ytOffsets(fs, new Path(checkpointRoot, "offsets/" + batchId));
      List<StreamOffsets> starts =
          batchId == 0
              ? List.of()
              : ytOffsets(fs, new Path(checkpointRoot, "offsets/" + (batchId - 1)));
      List<OffsetRange> ranges = new ArrayList<>();
      Map<QueueId, ConsumerId> consumers = new TreeMap<>();
      for (StreamOffsets end : ends) {
        Set<QueueId> queues = queuesOf(end);
        SourceMetadata source =
            sources.stream()
                .filter(s -> s.queues().containsAll(queues))
                .findFirst()
                .orElseThrow(
                    () ->
                        new IllegalStateException(
                            "offsets/"
                                + batchId
                                + " of "
                                + checkpointRoot
                                + " reads "
                                + queues
                                + " but no yt source folder under sources/ records them: the"
                                + " checkpoint is damaged or was written by another version"));
        StreamOffsets start =
            starts.stream()
                .filter(s -> queuesOf(s).equals(queues))
                .findFirst()
                .orElse(source.initial());
        ranges.addAll(PlanMicroBatch.ranges(start, end));
        queues.forEach(q -> consumers.put(q, source.consumer()));
      }
      return new CheckpointBatchRanges(List.copyOf(ranges), consumers);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the offset log of batch " + batchId + " under " + checkpointRoot, e);
    }
  }

  private static Set<QueueId> queuesOf(StreamOffsets offsets) {
    Set<QueueId> queues = new TreeSet<>();
    offsets.asMap().keySet().forEach(p -> queues.add(p.queue()));
    return queues;
  }

  /** The yt sources' entries of one offset log file (other sources' lines are skipped). */
  private static List<StreamOffsets> ytOffsets(FileSystem fs, Path file) throws IOException {
    if (!fs.exists(file)) {
      throw new IllegalStateException(
          "the offset log entry " + file + " is missing: the checkpoint is damaged");
    }
    String text;
    try (InputStream in = fs.open(file)) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      in.transferTo(bytes);
      text = bytes.toString(StandardCharsets.UTF_8);
    }
    String[] lines = text.split("\n", -1);
    List<StreamOffsets> out = new ArrayList<>();
    // Line 0 is the log version, line 1 Spark's metadata; then one line per source.
    for (int i = 2; i < lines.length; i++) {
      Optional<StreamOffsets> parsed = parseYtLine(lines[i]);
      parsed.filter(o -> !o.isEmpty()).ifPresent(out::add);
    }
    return out;
  }

  static Optional<StreamOffsets> parseYtLine(String line) {
    int at = line.indexOf("{\"version\":" + OffsetsJson.VERSION + ",\"queues\"");
    if (at < 0) {
      return Optional.empty();
    }
    int depth = 0;
    boolean inString = false;
    for (int i = at; i < line.length(); i++) {
      char c = line.charAt(i);
      if (inString) {
        if (c == '\\') {
          i++;
        } else if (c == '"') {
          inString = false;
        }
      } else if (c == '"') {
        inString = true;
      } else if (c == '{') {
        depth++;
      } else if (c == '}' && --depth == 0) {
        return Optional.of(OffsetsJson.parse(line.substring(at, i + 1)));
      }
    }
    throw new IllegalStateException("unterminated yt offsets in the offset log: " + line);
  }
}
