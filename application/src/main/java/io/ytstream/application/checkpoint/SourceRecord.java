package io.ytstream.application.checkpoint;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.ConsumerId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.core.model.YPath;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a {@code yt} source records in its checkpoint folder ({@code
 * sources/<i>/ytstream-source-v1}) the first time it runs: the consumer and the offsets batch 0
 * starts from. Batch 0 is replayed from the same offsets after a restart, and the transactional
 * sink finds the consumer and the start of batch 0 here (later batches start where {@code
 * offsets/N-1} ends).
 *
 * <pre>
 * ytstream-source v1
 * consumer primary://home/consumer
 * initial {"version":1,"queues":{...}}
 * </pre>
 */
public record SourceRecord(ConsumerId consumer, StreamOffsets initial) {

  /** The file's name in the source's folder. */
  public static final String FILE = "ytstream-source-v1";

  private static final String HEADER = "ytstream-source v1";

  public SourceRecord {
    Objects.requireNonNull(consumer, "consumer");
    Objects.requireNonNull(initial, "initial");
  }

  /** The queues batch 0 starts on. */
  public Set<QueueId> queues() {
    Set<QueueId> queues = new TreeSet<>();
    initial.asMap().keySet().forEach(p -> queues.add(p.queue()));
    return queues;
  }

  public String serialize() {
    return HEADER
        + "\nconsumer "
        + consumer.cluster()
        + ":"
        + consumer.path().value()
        + "\ninitial "
        + OffsetsJson.write(initial)
        + "\n";
  }

  /**
   * @param where the file, named in the errors
   * @throws IllegalStateException when the text is not a version 1 record
   */
  public static SourceRecord parse(String text, String where) {
    String[] lines = text.split("\n", -1);
    if (lines.length < 3 || !lines[0].trim().equals(HEADER)) {
      throw new IllegalStateException(
          where
              + " is not a ytstream source file of version 1 (first line '"
              + lines[0] // split gives at least one line
              + "'): was the checkpoint written by another ytstream version? Use a new"
              + " checkpointLocation");
    }
    String consumer = value(lines[1], "consumer", where);
    int colon = consumer.indexOf(':');
    if (colon <= 0) {
      throw new IllegalStateException(where + ": bad consumer '" + consumer + "'");
    }
    String initial = value(lines[2], "initial", where);
    try {
      return new SourceRecord(
          new ConsumerId(consumer.substring(0, colon), YPath.of(consumer.substring(colon + 1))),
          OffsetsJson.parse(initial));
    } catch (IllegalArgumentException e) {
      // A torn or damaged file: say which one, not only what is wrong in it.
      throw new IllegalStateException(
          where + " is damaged: " + e.getMessage() + ". Use a new checkpointLocation", e);
    }
  }

  private static String value(String line, String key, String where) {
    if (!line.startsWith(key + " ")) {
      throw new IllegalStateException(
          where + ": expected a '" + key + "' line, got '" + line + "'");
    }
    return line.substring(key.length() + 1).trim();
  }
}
