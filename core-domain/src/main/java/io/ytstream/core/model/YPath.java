package io.ytstream.core.model;

import java.util.Objects;

/**
 * An absolute Cypress path such as {@code //home/queue}. Rich YPath attributes ({@code <...>}) are
 * not part of the value: they are request options, not identity.
 */
public record YPath(String value) implements Comparable<YPath> {

  public YPath {
    Objects.requireNonNull(value, "path");
    if (!value.startsWith("//")) {
      throw new IllegalArgumentException(
          "YPath '" + value + "' is not absolute: a Cypress path starts with '//', e.g. //home/q");
    }
    if (value.length() > 2 && value.endsWith("/")) {
      throw new IllegalArgumentException(
          "YPath '" + value + "' ends with '/': drop the trailing slash");
    }
    // A loop, not value.chars().anyMatch(...): paths are built on every checkpoint file access.
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if ((c <= ' ' || c >= 0x80) && Character.isWhitespace(c)) {
        throw new IllegalArgumentException("YPath '" + value + "' contains white space");
      }
    }
  }

  public static YPath of(String value) {
    return new YPath(value);
  }

  /** The path of a child node, e.g. {@code //ckpt} + {@code offsets} = {@code //ckpt/offsets}. */
  public YPath child(String name) {
    if (name.isEmpty() || name.contains("/")) {
      throw new IllegalArgumentException("child name '" + name + "' must be one non-empty segment");
    }
    return new YPath(value.equals("//") ? "//" + name : value + "/" + name);
  }

  @Override
  public int compareTo(YPath other) {
    return value.compareTo(other.value);
  }

  @Override
  public String toString() {
    return value;
  }
}
