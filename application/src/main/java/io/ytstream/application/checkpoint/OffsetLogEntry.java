package io.ytstream.application.checkpoint;

import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.application.offsets.SpytOffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The yt sources' offsets in one entry of Spark's offset log ({@code offsets/N}, written by {@code
 * OffsetSeqLog}): line 0 is the log's version, line 1 Spark's batch metadata, then one line per
 * source of the query, each that source's offset JSON (or {@code -} for a source without one). A
 * line SPYT's streaming source wrote (a checkpoint SPYT started) is read as ytstream's offsets
 * ({@link SpytOffsetsJson}). Lines of other sources are skipped.
 */
public final class OffsetLogEntry {

  /** How a yt source's line starts ({@link OffsetsJson#write}). */
  private static final String YT_PREFIX = "{\"version\":" + OffsetsJson.VERSION + ",\"queues\"";

  private OffsetLogEntry() {}

  /** Spark's entry for a query whose only source is a yt source at {@code end}. */
  public static String of(StreamOffsets end) {
    return "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":0,\"conf\":{}}\n"
        + OffsetsJson.write(end);
  }

  /**
   * The non-empty yt offsets of the entry, in the order of the query's sources.
   *
   * @throws IllegalStateException when the entry is not whole: Spark writes the version line, its
   *     metadata and one line per source (JSON, or {@code -}), so a torn file (an object store can
   *     leave one) lacks lines, ends in an empty or cut line, or holds bytes no JSON has
   * @throws IllegalArgumentException when a yt line is not valid offsets JSON
   */
  public static List<StreamOffsets> ytOffsets(String text) {
    String[] lines = text.split("\n", -1);
    if (lines.length < 3 || !isVersionLine(lines[0])) {
      throw new IllegalStateException(
          "not a whole offset log entry (a version line such as v1, Spark's metadata and a line"
              + " per source), it has "
              + lines.length
              + " line(s)");
    }
    List<StreamOffsets> out = new ArrayList<>();
    for (int i = 2; i < lines.length; i++) {
      String line = lines[i];
      if (line.isEmpty() || (i == lines.length - 1 && YT_PREFIX.startsWith(line))) {
        throw new IllegalStateException("source line " + (i - 2) + " is cut short: '" + line + "'");
      }
      for (int k = 0; k < line.length(); k++) {
        if (line.charAt(k) < 0x20) {
          throw new IllegalStateException(
              "source line " + (i - 2) + " holds control character " + (int) line.charAt(k));
        }
      }
      parseYtLine(line).filter(o -> !o.isEmpty()).ifPresent(out::add);
    }
    return out;
  }

  private static boolean isVersionLine(String line) {
    if (line.length() < 2 || line.charAt(0) != 'v') {
      return false;
    }
    for (int i = 1; i < line.length(); i++) {
      if (line.charAt(i) < '0' || line.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  static Optional<StreamOffsets> parseYtLine(String line) {
    int at = line.indexOf(YT_PREFIX);
    if (at < 0) {
      return line.contains("\"partitions\"") && SpytOffsetsJson.isSpytOffsets(line)
          ? Optional.of(SpytOffsetsJson.parse(line))
          : Optional.empty();
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
