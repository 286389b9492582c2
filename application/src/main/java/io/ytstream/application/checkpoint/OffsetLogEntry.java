package io.ytstream.application.checkpoint;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The yt sources' offsets in one entry of Spark's offset log ({@code offsets/N}, written by {@code
 * OffsetSeqLog}): line 0 is the log's version, line 1 Spark's batch metadata, then one line per
 * source of the query, each that source's offset JSON (or {@code -} for a source without one).
 * Lines of other sources are skipped.
 */
public final class OffsetLogEntry {

  private OffsetLogEntry() {}

  /** Spark's entry for a query whose only source is a yt source at {@code end}. */
  public static String of(StreamOffsets end) {
    return "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":0,\"conf\":{}}\n"
        + OffsetsJson.write(end);
  }

  /** The non-empty yt offsets of the entry, in the order of the query's sources. */
  public static List<StreamOffsets> ytOffsets(String text) {
    String[] lines = text.split("\n", -1);
    List<StreamOffsets> out = new ArrayList<>();
    for (int i = 2; i < lines.length; i++) {
      parseYtLine(lines[i]).filter(o -> !o.isEmpty()).ifPresent(out::add);
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
