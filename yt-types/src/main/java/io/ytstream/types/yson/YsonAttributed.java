package io.ytstream.types.yson;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A YSON value with attributes, {@code <key=value;...>value}. The value is any other YSON value
 * (not itself attributed: the grammar allows one attribute set per node); the attributes keep their
 * order.
 */
public record YsonAttributed(Map<String, Object> attributes, Object value) {

  public YsonAttributed {
    Objects.requireNonNull(attributes, "attributes");
    if (value instanceof YsonAttributed) {
      throw new IllegalArgumentException("a YSON value has at most one set of attributes");
    }
    attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
  }
}
