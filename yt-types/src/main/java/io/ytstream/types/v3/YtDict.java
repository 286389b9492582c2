package io.ytstream.types.v3;

import java.util.Objects;

/**
 * {@code dict<key,value>}: a sequence of key/value pairs (the server checks neither order nor
 * uniqueness).
 */
public record YtDict(YtType key, YtType value) implements YtType {

  public YtDict {
    Objects.requireNonNull(key, "dict key type");
    Objects.requireNonNull(value, "dict value type");
  }

  @Override
  public String describe() {
    return "dict<" + key.describe() + ";" + value.describe() + ">";
  }

  @Override
  public boolean isNullable() {
    return false;
  }
}
