package io.ytstream.ytsaurus;

import io.ytstream.types.yson.YsonUint64;
import java.util.OptionalLong;

/**
 * Values of columns read without a schema (system columns, consumer rows), as either row format
 * decodes them: JSON gives every integer as a {@link Long}; YSON keeps the wire type, so a uint64
 * ({@code $timestamp}, {@code partition_index}) arrives as a {@link YsonUint64}.
 */
final class UntypedValues {

  private UntypedValues() {}

  /** An int64 or uint64 value as a long (a uint64 as its 64 bits); empty for anything else. */
  static OptionalLong integer(Object value) {
    if (value instanceof Long l) {
      return OptionalLong.of(l);
    }
    if (value instanceof YsonUint64 u) {
      return OptionalLong.of(u.bits());
    }
    return OptionalLong.empty();
  }
}
