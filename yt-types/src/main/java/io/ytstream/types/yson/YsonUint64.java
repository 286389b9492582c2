package io.ytstream.types.yson;

import java.math.BigInteger;

/**
 * A YSON {@code uint64} value (text {@code 42u}, binary marker 0x06), kept apart from {@code int64}
 * ({@link Long}) because YSON tells the two apart. The 64 bits are held in a long and read as
 * unsigned: {@code new YsonUint64(-1)} is 2^64 - 1.
 */
public record YsonUint64(long bits) implements Comparable<YsonUint64> {

  /** 2^64 - 1. */
  public static final YsonUint64 MAX = new YsonUint64(-1L);

  /** Parses an unsigned decimal, e.g. {@code "18446744073709551615"}. */
  public static YsonUint64 parse(String decimal) {
    try {
      return new YsonUint64(Long.parseUnsignedLong(decimal));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("\"" + decimal + "\" is not a uint64 in [0, 2^64-1]", e);
    }
  }

  public BigInteger toBigInteger() {
    BigInteger value = BigInteger.valueOf(bits & Long.MAX_VALUE);
    return bits < 0 ? value.setBit(63) : value;
  }

  @Override
  public int compareTo(YsonUint64 other) {
    return Long.compareUnsigned(bits, other.bits);
  }

  /** The unsigned decimal, without the {@code u} suffix. */
  @Override
  public String toString() {
    return Long.toUnsignedString(bits);
  }
}
