package io.ytstream.spark.source;

import io.ytstream.application.offsets.LoggedOffsets;
import io.ytstream.application.offsets.OffsetsJson;
import io.ytstream.core.model.StreamOffsets;
import org.apache.spark.sql.connector.read.streaming.Offset;

/** A stream position as Spark stores it in {@code offsets/N}: core's versioned offsets JSON. */
final class YtOffset extends Offset {

  private final StreamOffsets offsets;
  private final String json;

  YtOffset(StreamOffsets offsets) {
    this.offsets = offsets;
    this.json = OffsetsJson.write(offsets);
  }

  /** The offsets Spark logged: ytstream's form, or SPYT's converted ({@link LoggedOffsets}). */
  static LoggedOffsets parseLogged(String json) {
    return LoggedOffsets.read(json);
  }

  static StreamOffsets of(Offset offset) {
    if (offset instanceof YtOffset yt) {
      return yt.offsets;
    }
    return LoggedOffsets.read(offset.json()).offsets();
  }

  StreamOffsets offsets() {
    return offsets;
  }

  @Override
  public String json() {
    return json;
  }
}
