package io.ytstream.spark.checkpoint;

import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.OffsetsJson;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What a {@code yt} source records in its own checkpoint folder ({@code <checkpoint>/sources/<i>})
 * the first time it runs: the consumer and the offsets batch 0 starts from. Batch 0 is then
 * replayed from the same offsets after a restart, and the transactional sink finds the consumer and
 * the start of batch 0 here (later batches start where {@code offsets/N-1} ends).
 *
 * <pre>
 * ytstream-source v1
 * consumer primary://home/consumer
 * initial {"version":1,"queues":{...}}
 * </pre>
 */
public record SourceMetadata(ConsumerId consumer, StreamOffsets initial) {

  static final String FILE = "ytstream-source-v1";
  private static final String HEADER = "ytstream-source v1";

  public Set<QueueId> queues() {
    Set<QueueId> queues = new TreeSet<>();
    initial.asMap().keySet().forEach(p -> queues.add(p.queue()));
    return queues;
  }

  String serialize() {
    return HEADER
        + "\nconsumer "
        + consumer.cluster()
        + ":"
        + consumer.path().value()
        + "\ninitial "
        + OffsetsJson.write(initial)
        + "\n";
  }

  static SourceMetadata parse(String text, String where) {
    String[] lines = text.split("\n", -1);
    if (lines.length < 3 || !lines[0].trim().equals(HEADER)) {
      throw new IllegalStateException(
          where
              + " is not a ytstream source file of version 1 (first line '"
              + (lines.length > 0 ? lines[0] : "")
              + "'): was the checkpoint written by another ytstream version? Use a new"
              + " checkpointLocation");
    }
    String consumer = value(lines[1], "consumer", where);
    int colon = consumer.indexOf(':');
    if (colon <= 0) {
      throw new IllegalStateException(where + ": bad consumer '" + consumer + "'");
    }
    return new SourceMetadata(
        new ConsumerId(consumer.substring(0, colon), YPath.of(consumer.substring(colon + 1))),
        OffsetsJson.parse(value(lines[2], "initial", where)));
  }

  private static String value(String line, String key, String where) {
    if (!line.startsWith(key + " ")) {
      throw new IllegalStateException(
          where + ": expected a '" + key + "' line, got '" + line + "'");
    }
    return line.substring(key.length() + 1).trim();
  }

  public static Optional<SourceMetadata> read(Path sourceDir, Configuration conf) {
    Path file = new Path(sourceDir, FILE);
    try {
      FileSystem fs = file.getFileSystem(conf);
      if (!fs.exists(file)) {
        return Optional.empty();
      }
      try (InputStream in = fs.open(file)) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return Optional.of(parse(bytes.toString(StandardCharsets.UTF_8), file.toString()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
    }
  }

  /**
   * Writes the file unless it exists; returns what is stored afterwards (an earlier driver's file
   * wins, so batch 0 keeps its start offsets).
   */
  public SourceMetadata writeIfAbsent(Path sourceDir, Configuration conf) {
    Path file = new Path(sourceDir, FILE);
    try {
      FileSystem fs = file.getFileSystem(conf);
      fs.mkdirs(sourceDir);
      Path tmp = new Path(sourceDir, "." + FILE + ".tmp");
      try (OutputStream out = fs.create(tmp, true)) {
        out.write(serialize().getBytes(StandardCharsets.UTF_8));
      }
      boolean renamed;
      try {
        renamed = fs.rename(tmp, file);
      } catch (FileAlreadyExistsException e) {
        renamed = false;
      }
      if (!renamed) {
        fs.delete(tmp, false);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
    return read(sourceDir, conf).orElseThrow();
  }
}
