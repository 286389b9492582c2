package io.ytstream.spark.types;

import io.ytstream.types.schema.TableSchemaJson;
import io.ytstream.types.v3.YtType;
import java.io.Serializable;

/**
 * A type_v3 type that travels to executors inside a converter: yt-types' types are plain records,
 * not {@link Serializable}, so the type is shipped as its type_v3 JSON and parsed again on first
 * use.
 */
final class YtTypeRef implements Serializable {

  private static final long serialVersionUID = 1L;

  private final String json;
  private transient YtType type;

  YtTypeRef(YtType type) {
    this.json = TableSchemaJson.writeType(type);
    this.type = type;
  }

  YtType get() {
    YtType t = type;
    if (t == null) {
      t = TableSchemaJson.parseType(json);
      type = t;
    }
    return t;
  }
}
