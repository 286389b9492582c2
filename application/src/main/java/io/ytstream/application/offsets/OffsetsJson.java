package io.ytstream.application.offsets;

import io.ytstream.core.model.PartitionId;
import io.ytstream.core.model.QueueId;
import io.ytstream.core.model.StreamOffsets;
import io.ytstream.types.json.JsonReader;
import io.ytstream.types.json.JsonWriter;
import java.util.Map;
import java.util.TreeMap;

/**
 * The versioned text form of {@link StreamOffsets}, as stored in Spark's offset log, in ytstream's
 * own checkpoint record and in a producer session's user_meta:
 *
 * <pre>{"version":1,"queues":{"primary://home/q":{"0":42,"1":7}}}</pre>
 *
 * <p>What {@link #write} produces is read by a single pass over the text ({@link
 * CanonicalOffsetsJson}, the texts {@link #isCanonical} accepts); anything else goes through the
 * general reader ({@link JsonReader}). The parser accepts exactly this shape, rejects any other
 * version (a newer writer's format must not be misread), and names what is wrong and where.
 */
public final class OffsetsJson {

  /** The only version this code writes and reads. */
  public static final int VERSION = 1;

  private OffsetsJson() {}

  @SuppressWarnings("ReferenceEquality") // identity first, equals when the objects differ
  public static String write(StreamOffsets offsets) {
    int n = offsets.size();
    StringBuilder out = new StringBuilder(64 + n * 20);
    out.append("{\"version\":").append(VERSION).append(",\"queues\":{");
    QueueId current = null;
    for (int i = 0; i < n; i++) {
      PartitionId partition = offsets.partitionAt(i);
      QueueId queue = partition.queue();
      if (queue != current && !queue.equals(current)) {
        if (current != null) {
          out.append("},");
        }
        JsonWriter.appendString(out, queue.key());
        out.append(":{");
        current = queue;
      } else {
        out.append(',');
      }
      out.append('"').append(partition.index()).append("\":").append(offsets.offsetAt(i));
    }
    if (current != null) {
      out.append('}');
    }
    return out.append("}}").toString();
  }

  /**
   * Parses the versioned form.
   *
   * @throws IllegalArgumentException naming the problem, for malformed input or an unknown version
   */
  public static StreamOffsets parse(String json) {
    if (json == null || json.isBlank()) {
      throw new IllegalArgumentException("offsets JSON is empty");
    }
    StreamOffsets canonical = CanonicalOffsetsJson.parse(json);
    return canonical != null ? canonical : parseGeneral(json);
  }

  /**
   * Whether {@code json} is in the canonical shape, which {@link #parse} reads in one pass without
   * the general reader: {@code "version":1} first, then {@code "queues"}, an object of queues in
   * ascending order, each an object (empty or not) of its partitions in ascending order; queue keys
   * without escapes; partition keys and offsets plain decimal integers (no sign, fraction, exponent
   * or leading zero, an index at most {@link Integer#MAX_VALUE}, an offset at most {@link
   * Long#MAX_VALUE}); white space (space, tab, CR, LF) anywhere JSON allows it, except inside the
   * quotes of a partition key.
   *
   * <p>This is the writer's contract with the reader: every text {@link #write} returns is
   * canonical, unless a queue key holds a character JSON escapes ({@code "}, {@code \} or a control
   * character), and a canonical text reads to the same offsets as the general reader reads it. A
   * text that is not canonical may still be valid offsets: {@link #parse} reads it the general way.
   */
  public static boolean isCanonical(String json) {
    return json != null && CanonicalOffsetsJson.parse(json) != null;
  }

  /** The general reader: any key order, escapes, white space; words every error. */
  static StreamOffsets parseGeneral(String json) {
    Object root;
    try {
      root = JsonReader.read(json);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "offsets JSON is malformed: " + e.getMessage() + " in: " + abbreviate(json), e);
    }
    if (!(root instanceof Map<?, ?> top)) {
      throw new IllegalArgumentException(
          "offsets JSON must be an object, got: " + abbreviate(json));
    }
    Object version = top.get("version");
    if (!(version instanceof Long v)) {
      throw new IllegalArgumentException(
          "offsets JSON has no integer \"version\" field: " + abbreviate(json));
    }
    if (v != VERSION) {
      throw new IllegalArgumentException(
          "offsets JSON has version "
              + v
              + ", but this ytstream reads version "
              + VERSION
              + " only; was the checkpoint written by a newer ytstream? Use that version or a new"
              + " checkpointLocation");
    }
    for (Object key : top.keySet()) {
      if (!"version".equals(key) && !"queues".equals(key)) {
        throw new IllegalArgumentException(
            "offsets JSON version 1 has an unknown field \"" + key + "\"");
      }
    }
    if (!(top.get("queues") instanceof Map<?, ?> queues)) {
      throw new IllegalArgumentException(
          "offsets JSON has no \"queues\" object: " + abbreviate(json));
    }
    Map<PartitionId, Long> result = new TreeMap<>();
    for (Map.Entry<?, ?> queueEntry : queues.entrySet()) {
      QueueId queue = QueueId.parseKey((String) queueEntry.getKey());
      if (!(queueEntry.getValue() instanceof Map<?, ?> partitions)) {
        throw new IllegalArgumentException(
            "offsets of queue " + queue + " must be an object {\"<partition>\": <offset>}");
      }
      for (Map.Entry<?, ?> partitionEntry : partitions.entrySet()) {
        int index = parsePartitionIndex(queue, (String) partitionEntry.getKey());
        if (!(partitionEntry.getValue() instanceof Long offset) || offset < 0) {
          throw new IllegalArgumentException(
              "offset of "
                  + queue
                  + " partition "
                  + index
                  + " must be an integer >= 0, got "
                  + partitionEntry.getValue());
        }
        result.put(new PartitionId(queue, index), offset);
      }
    }
    return StreamOffsets.of(result);
  }

  private static int parsePartitionIndex(QueueId queue, String key) {
    try {
      int index = Integer.parseInt(key);
      if (index < 0 || !key.equals(Integer.toString(index))) {
        throw new NumberFormatException();
      }
      return index;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "partition key \"" + key + "\" of queue " + queue + " is not a partition index >= 0", e);
    }
  }

  private static String abbreviate(String json) {
    return json.length() <= 200 ? json : json.substring(0, 200) + "...";
  }
}
