package io.ytstream.application.offsets;

import io.ytstream.core.model.StreamOffsets;
import java.util.Objects;
import java.util.Optional;

/**
 * A yt source's offsets as Spark hands them back from its offset log: ytstream's versioned form
 * ({@link OffsetsJson}), or the form SPYT's streaming source wrote ({@link SpytOffsetsJson}),
 * converted. A checkpoint SPYT started holds SPYT's form up to its last batch; Spark writes every
 * later batch in the form the source gives it, ytstream's, so each SPYT entry is converted on the
 * restart that reads it and never written back.
 *
 * @param offsets the offsets in ytstream's terms (the next row to read)
 * @param spytText SPYT's text when the offsets were converted from it, for the engine's log
 */
public record LoggedOffsets(StreamOffsets offsets, Optional<String> spytText) {

  public LoggedOffsets {
    Objects.requireNonNull(offsets, "offsets");
    Objects.requireNonNull(spytText, "spytText");
  }

  /**
   * Reads either form.
   *
   * @throws IllegalArgumentException naming the problem, for text that is neither form or a
   *     malformed one
   */
  public static LoggedOffsets read(String json) {
    StreamOffsets canonical = json == null ? null : CanonicalOffsetsJson.parse(json);
    if (canonical != null) {
      // What ytstream wrote: one pass, no SPYT check.
      return new LoggedOffsets(canonical, Optional.empty());
    }
    if (SpytOffsetsJson.isSpytOffsets(json)) {
      return new LoggedOffsets(SpytOffsetsJson.parse(json), Optional.of(json));
    }
    return new LoggedOffsets(OffsetsJson.parse(json), Optional.empty());
  }

  /** Whether the offsets were SPYT's. */
  public boolean convertedFromSpyt() {
    return spytText.isPresent();
  }
}
