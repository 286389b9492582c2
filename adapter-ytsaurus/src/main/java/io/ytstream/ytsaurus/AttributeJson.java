package io.ytstream.ytsaurus;

import io.ytstream.types.json.JsonWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** An attribute value as {@code set}'s JSON body: the plain values the port takes, checked. */
final class AttributeJson {

  private AttributeJson() {}

  static byte[] encode(Object value, String name) {
    check(value, name);
    return JsonWriter.write(value).getBytes(StandardCharsets.UTF_8);
  }

  private static void check(Object value, String name) {
    if (value instanceof List<?> list) {
      list.forEach(v -> check(v, name));
    } else if (value instanceof Map<?, ?> map) {
      map.forEach(
          (k, v) -> {
            if (!(k instanceof String)) {
              throw new IllegalArgumentException(
                  "attribute @" + name + ": map keys must be strings, got " + k);
            }
            check(v, name);
          });
    } else if (!(value instanceof String
        || value instanceof Long
        || value instanceof Integer
        || value instanceof Double
        || value instanceof Boolean)) {
      throw new IllegalArgumentException(
          "attribute @"
              + name
              + ": a value must be a String, Long, Double, Boolean, List or Map, got "
              + (value == null ? "null" : value.getClass().getName()));
    }
  }
}
