package io.ytstream.types.v3;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A named member of a {@link YtStruct} or a {@link YtVariantStruct}. The name must be non-empty and
 * at most {@value #MAX_NAME_BYTES} bytes of UTF-8, as the server requires of struct field names.
 */
public record YtMember(String name, YtType type) {

  /** The server's limit on a struct field name (its column name limit). */
  public static final int MAX_NAME_BYTES = 256;

  public YtMember {
    Objects.requireNonNull(name, "member name");
    Objects.requireNonNull(type, "type of member " + name);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("member name must not be empty");
    }
    int bytes = name.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_NAME_BYTES) {
      throw new IllegalArgumentException(
          "member name is " + bytes + " bytes of UTF-8, more than the limit " + MAX_NAME_BYTES);
    }
  }

  String describe() {
    return name + ":" + type.describe();
  }
}
